"""Shared by the 101st held-out library generators: the truth file each run writes (``truth.json`` in the run's
folder, ``HOLDOUT_DEST``), with the run's label and intent from the maker (``--label``, ``--should-stop``).

The truth is the library's own structured record (a solution callback's values, a solve log's iteration stats, an
event handler's record), never a parse of the log."""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Iterable
from pathlib import Path


def dest() -> Path:
    """The run's folder (``HOLDOUT_DEST``; the working directory when run by hand)."""
    return Path(os.environ.get("HOLDOUT_DEST", "."))


def seed_all(seed: int = 0) -> None:
    """Python's and numpy's generators seeded."""
    random.seed(seed)
    try:
        import numpy as np

        np.random.seed(seed)
    except ImportError:  # pragma: no cover
        pass


def tol_sig(digits: int) -> dict:
    """A printed value with ``digits`` significant digits."""
    return {"rel": 0.5 * 10.0 ** (1 - digits), "sig": digits}


def tol_decimals(decimals: int) -> dict:
    """A printed value with ``decimals`` decimals."""
    return {"rel": 1e-9, "abs": 0.5 * 10.0 ** (-decimals)}


def _value(v: float) -> float | str:
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def write_truth(*, framework: str, settings: dict, loss_name: str, step_unit: str, tolerance: dict, record: str,
                train_loss: Iterable[tuple[int, float]], label: str, should_stop: bool, **extra: object) -> None:
    """``truth.json``: what the run is (framework, settings, label), where its values come from and the train-loss
    series ``[[step, value], ...]`` at the library's own step numbering (non-finite values as ``"nan"``/``"inf"``)."""
    truth = {"framework": framework, "settings": settings, "label": label, "should_stop": should_stop,
             "loss_name": loss_name, "step_unit": step_unit, "tolerance": tolerance, "record": record,
             "train_loss": [[int(s), _value(v)] for s, v in train_loss]}
    truth.update({k: v for k, v in extra.items() if v is not None})
    (dest() / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
