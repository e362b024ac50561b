"""Shared by the 56th held-out library generators: where a run's files go, the files it keeps and the truth file it
writes (the fields of examples/libraries_holdout6's README: framework, settings, label, should_stop, loss_name,
step_unit, tolerance, record, train_loss, and where there is one an eval series)."""

from __future__ import annotations

import json
import math
import os
import random
import shutil
from collections.abc import Iterable
from pathlib import Path

import numpy as np


def dest() -> Path:
    """The run's folder (``HOLDOUT_DEST``; the working folder when run by hand)."""
    d = Path(os.environ.get("HOLDOUT_DEST", "."))
    d.mkdir(parents=True, exist_ok=True)
    return d


def keep(src: str | Path, name: str | None = None) -> None:
    """Copy one of the library's own small files into the run's folder."""
    src = Path(src)
    if src.is_file():
        shutil.copyfile(src, dest() / (name or src.name))


def seed_all(seed: int) -> None:
    """Seed Python's and numpy's generators (each generator seeds its library's own)."""
    random.seed(seed)
    np.random.seed(seed)


def tol_decimals(n: int) -> dict[str, float]:
    """The tolerance of a value printed with ``n`` decimals."""
    return {"rel": 1e-9, "abs": round(0.51 * 10.0**-n, n + 3)}


def value(v: float | None) -> float | str:
    """A truth value: a finite float, or ``"nan"`` / ``"inf"`` / ``"-inf"`` (a missing value, JSON's null, is nan)."""
    if v is None:
        return "nan"
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


Series = Iterable[tuple[int, float | None]]


def write_truth(*, framework: str, settings: dict, loss_name: str, step_unit: str, tolerance: dict, record: str,
                train_loss: Series, eval_loss: Series | None = None, eval_name: str | None = None,
                **extra: object) -> None:
    """Write ``truth.json`` into the run's folder; the label and should_stop are the run's own arguments."""
    truth: dict[str, object] = {
        "framework": framework, "settings": settings, "label": settings["label"],
        "should_stop": bool(settings["should_stop"]), "loss_name": loss_name, "step_unit": step_unit,
        "tolerance": tolerance, "record": record, "train_loss": [[int(s), value(v)] for s, v in train_loss]}
    if eval_loss is not None:
        truth["eval_loss"] = [[int(s), value(v)] for s, v in eval_loss]
        truth["eval_name"] = eval_name
    truth.update(extra)
    (dest() / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
