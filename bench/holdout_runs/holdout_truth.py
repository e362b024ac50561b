"""Shared by the held-out generators: the truth file each run writes beside its log.

A generator is run as ``python GEN.py ARGS > train.log 2>&1`` by ``make_holdout.py``; it trains, then writes
``truth.json`` to the path in ``HOLDOUT_TRUTH`` (silently: nothing it writes there reaches the log).
"""

from __future__ import annotations

import json
import math
import os


def num(v: float) -> float | str:
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def write_truth(*, framework: str, settings: dict, label: str, should_stop: bool, loss_name: str,
                step_unit: str, tolerance: dict, record: str, train_loss: list, **extra) -> None:
    path = os.environ.get("HOLDOUT_TRUTH")
    if not path:
        return
    doc = {"framework": framework, "settings": settings, "label": label, "should_stop": should_stop,
           "loss_name": loss_name, "step_unit": step_unit, "tolerance": tolerance, "record": record,
           "train_loss": [[int(s), num(v)] for s, v in train_loss]}
    for k, v in extra.items():
        if v is None:
            continue
        if isinstance(v, list):
            v = [[int(s), num(x)] for s, x in v]
        doc[k] = v
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
