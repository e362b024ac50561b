"""Shared by the corpus generators (framework_runs/, holdout_runs/, library_runs/, holdout_libraries/): the truth.

Each generator trains with a library's own logging and then writes ``truth.json``, the library's own structured
record of the train loss, beside the log it printed; the folders' own modules (``_common``, ``holdout_truth``,
``_truth``, ``lib_truth``) say where it goes. This module holds what they share: a JSON-safe number, a series of
points, the truth document and copying a library's own files, and seeding a run.
"""

from __future__ import annotations

import math
import random
import shutil
from pathlib import Path
from typing import Any


def num(v: Any) -> float | str:
    """A JSON-safe number: NaN and infinities as the strings 'nan', 'inf', '-inf'."""
    f = float(v)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return f


def series(points: Any) -> list:
    """(step, value) points as ``[[step, value], ...]``."""
    return [[int(s), num(v)] for s, v in points]


def seed_all(seed: int) -> None:
    """Seed Python, NumPy and torch (those installed), and keep torch to one thread."""
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


def truth_doc(*, framework: str, settings: dict, label: str, should_stop: bool, loss_name: str, step_unit: str,
              tolerance: dict, record: str, train_loss: list, **extra: Any) -> dict:
    """The truth document: its fields, then each extra not None (a list of points as a series)."""
    doc = {"framework": framework, "settings": settings, "label": label, "should_stop": should_stop,
           "loss_name": loss_name, "step_unit": step_unit, "tolerance": tolerance, "record": record,
           "train_loss": series(train_loss)}
    for k, v in extra.items():
        if v is None:
            continue
        if isinstance(v, list) and v and isinstance(v[0], (list, tuple)):
            v = series(v)
        doc[k] = v
    return doc


def copy_into(src: str | Path, target: Path) -> None:
    """Copy a file or folder a library wrote to ``target`` (a folder there is replaced)."""
    src = Path(src)
    if src.is_dir():
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(src, target)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)
