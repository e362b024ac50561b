"""A counter that never advances while records recur: a call's setting, not the records' step.

A library that trains in calls (baal's ``ModelWrapper.train_on_dataset(epoch=1)`` in a loop, or ``epoch=6`` once a
round) logs at each call's start a line naming the call's settings (``Starting training   dataset=240 epoch=1``),
then the call's record with no position of its own (``Training complete   train_loss=7.93``). The epoch named there
is what each call runs, the same value before every record: taken as the records' step it puts them all at one
step. A template whose epoch field holds one whole value at every line, with records without a position of their
own between its lines at least ``MIN_CALLS`` times, is such a call's header: its epoch is no position, and its line
no record unless it holds a loss of its own (the records are then numbered by their order, as the engine numbers
records with no step). A value that ever moves is a real epoch, for good. Decided after earlier reads placed some of
the records at that value, the fact is learned late: the file is read again from its start knowing it (``revise``);
so is a value taken for a setting that a later read sees move (the first records of a pretty-printed JSON log all
under ``"epoch": 0``).
"""

from __future__ import annotations

import numpy as np

from .fields import Plan
from .reads import has_position, series_key

MIN_CALLS = 3  # calls (a header line with records after it) before its counter is a setting
MAX_SETTING = 64  # templates remembered (seen, moved, stuck)


def recurring(plans: list[tuple[Plan, np.ndarray]], n: int) -> np.ndarray:
    """Prefix counts (``n + 1``) of the block's lines that are records with no position of their own (metrics, no
    step, epoch nor counter, no evaluation's): ``c[j] - c[i]`` of them among lines ``i .. j - 1``."""
    mask = np.zeros(n, dtype=np.int64)
    for plan, idx in plans:
        if plan.metrics and not plan.is_eval and plan.epoch is None and not has_position(plan):
            mask[idx] = 1
    out = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(mask, out=out[1:])
    return out


def is_setting(plan: Plan, idx: np.ndarray, epochs: np.ndarray, recur: np.ndarray, n_ctx: int, st: dict) -> bool:
    """Whether the template's epoch field (``plan.epoch``, read as ``epochs`` at lines ``idx``) is a call's setting
    (see the module's docstring); ``recur``: ``recurring``'s prefix counts; ``n_ctx``: lines carried from an
    earlier block, counted there."""
    if plan.epoch is None or plan.is_eval or has_position(plan) or not len(idx):
        return False
    ident = f"{series_key(plan)}|{plan.n_fields}"
    stuck = st.setdefault("se_stuck", [])
    moved = st.setdefault("se_moved", [])
    if ident in moved:
        return False
    own = idx >= n_ctx
    lines, vals = idx[own], epochs[own]
    if ident in stuck:
        held = (st.get("se_val") or {}).get(ident)
        if not len(vals):
            return True
        if held is None and not np.isnan(vals).any() and (vals == vals[0]).all():
            st.setdefault("se_val", {})[ident] = held = float(vals[0])  # (pinned before its value was kept)
        if held is not None and not (np.isnan(vals).any() or (vals != held).any()):
            return True
        # the value moves after all (a pretty-printed JSON record's ``"epoch": 0`` over the first records, then 1):
        # a real epoch, for good; earlier reads took it for a setting: read again from the start knowing it
        stuck.remove(ident)
        if len(moved) < MAX_SETTING:
            moved.append(ident)
        st.setdefault("revise", {}).update({"se_stuck": list(stuck), "se_moved": list(moved)})
        return False
    seen = st.setdefault("se_seen", {})  # per template: [its one value, calls so far, a record after its last line]
    if not len(lines):
        return False
    before = seen.get(ident)
    first = vals[0] if before is None else before[0]
    if np.isnan(vals).any() or (vals % 1 != 0).any() or (vals != first).any():
        seen.pop(ident, None)
        if len(moved) < MAX_SETTING:
            moved.append(ident)
        return False
    gaps = recur[lines[1:]] - recur[lines[:-1] + 1] > 0  # records between one line and the next
    opened = recur[lines[0]] - recur[n_ctx] > 0 or bool(before and before[2])
    calls = (1 if before is None else int(before[1]) + int(opened)) + int(gaps.sum())
    after = bool(recur[-1] - recur[lines[-1] + 1] > 0)
    if calls < MIN_CALLS:
        if ident in seen or len(seen) < MAX_SETTING:
            seen[ident] = [float(first), calls, after]
        return False
    seen.pop(ident, None)
    if len(stuck) < MAX_SETTING:
        stuck.append(ident)
        st.setdefault("se_val", {})[ident] = float(first)  # (a later read's other value refutes it)
    if before is not None:  # earlier reads placed some records at that value: read again knowing it
        st.setdefault("revise", {}).update({"se_stuck": list(stuck), "se_val": dict(st.get("se_val") or {})})
    return True
