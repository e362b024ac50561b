"""Shared by the fourth held-out library generators: the truth file each run writes, and the files it keeps.

A generator is run by ``make_all.py`` as ``nice -n 10 python GEN.py ARGS > train.log 2>&1`` in a fresh temporary
working directory. After training it writes ``truth.json`` into the run folder named by ``HOLDOUT_DEST`` and copies
the library's own small files there with ``keep``. Nothing written here reaches the log.
"""

from __future__ import annotations

import json
import math
import os
import random
import shutil
from pathlib import Path

__all__ = ["dest", "keep", "seed_all", "tol_decimals", "tol_sig", "write_truth"]


def dest() -> Path | None:
    d = os.environ.get("HOLDOUT_DEST")
    return Path(d) if d else None


def seed_all(seed: int = 0) -> None:
    random.seed(seed)
    try:
        import numpy as np
        np.random.seed(seed)
    except ImportError:
        pass
    try:
        import torch
        torch.manual_seed(seed)
        torch.set_num_threads(1)
    except ImportError:
        pass


def tol_decimals(n: int) -> dict:
    """A value printed with ``n`` decimals."""
    return {"rel": 1e-09, "abs": 0.51 * 10.0 ** (-n)}


def tol_sig(n: int) -> dict:
    """A value printed with ``n`` significant digits (``%.{n-1}e``, ``%.{n}g``)."""
    return {"rel": 0.51 * 10.0 ** (1 - n), "sig": n}


def _num(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def _series(pairs):
    return [[int(s) if float(s).is_integer() else float(s), _num(v)] for s, v in pairs]


def write_truth(*, framework: str, settings: dict, loss_name: str, step_unit: str, tolerance: dict, record: str,
                train_loss, eval_loss=None, eval_name: str | None = None, name: str = "truth.json",
                **extra) -> None:
    d = dest()
    if d is None:
        return
    doc = {"framework": framework, "settings": settings,
           "label": os.environ.get("HOLDOUT_LABEL", "healthy"),
           "should_stop": os.environ.get("HOLDOUT_SHOULD_STOP", "0") == "1",
           "loss_name": loss_name, "step_unit": step_unit, "tolerance": tolerance, "record": record,
           "train_loss": _series(train_loss)}
    if eval_loss is not None:
        doc["eval_loss"] = _series(eval_loss)
        doc["eval_name"] = eval_name
    doc.update(extra)
    (d / name).write_text(json.dumps(doc, indent=1) + "\n")


def keep(src: str | Path, as_name: str | None = None) -> None:
    """Copy one of the library's own files (or folders) into the run folder."""
    d = dest()
    if d is None:
        return
    src = Path(src)
    target = d / (as_name or src.name)
    if target.resolve() == src.resolve():
        return
    if src.is_dir():
        shutil.copytree(src, target, dirs_exist_ok=True)
    else:
        shutil.copy2(src, target)
