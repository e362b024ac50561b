"""Shared by the held-out generators: the truth file each run writes beside its log.

A generator is run as ``python GEN.py ARGS > train.log 2>&1`` by ``make_holdout.py``; it trains, then writes
``truth.json`` to the path in ``HOLDOUT_TRUTH`` (silently: nothing it writes there reaches the log).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # bench/: truth_file (after the installed packages)

from truth_file import truth_doc  # noqa: E402


def write_truth(**fields) -> None:
    path = os.environ.get("HOLDOUT_TRUTH")
    if not path:
        return
    with open(path, "w") as f:
        json.dump(truth_doc(**fields), f, indent=1)
