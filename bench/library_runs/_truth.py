"""Shared by the library generators: the truth file each run writes beside its log, and where to copy its files.

A generator is run as ``python GEN.py ARGS > train.log 2>&1`` by ``make_libraries.py`` in a fresh temporary working
directory; it trains, then writes ``truth.json`` to the path in ``LIB_TRUTH`` (silently: nothing it writes there
reaches the log) and copies the library's own small files (stores, CSVs, TSVs, event files) into ``LIB_OUT``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # bench/: truth_file (after the installed packages)

from truth_file import copy_into, truth_doc  # noqa: E402


def write_truth(*, name: str = "truth.json", **fields) -> None:
    """Write the run's truth (``name``: another file beside it for a store whose steps differ from the log's)."""
    out = os.environ.get("LIB_TRUTH")
    if not out:
        return
    with open(Path(out).with_name(name), "w") as f:
        json.dump(truth_doc(**fields), f, indent=1)


def keep(src: str | Path, name: str | None = None) -> None:
    """Copy a file or folder the library wrote into the run's folder (``LIB_OUT``), under ``name``."""
    out = os.environ.get("LIB_OUT")
    if not out:
        return
    copy_into(src, Path(out) / (name or Path(src).name))


def common_args(p) -> None:
    p.add_argument("--label", default="healthy")
    p.add_argument("--should-stop", action="store_true")
    p.add_argument("--seed", type=int, default=0)


def settings_of(args) -> dict:
    return {k: v for k, v in vars(args).items() if k not in ("label", "should_stop")}
