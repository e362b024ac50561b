"""Shared by the held-out library generators: the truth file each run writes, and the files it keeps.

A generator is run by ``make_all.py`` as ``python GEN.py ARGS > train.log 2>&1`` in a fresh temporary working
directory. After training it writes ``truth.json`` (and, for a run whose natural source is a store, a second
truth for that store) into the run folder named by ``HOLDOUT_DEST``, and copies the library's own small files
there with ``keep``. Nothing written here reaches the log.
"""

from __future__ import annotations

import json
import math
import os
import random
import shutil
from pathlib import Path


def seed_all(seed: int) -> None:
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


def dest() -> Path | None:
    d = os.environ.get("HOLDOUT_DEST")
    return Path(d) if d else None


def num(v: float) -> float | str:
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def write_truth(*, framework: str, settings: dict, label: str, should_stop: bool, loss_name: str,
                step_unit: str, tolerance: dict, record: str, train_loss: list, name: str = "truth.json",
                **extra) -> None:
    d = dest()
    if d is None:
        return
    doc = {"framework": framework, "settings": settings, "label": label, "should_stop": should_stop,
           "loss_name": loss_name, "step_unit": step_unit, "tolerance": tolerance, "record": record,
           "train_loss": [[int(s), num(v)] for s, v in train_loss]}
    for k, v in extra.items():
        if v is None:
            continue
        if isinstance(v, list) and v and isinstance(v[0], (list, tuple)):
            v = [[int(s), num(x)] for s, x in v]
        doc[k] = v
    (d / name).write_text(json.dumps(doc, indent=1) + "\n")


def keep(src: str | Path, as_name: str | None = None) -> None:
    """Copy one of the library's own files (or folders) into the run folder."""
    d = dest()
    if d is None:
        return
    src = Path(src)
    target = d / (as_name or src.name)
    if src.is_dir():
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(src, target)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)


def store_entry(file: str, truth: str) -> None:
    """Declare a second manifest entry for this run: a store or file other than train.log, with its own truth."""
    d = dest()
    if d is None:
        return
    with open(d / "extra_entries.json", "a") as f:
        f.write(json.dumps({"file": file, "truth": truth}) + "\n")
