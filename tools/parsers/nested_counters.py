"""Nested counters in one record (issue 32, fixjenn): ``epoch = 0, batch = 1, iter = 7, cost = 1.25``.

A record printing several counters, outermost first, its step the innermost (``iter``) and between the epoch and it
a counter named a batch's (``Dialect.inner_names``: ``fields.Plan.outer``), is at the step of a run's history
flattened: the innermost counter continues across every change of an outer one exactly as a step restarting each
epoch does (``engine._continue_steps``: a counter is per-epoch only if it restarts when the epoch changes; here when
any outer counter moves on). The outer counters are compared as one position, lexicographically (the epoch first):
``outer_positions`` turns them into one number that moves up where the position moves on, down where it goes back
(a new run) and stays where it stays, which is all ``_continue_steps`` looks at between consecutive records. An
innermost counter that never restarts is global and kept as printed; one whose outer counters all stay reads as
before. Kept in ``st`` across reads (the last outer position and its number), so the same bytes read the same whole
and in pieces.
"""

from __future__ import annotations

import numpy as np

from .fields import Plan


def outer_columns(plan: Plan, got: dict[int, np.ndarray], n: int) -> list[np.ndarray]:
    """The record's outer counters as columns, outermost first: its epoch (0 when it prints none), then
    ``plan.outer``."""
    cols = [got[plan.epoch] if plan.epoch is not None else np.zeros(n)]
    return cols + [got[f] for f in plan.outer]


def outer_positions(cols: list[np.ndarray], st: dict) -> np.ndarray:
    """One number per record for the outer counters ``cols`` (rows in line order, outermost first): the number
    before it plus 1 where the position is lexicographically after the one before, minus 1 where before it, the same
    where equal; NaN where a counter holds no finite number (that record is then no restart, as a record with no epoch).
    Linear in the records; the last position and number kept in ``st`` (``nest_last``, ``nest_key``)."""
    n = len(cols[0]) if cols else 0
    out = np.full(n, np.nan)
    if not n:
        return out
    rows = np.column_stack(cols).astype(float)
    valid = np.isfinite(rows).all(axis=1)
    v = rows[valid]
    if not len(v):
        return out
    last = st.get("nest_last")
    before = last is not None and len(last) == rows.shape[1]
    chain = np.vstack((np.asarray(last, dtype=float)[None, :], v)) if before else v
    diff = np.diff(chain, axis=0)
    moved = diff != 0
    first = moved.argmax(axis=1)
    sign = np.sign(diff[np.arange(len(diff)), first]) * moved.any(axis=1)
    steps = sign if before else np.concatenate(([0.0], sign))
    keys = float(st.get("nest_key", 0.0)) + np.cumsum(steps)
    out[valid] = keys
    st["nest_last"], st["nest_key"] = [float(x) for x in v[-1]], float(keys[-1])
    return out
