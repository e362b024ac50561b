"""Phases of one run printed by a record naming its own whole epoch, its count restarting within the log.

A record printing its own epoch, one an epoch (lightwood's ``Loss @ epoch 3: 0.2053``), whose count goes back to
(or before) the log's first epoch after it had moved on, and climbs again (``epoch 1`` after ``epoch 11``): the
run went on to another phase that trains again (a fit on another split, an adjustment: a few epochs each), not later
steps of the phase before, and, while the later phase is shorter than one before it, no new run either (a job
restarted from scratch runs at least as long as the one it replaces: ``bar_steps.run_starts``). The run's curve is
its longest phase (the earliest of equals): its records are at their epochs; the other phases' records are set
aside, counted and said in a note, never one curve with it. Where a later phase grows longer than the one kept,
it is kept instead: an earlier read having given the other one's points, the file is read again from its start
knowing it (pin ``eph_pin``: the phases before it set aside), so the same bytes read the same whole and in pieces.

Linear in the records (numpy), bounded state: at most ``MAX_KINDS`` record kinds followed."""

from __future__ import annotations

import numpy as np

MAX_KINDS = 16  # record kinds whose phases a log's state follows


def kept_phase(ep: np.ndarray, key: str, st: dict) -> np.ndarray | None:
    """Which records of ``ep`` (one record kind's whole epochs in line order, this read; ``key`` names the kind)
    are in the run's longest phase, or None where the epochs do not read as phases (a count going back that is no
    restart to the first epoch: placed as before, and from then on; an earlier read having used phases, the file
    is read again without them, pin ``eph_off``). Kept in ``st["eph"]`` across reads: the kind's first and last
    epoch, its phase number, the current phase's length, the kept phase and its length."""
    phases = st.setdefault("eph", {})
    if not len(ep) or key in (st.get("eph_off") or ()) or key not in phases and len(phases) >= MAX_KINDS:
        return None
    if phases.get(key, ()) is None:
        return None  # refuted earlier
    first, last, cur, cur_len, kept, kept_len = phases.get(key) or (float(ep[0]), None, 0, 0, 0, 0)
    seq = ep if last is None else np.concatenate(([last], ep))
    back = np.diff(seq) <= 0
    tail = len(ep) - len(back)  # (the first record of the log has no record before it)
    restart = back & (ep[tail:] <= first)
    if (back & ~restart).any():  # a count going back elsewhere: no phases of one record
        phases[key] = None
        if cur:  # an earlier read set phases apart: read again without them
            st["revise"] = {**(st.get("revise") or {}), "eph_off": sorted({*(st.get("eph_off") or ()), key})}
        return None
    starts = np.zeros(len(ep), dtype=bool)
    starts[tail:] = restart
    phase = cur + np.cumsum(starts)
    n_new = int(phase[-1]) - cur + 1  # phases this read touches, the carried one first
    lengths = np.bincount(phase - cur, minlength=n_new).astype(np.int64)
    lengths[0] += cur_len
    pin = (st.get("eph_pin") or {}).get(key)
    was = kept
    best, best_len = (kept, kept_len) if pin is None or kept >= pin else (-1, -1)
    if best == cur:
        best_len = int(lengths[0])  # (the kept phase grew)
    cand = lengths.copy()
    if pin is not None:
        cand[cur + np.arange(n_new) < pin] = -1  # (a later phase overtook them: pinned)
    j = int(np.argmax(cand))  # the longest phase so far, the earliest of equals
    if int(cand[j]) > best_len:
        best, best_len = cur + j, int(cand[j])
    kept, kept_len = (int(pin or 0), 0) if best < 0 else (best, best_len)  # (the pinned phase not reached yet: every
    # record before it set aside)
    if kept != was and (st.get("eph_given") or {}).get(key):  # an earlier read gave another phase's points
        st["revise"] = {**(st.get("revise") or {}), "eph_pin": {**(st.get("eph_pin") or {}), key: kept}}
    keep = phase == kept
    phases[key] = (first, float(ep[-1]), int(phase[-1]), int(lengths[-1]), kept, kept_len)
    if keep.any():
        st.setdefault("eph_given", {})[key] = True
    st["eph_aside"] = int(st.get("eph_aside", 0)) + int((~keep).sum())
    st["eph_phases"] = max(int(st.get("eph_phases", 0)), int(phase[-1]) + 1)
    return keep
