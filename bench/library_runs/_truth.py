"""Shared by the library generators: the truth file each run writes beside its log, and where to copy its files.

A generator is run as ``python GEN.py ARGS > train.log 2>&1`` by ``make_libraries.py`` in a fresh temporary working
directory; it trains, then writes ``truth.json`` to the path in ``LIB_TRUTH`` (silently: nothing it writes there
reaches the log) and copies the library's own small files (stores, CSVs, TSVs, event files) into ``LIB_OUT``.
"""

from __future__ import annotations

import json
import math
import os
import shutil
from pathlib import Path


def num(v: float) -> float | str:
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def series(points) -> list:
    return [[int(s), num(v)] for s, v in points]


def write_truth(*, framework: str, settings: dict, label: str, should_stop: bool, loss_name: str,
                step_unit: str, tolerance: dict, record: str, train_loss: list, name: str = "truth.json",
                **extra) -> None:
    """Write the run's truth (``name``: another file beside it for a store whose steps differ from the log's)."""
    out = os.environ.get("LIB_TRUTH")
    if not out:
        return
    path = Path(out).with_name(name)
    doc = {"framework": framework, "settings": settings, "label": label, "should_stop": should_stop,
           "loss_name": loss_name, "step_unit": step_unit, "tolerance": tolerance, "record": record,
           "train_loss": series(train_loss)}
    for k, v in extra.items():
        if v is None:
            continue
        if isinstance(v, list) and v and isinstance(v[0], (list, tuple)):
            v = series(v)
        doc[k] = v
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)


def keep(src: str | Path, name: str | None = None) -> None:
    """Copy a file or folder the library wrote into the run's folder (``LIB_OUT``), under ``name``."""
    out = os.environ.get("LIB_OUT")
    if not out:
        return
    src = Path(src)
    dest = Path(out) / (name or src.name)
    if src.is_dir():
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(src, dest)
    else:
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest)


def common_args(p) -> None:
    p.add_argument("--label", default="healthy")
    p.add_argument("--should-stop", action="store_true")
    p.add_argument("--seed", type=int, default=0)


def settings_of(args) -> dict:
    return {k: v for k, v in vars(args).items() if k not in ("label", "should_stop")}
