"""A live display of several lines redrawn together: a record drawn right above a progress bar's line.

A live display (rich's ``Live``/``Progress`` with a renderable above its bar, enlighten, tqdm with a status line)
redraws its lines together, the record first, then the bar: torchfitter's ``loss -> Train: 3.43e+00 | Validation:
2.56e+00 • Learning Rate: 0.05`` then ``Epoch 3/30 • ━━━━━━━━ • 100% • 0:00:00``. The record line has no position of
its own; the bar's line right after it (the next nonblank line: an epoch banner ``Epoch n/N`` that is a bar's state,
``tables_text.is_bar``) gives it: the record is at the bar's epoch, even though it comes first. The display may be
redrawn only every k epochs, so the epochs it gives jump (1, 3, 6, 9, ...): each record is at the epoch its own bar
shows, never numbered by line order.

Learnt at the log's first such pair (kept in ``st["ld"]``; an earlier read that placed records with no position
otherwise: pinned and the file read again knowing it, ``st["revise"]``). From then on, a record with no position at a
read's end (its next nonblank line not read yet, or the block's last, a young file's unfinished one) is held to the
next read (``st["_pa_hold"]``, the engine's carried lines), where its bar comes: the same points whole and in pieces.

Bounded: one look at each bar banner's line (``is_bar`` reads at most its first bytes), numpy over the block's lines.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .banners import has_no_position
from .reads import Read
from .tables_text import is_bar


def _display_record(read: Read) -> bool:
    plan = read[0]
    return bool(plan.metrics) and has_no_position(plan) and not plan.bar and not plan.is_eval and not plan.is_summary


def _bar_banner(read: Read) -> bool:
    plan = read[0]
    return (plan.epoch is not None and plan.epoch_total is not None and not plan.metrics and plan.step is None
            and plan.counter is None and not plan.bar)


def bar_positions(lines: Sequence[bytes], reads: list[Read], n: int, nonblank: np.ndarray,
                  st: dict) -> np.ndarray | None:
    """The epoch of the bar drawn right after each record with no position of its own (NaN elsewhere); None while the
    log has shown no such pair. Sets ``st["_pa_hold"]`` (added to what is there) to the records at the block's end
    that wait for their bar."""
    bar_ep = np.full(n, np.nan)
    rec = np.zeros(n, dtype=bool)
    for rd in reads:
        plan, idx, got, _bad = rd
        if _bar_banner(rd):
            assert plan.epoch is not None
            ep = got[plan.epoch]
            for k, i in enumerate(idx.tolist()):
                if is_bar(lines[i]):
                    bar_ep[i] = ep[k]
        elif _display_record(rd):
            rec[idx] = True
    nb = np.flatnonzero(nonblank)
    nxt = np.full(n, -1)
    if len(nb) > 1:
        nxt[nb[:-1]] = nb[1:]
    r = np.flatnonzero(rec & (nxt >= 0))
    out = np.full(n, np.nan)
    out[r] = bar_ep[nxt[r]]
    if not st.get("ld"):
        if not np.isfinite(out).any():
            st["ld_rec"] = bool(st.get("ld_rec")) or bool(rec.any())
            return None
        st["ld"] = True
        if st.get("ld_rec"):  # an earlier read placed its records otherwise: read again knowing it
            st["revise"] = {**(st.get("revise") or {}), "ld": True}
    last = int(nb[-1]) if len(nb) else -1
    end = rec & ((nxt < 0) | (nxt == last))
    end &= (nxt < 0) | np.isnan(bar_ep[np.maximum(nxt, 0)])  # (its bar here already: placed now)
    if end.any():
        st["_pa_hold"] = sorted({*(st.get("_pa_hold") or ()), *np.flatnonzero(end).tolist()})
    return out


MAX_KEPT_STEPS = 16  # the run's loss's last steps the reads before gave, kept for the next read's carried lines


def redrawn(key: str, steps: np.ndarray, src: np.ndarray, drawn: set[int], st: dict) -> np.ndarray:
    """Of one name's points (their steps, their records ``src``), those of a display's record (``drawn``) at a step
    another record gives too (torchfitter's logger line ``Epoch 15/30 | Train loss: 1.24e+00`` and its display
    redrawn at epoch 15): the display shows what was logged, one point. For the run's loss (``st["run_key"]``, where
    restarts are looked for) in a log that draws such displays (``st["ld"]``), also a point at a step the other kind
    of record (a display's, a logger's) gave in the reads before (their last ``MAX_KEPT_STEPS`` kept, with their
    kind): a line carried to this read (a one-off in the read before) repeats a point that read gave, no step going
    back to a new run."""
    on = np.isin(src, list(drawn)) if drawn else np.zeros(len(steps), dtype=bool)
    drop = on & np.isin(steps, steps[~on]) if on.any() and not on.all() else np.zeros(len(steps), dtype=bool)
    if key != st.get("run_key"):
        return drop
    kept = st.get("ld_steps") or []  # (kept from the log's first read: a display learnt late repeats points of it)
    if kept and st.get("ld"):
        shown = np.array([s for s, d in kept if d], dtype=float)
        logged = np.array([s for s, d in kept if not d], dtype=float)
        drop |= np.where(on, np.isin(steps, logged), np.isin(steps, shown))
    last = np.flatnonzero(~drop)[-MAX_KEPT_STEPS:]
    st["ld_steps"] = ([*kept, *([float(steps[i]), bool(on[i])] for i in last.tolist())])[-MAX_KEPT_STEPS:]
    return drop
