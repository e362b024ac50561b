"""A block's reads, as the engine and its progress-bar steps (``bar_steps``) pass them between each other.

A read is one template's lines in a block: its plan (``fields.Plan``), the lines' indices, and per field the numbers
read (``got``) and where a field held no number (``bad``); the explicit steps, when the template has them, are the
column ``EXPLICIT``. The few helpers both modules use on reads live here too.
"""

from __future__ import annotations

import math

import numpy as np

from .fields import Plan

Read = tuple[Plan, np.ndarray, dict[int, np.ndarray], dict[int, np.ndarray]]

EXPLICIT = -1  # the key of a read's explicit steps among its columns (``got``; the columns are fields 0, 1, ...)
PENDING_LINE = 2048  # bytes of a line looked at for what it is (a banner, a summary, a one-off line carried)


def has_position(plan: Plan) -> bool:
    """Whether the template prints its own position: an explicit step or a progress counter."""
    return plan.step is not None or plan.counter is not None


def series_key(plan: Plan) -> str:
    """The series a template's records belong to: its metrics' names (capped)."""
    return ",".join(sorted(plan.metrics.values()))[:128]


def name_role(name: str) -> str:
    """The role of a metric's name (``roles.infer_role``: ``train_loss``, ``eval``, ``lr``, ... or ``other``)."""
    from ..roles import infer_role

    return infer_role(name).role


def whole_count(x: float) -> int | None:
    """A run length from run text: a whole number of a sane size, or None."""
    return int(x) if math.isfinite(x) and 0 < x < 1e15 else None


def ffill(values: np.ndarray, start: float | None) -> np.ndarray:
    """``values`` with each NaN replaced by the last number before it (``start`` before the first); a new array.
    Few numbers (banners, bars among records): each repeated up to the next; many: pandas' forward fill."""
    have = np.flatnonzero(~np.isnan(values))
    if len(have) * 4 < len(values) or len(values) < 4096:
        fill = np.empty(len(have) + 1)
        fill[0] = np.nan if start is None else start
        fill[1:] = values[have]
        return np.repeat(fill, np.diff(np.concatenate(([0], have, [len(values)]))))
    import pandas as pd

    w = np.empty(len(values) + 1)
    w[0] = np.nan if start is None else start
    w[1:] = values
    return pd.Series(w, copy=False).ffill().to_numpy(dtype=np.float64, copy=True)[1:]


def end_marks(prog_n: np.ndarray, prog_total: np.ndarray, drawn: np.ndarray, n_ctx: int, st: dict,
              key: str) -> np.ndarray:
    """At each line, whether the bar drawn on ``drawn``'s lines last stood at its total (1), short of it (0), with no
    total (2), NaN before any count moved; carried on from its last state in ``st[key]`` (the same at any read
    size)."""
    counted = drawn & (prog_n > 0)
    if n_ctx:
        counted[:n_ctx] = False  # (lines carried from an earlier read: drawn before its end)
    mark = np.where(counted, np.where(np.isnan(prog_total), 2.0, (prog_n >= prog_total).astype(float)), np.nan)
    filled = ffill(mark, st.get(key))
    if len(filled) and not np.isnan(filled[-1]):
        st[key] = float(filled[-1])
    return filled
