"""Plain helpers shared by test modules (fixtures live in conftest.py and the fixture modules)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
from training_check.tools.parsers.base import Emitter
from training_check.tools.points import PointBatch


def as_points(batch: PointBatch) -> dict[str, list[tuple[int, float]]]:
    """Each metric's (step, value) pairs, in the batch's order."""
    return {k: list(zip(c.steps.tolist(), c.values.tolist(), strict=True)) for k, c in batch.columns.items()}


def comparable_points(batch: PointBatch) -> dict[str, list[tuple[int, float | str]]]:
    """``as_points`` with NaN written "nan", so that two batches compare equal with ==."""
    return {k: [(s, "nan" if math.isnan(v) else v) for s, v in pts] for k, pts in as_points(batch).items()}


def emitted_points(em: Emitter) -> list[tuple[str, list[int], list[float]]]:
    """What a parser emitted: (metric, steps, values) per metric, in the emitter's order."""
    b = em.build()
    return [(k, c.steps.tolist(), c.values.tolist()) for k, c in b.columns.items()]


def engine_read(text: str, by_line: bool = False) -> Emitter:
    """``text`` read by the text-log engine at once, or a line at a time (state carried between the reads)."""
    from training_check.tools.parsers.engine import TextLogFormat

    em, fmt = Emitter(), TextLogFormat()
    for block in (text.splitlines(keepends=True) if by_line else [text]):
        fmt.parse_plain(block.encode(), em)
    fmt.finish(em)
    return em


def same_points(a: list[tuple[str, list[int], list[float]]], b: list[tuple[str, list[int], list[float]]]) -> bool:
    """Equal ``emitted_points``: the same metrics in the same order, equal steps, values equal with NaN equal NaN."""
    if [k for k, _, _ in a] != [k for k, _, _ in b]:
        return False
    return all(sa == sb and np.array_equal(np.array(va), np.array(vb), equal_nan=True)
               for (_, sa, va), (_, sb, vb) in zip(a, b, strict=True))


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


def edited(draw, data: bytearray, pool: list[int]) -> bytes:
    """``data`` after 1 to 3 random edits (insert, replace or delete a byte of ``pool``), drawn with hypothesis'
    ``draw``: the mutation the fast-path tests attack a reader with."""
    from hypothesis import strategies as st

    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(data) - 1))
        op = draw(st.sampled_from(("insert", "replace", "delete")))
        ch = draw(st.sampled_from(pool))
        if op == "insert":
            data.insert(at, ch)
        elif op == "replace":
            data[at] = ch
        elif len(data) > 2:
            del data[at]
    return bytes(data)
