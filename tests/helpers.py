"""Plain helpers shared by test modules (fixtures live in conftest.py and the fixture modules)."""

from __future__ import annotations

import math
import re
from pathlib import Path

from training_check.tools.points import PointBatch


def as_points(batch: PointBatch) -> dict[str, list[tuple[int, float]]]:
    """Each metric's (step, value) pairs, in the batch's order."""
    return {k: list(zip(c.steps.tolist(), c.values.tolist(), strict=True)) for k, c in batch.columns.items()}


def comparable_points(batch: PointBatch) -> dict[str, list[tuple[int, float | str]]]:
    """``as_points`` with NaN written "nan", so that two batches compare equal with ==."""
    return {k: [(s, "nan" if math.isnan(v) else v) for s, v in pts] for k, pts in as_points(batch).items()}


def whole(message: str) -> str:
    """A ``pytest.raises(match=...)`` pattern that matches exactly ``message``, the whole line and nothing else."""
    return rf"\A{re.escape(message)}\Z"


def use_wandb_api(monkeypatch, tmp_path: Path, api_key: str) -> None:
    """The real wandb client, quiet, with its config and cache under ``tmp_path`` and ``api_key`` as the key; the
    test sets WANDB_BASE_URL to its stand-in server."""
    monkeypatch.setenv("WANDB_API_KEY", api_key)
    monkeypatch.setenv("WANDB_CONFIG_DIR", str(tmp_path / "wandb-config"))
    monkeypatch.setenv("WANDB_CACHE_DIR", str(tmp_path / "wandb-cache"))
    monkeypatch.setenv("WANDB_SILENT", "true")
    monkeypatch.delenv("WANDB_MODE", raising=False)
