"""Shared by the held-out library generators: the truth file each run writes, and the files it keeps.

A generator is run by ``make_all.py`` as ``python GEN.py ARGS > train.log 2>&1`` in a fresh temporary working
directory. After training it writes ``truth.json`` (and, for a run whose natural source is a store, a second
truth for that store) into the run folder named by ``HOLDOUT_DEST``, and copies the library's own small files
there with ``keep``. Nothing written here reaches the log.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # bench/: truth_file (after the installed packages)

from truth_file import copy_into, seed_all, truth_doc  # noqa: E402

__all__ = ["dest", "keep", "seed_all", "store_entry", "write_truth"]


def dest() -> Path | None:
    d = os.environ.get("HOLDOUT_DEST")
    return Path(d) if d else None


def write_truth(*, name: str = "truth.json", **fields) -> None:
    """Write the run's truth (``name``: a second truth, for a store)."""
    d = dest()
    if d is None:
        return
    (d / name).write_text(json.dumps(truth_doc(**fields), indent=1) + "\n")


def keep(src: str | Path, as_name: str | None = None) -> None:
    """Copy one of the library's own files (or folders) into the run folder."""
    d = dest()
    if d is None:
        return
    copy_into(src, d / (as_name or Path(src).name))


def store_entry(file: str, truth: str) -> None:
    """Declare a second manifest entry for this run: a store or file other than train.log, with its own truth."""
    d = dest()
    if d is None:
        return
    with open(d / "extra_entries.json", "a") as f:
        f.write(json.dumps({"file": file, "truth": truth}) + "\n")
