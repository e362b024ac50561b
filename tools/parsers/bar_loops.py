"""Several bars in one log, one after the other, each its own loop (examples/libraries_holdout97's sigpy: a
``MaxEig:`` bar over 30 power iterations with ``max_eig=`` in its postfix, then ``TotalVariationRecon:`` over 30
iterations with ``obj=``).

A bar drawing values under a description never seen before in the log, whose counter starts again (at 0 or 1) after
another description's bar drew its values, is a new loop: its counter is its own loop's step (not a continuation of
the bar before: no epoch offset), its total the run's length (even when shorter than the bar before), and whether its
values are set before its counter moves (``set_postfix`` then ``update``: ``bar_steps.postfix_first``) is decided on
its own lines. A description seen before (a training bar drawn again after an evaluation's) is no new loop: it is
counted as before. The description is the words before the bar's percent (letters only; numbers are the template's).
Decided line by line in order, on what the log showed so far (kept in ``st``): the same whole and in pieces.
"""

from __future__ import annotations

import zlib

import numpy as np

from .reads import Read

MAX_DESC = 256  # bytes of a bar's line looked at for its description
MAX_LOOPS = 64  # descriptions remembered


def descriptions(reads: list[Read], lines, n: int) -> np.ndarray:
    """A key of each bar line's description (the letters before its ``%|``, lower case), 0 elsewhere and on
    evaluations' bars. One look per template (its description is literal text of it)."""
    out = np.zeros(n, dtype=np.int64)
    for plan, idx, _got, _b in reads:
        if not plan.bar or plan.counter is None or plan.is_eval or not len(idx):
            continue
        head = bytes(lines[int(idx[0])][:MAX_DESC])
        cut = head.find(b"%|")
        if cut <= 0:
            continue
        words = bytes(c for c in head[:cut].lower() if 97 <= c <= 122)
        if words:
            out[idx] = zlib.crc32(words) + 1
    return out


def loop_starts(desc: np.ndarray, prog_n: np.ndarray, valued: np.ndarray, st: dict) -> list[int]:
    """The lines where a new loop starts (see the module): a valued bar line whose description was never seen
    valued before, after another's, its count 0 or 1. The descriptions seen and the last one kept in ``st``."""
    at = np.flatnonzero((desc != 0) & valued & ~np.isnan(prog_n))
    if not len(at):
        return []
    d = desc[at]
    prev = np.concatenate(([int(st.get("loop_desc") or 0)], d[:-1]))
    seen: list[int] = list(st.get("loop_seen") or [])
    out: list[int] = []
    for k in np.flatnonzero(d != prev).tolist():  # (only where the description changes: few)
        key = int(d[k])
        if key in seen:
            continue
        if seen and prog_n[at[k]] <= 1:
            out.append(int(at[k]))
        seen.append(key)
        del seen[:-MAX_LOOPS]
    st["loop_seen"] = seen
    st["loop_desc"] = int(d[-1])
    return out


def new_loop(st: dict) -> None:
    """Forget the bar before at a new loop's start: its offset, its last count, its total as the main one."""
    st["off"] = 0
    st["last_n"] = None
    st["main_total"] = None


# the state of a bar's redraws a new loop starts again, per walk: the loop before's last count, its moves, whether
# it skipped counts or showed more states
REDRAW_STATE = {"redrawn_ahead": ("bar_prev",), "refreshes": ("refresh_prev", "bar_skipped"),
                "set_logs": ("set_prev", "set_off")}


def per_loop(fn, loops: list[int], bar_line: np.ndarray, *args) -> np.ndarray:
    """``fn(glob, bar_line, *rest)`` (``args``: ``glob, *rest``; a walk over a bar's redraws in order:
    ``bar_steps.redrawn_ahead``, ``refreshes``, ``set_logs``) run on each loop of the read apart, the redraw state it
    keeps in ``st`` (the last of ``args``; ``REDRAW_STATE``) started again at each new loop's first line."""
    glob, rest = args[0], args[1:]
    st = rest[-1]
    if not loops:
        return fn(glob, bar_line, *rest)
    out = np.zeros(len(glob), dtype=bool)
    cuts = [0, *loops, len(glob)]
    for j in range(len(cuts) - 1):
        if j:
            for k in REDRAW_STATE[fn.__name__]:
                st.pop(k, None)
        part = np.zeros(len(glob), dtype=bool)
        part[cuts[j]:cuts[j + 1]] = bar_line[cuts[j]:cuts[j + 1]]
        out |= fn(glob, part, *rest) & part
    return out
