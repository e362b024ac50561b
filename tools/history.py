"""A metric's history, bounded whatever the run's length: the newest points whole, the older ones as block aggregates.

Per metric: the newest ``WINDOW`` to ``WINDOW + BLOCK - 1`` points (cleaned, in step order) as they are; every point
before them in blocks of ``BLOCK`` points (count, non-finite counts, finite min/max and their steps, median, noise,
the last finite point, the first/last non-finite point). Blocks merge pairwise as they age, binary-counter style:
each block shown is the aggregate of an aligned power-of-two run of base blocks, at most ``MAX_BLOCKS`` of the
largest size plus one of each smaller size. Beside them, a few exact trackers of what the signals need over the
whole run: the first finite points, the trailing non-finite stretch, the learning-rate schedule's events, the loss
scale's lows.

The history is a pure function of the points: built in one go or extended check by check it is the same, bit for
bit, so an incremental check judges exactly what a one-shot check of the same data judges. Extending needs only the
new points (``extend`` returns False when they do not simply continue the run: a resume into the past, which the
caller answers by rebuilding from the raw points).
"""

from __future__ import annotations

import json
import math
import struct
from dataclasses import dataclass, field

import numpy as np

WINDOW = 4096  # newest points of each metric kept whole (spikes and noise read the newest 2000)
BLOCK = 16  # points per base block of older history
MAX_BLOCKS = 1024  # blocks of the largest size kept per metric
HEAD = 16  # first finite points kept whole (the run's start)
VERSION = 1  # bump when the layout or any aggregate's definition changes: stored histories are then rebuilt

INT_FIELDS = ("first_step", "last_step", "n", "n_fin", "n_nan", "n_pinf", "n_ninf", "n_neg", "min_step", "max_step",
              "lf_step", "nf_first_step", "nf_last_step")
FLOAT_FIELDS = ("min", "max", "med", "noise", "lf_value", "nf_first_value", "nf_last_value")
FIELDS = INT_FIELDS + FLOAT_FIELDS
SQRT2 = math.sqrt(2.0)

Blocks = dict[str, np.ndarray]


def empty_blocks() -> Blocks:
    return {k: np.zeros(0, dtype=np.int64 if k in INT_FIELDS else np.float64) for k in FIELDS}


def concat_blocks(parts: list[Blocks]) -> Blocks:
    parts = [p for p in parts if len(p["n"])]
    if not parts:
        return empty_blocks()
    if len(parts) == 1:
        return parts[0]
    return {k: np.concatenate([p[k] for p in parts]) for k in FIELDS}


def slice_blocks(b: Blocks, sl: slice) -> Blocks:
    return {k: v[sl] for k, v in b.items()}


def _row_median(a: np.ndarray) -> np.ndarray:
    """np.median along axis 1, by sorting (several times faster for short rows; the same values)."""
    s = np.sort(a, axis=1)
    k = a.shape[1]
    return s[:, k // 2] if k % 2 else (s[:, k // 2 - 1] + s[:, k // 2]) / 2.0


def _diff_sigma(d: np.ndarray, axis: int = -1) -> np.ndarray:
    """1.4826 * MAD of differences / sqrt 2 (of a 1-D array, or of each row of a 2-D one)."""
    if d.ndim == 2:
        md = _row_median(d)[:, None]
        return 1.4826 * _row_median(np.abs(d - md)) / SQRT2
    md = np.median(d)
    return 1.4826 * np.median(np.abs(d - md)) / SQRT2


def base_blocks(steps: np.ndarray, values: np.ndarray) -> Blocks:
    """Aggregates of consecutive runs of BLOCK points (``len(steps)`` is a multiple of BLOCK). Each block's numbers
    depend on its own points only."""
    s = steps.reshape(-1, BLOCK)
    v = values.reshape(-1, BLOCK)
    m = len(s)
    rows = np.arange(m)
    fin = np.isfinite(v)
    n_fin = fin.sum(1)
    nan = np.isnan(v)
    has_fin = n_fin > 0
    lo = np.where(fin, v, np.inf)
    imin = lo.argmin(1)
    hi = np.where(fin, v, -np.inf)
    imax = hi.argmax(1)
    med = np.full(m, np.nan)
    noise = np.full(m, np.nan)
    whole = fin.all(1)
    if whole.any():
        vv = v[whole]
        med[whole] = _row_median(vv)
        noise[whole] = _diff_sigma(np.diff(vv, axis=1))
    for i in np.flatnonzero(~whole & has_fin):
        f = v[i][fin[i]]
        med[i] = np.median(f)
        noise[i] = float(_diff_sigma(np.diff(f))) if len(f) >= 3 else 0.0
    ilf = BLOCK - 1 - fin[:, ::-1].argmax(1)
    bad = ~fin
    has_bad = bad.any(1)
    inf_first = bad.argmax(1)
    inf_last = BLOCK - 1 - bad[:, ::-1].argmax(1)
    return {
        "first_step": s[:, 0].copy(), "last_step": s[:, -1].copy(), "n": np.full(m, BLOCK, dtype=np.int64),
        "n_fin": n_fin.astype(np.int64), "n_nan": nan.sum(1).astype(np.int64),
        "n_pinf": (v == np.inf).sum(1).astype(np.int64), "n_ninf": (v == -np.inf).sum(1).astype(np.int64),
        "n_neg": (fin & (v < 0)).sum(1).astype(np.int64),
        "min_step": s[rows, imin], "max_step": s[rows, imax],
        "lf_step": np.where(has_fin, s[rows, ilf], 0), "nf_first_step": np.where(has_bad, s[rows, inf_first], 0),
        "nf_last_step": np.where(has_bad, s[rows, inf_last], 0),
        "min": np.where(has_fin, lo[rows, imin], np.nan), "max": np.where(has_fin, hi[rows, imax], np.nan),
        "med": med, "noise": noise, "lf_value": np.where(has_fin, v[rows, ilf], np.nan),
        "nf_first_value": np.where(has_bad, v[rows, inf_first], np.nan),
        "nf_last_value": np.where(has_bad, v[rows, inf_last], np.nan),
    }


def merge_pairs(b: Blocks) -> Blocks:
    """Entries (0, 1), (2, 3), ... merged into one each (an even number of entries)."""
    a = {k: v[0::2] for k, v in b.items()}
    c = {k: v[1::2] for k, v in b.items()}
    na, nc = a["n_fin"], c["n_fin"]
    out = {"first_step": a["first_step"], "last_step": c["last_step"]}
    for k in ("n", "n_fin", "n_nan", "n_pinf", "n_ninf", "n_neg"):
        out[k] = a[k] + c[k]
    left_min = (nc == 0) | ((na > 0) & (a["min"] <= c["min"]))
    out["min"] = np.where(left_min, a["min"], c["min"])
    out["min_step"] = np.where(left_min, a["min_step"], c["min_step"])
    left_max = (nc == 0) | ((na > 0) & (a["max"] >= c["max"]))
    out["max"] = np.where(left_max, a["max"], c["max"])
    out["max_step"] = np.where(left_max, a["max_step"], c["max_step"])
    fa, fc = na.astype(np.float64), nc.astype(np.float64)
    tot = fa + fc
    safe = np.where(tot > 0, tot, 1.0)
    for k in ("med", "noise"):
        mixed = (np.where(na > 0, a[k], 0.0) * fa + np.where(nc > 0, c[k], 0.0) * fc) / safe
        out[k] = np.where(tot > 0, mixed, np.nan)
    right_f = nc > 0
    out["lf_step"] = np.where(right_f, c["lf_step"], a["lf_step"])
    out["lf_value"] = np.where(right_f, c["lf_value"], a["lf_value"])
    a_bad = a["n"] > na
    c_bad = c["n"] > nc
    out["nf_first_step"] = np.where(a_bad, a["nf_first_step"], c["nf_first_step"])
    out["nf_first_value"] = np.where(a_bad, a["nf_first_value"], c["nf_first_value"])
    out["nf_last_step"] = np.where(c_bad, c["nf_last_step"], a["nf_last_step"])
    out["nf_last_value"] = np.where(c_bad, c["nf_last_value"], a["nf_last_value"])
    return out


def level_for(n_base: int) -> int:
    """The size (as a power of two of base blocks) of the largest blocks: at most MAX_BLOCKS of them."""
    level = 0
    while -(-n_base // (1 << level)) > MAX_BLOCKS:
        level += 1
    return level


# -- exact trackers ---------------------------------------------------------------------------------------------
@dataclass
class Schedule:
    """The learning-rate signal's facts over a metric's finite values, exact for any length (see lr_schedule)."""

    n: int = 0
    v0: float = math.nan
    last: float = math.nan
    last_step: int = 0
    peak: float = math.nan
    peak_i: int = -1
    peak_step: int = 0
    warm_end: int = -1  # index (into the differences) of the first one <= 0; -1: none yet
    n_nonneg: int = 0  # differences >= 0
    restarts: int = 0  # rises > 3x after warmup back to about an earlier peak (before any real jump)
    jump: list | None = None  # the first real jump: [i, step before, step, value before, value, earlier peak]
    # first point after the peak at <= 1% of it: [z, step before, step, value before, value, and the point before
    # that: step, value (None, None when there is none)]
    zero: list | None = None
    dead: list | None = None  # first point after the peak at <= 0.1% of it: [z, step, value]
    before_last: float = math.nan  # the value before the last one, and its step
    before_last_step: int = 0

    JUMP, ZERO, DEAD = 3.0, 0.01, 1e-3

    def update(self, steps: np.ndarray, v: np.ndarray) -> None:
        m = len(v)
        if not m:
            return
        n = self.n
        if n == 0:
            self.v0 = float(v[0])
        full = np.concatenate([[self.last], v]) if n else v
        fsteps = np.concatenate([[self.last_step], steps]) if n else steps
        base = n - 1 if n else 0  # global index of full[0]
        d = np.diff(full)
        self.n_nonneg += int((d >= 0).sum())
        if self.warm_end < 0:
            nonrise = np.flatnonzero(d <= 0)
            if len(nonrise):
                self.warm_end = base + int(nonrise[0])
        if self.jump is None and self.warm_end >= 0 and len(d):
            lo = max(0, self.warm_end - base)  # pairs whose right point comes after warmup
            prev, cur = full[lo:-1], full[1 + lo:]
            rough = np.flatnonzero(np.where(prev > 0, cur > 2.5 * prev, cur > 0))  # a cheap superset first
            if len(rough):
                pr, cu = prev[rough], cur[rough]
                with np.errstate(divide="ignore", invalid="ignore"):
                    ratio = np.where(pr > 0, cu / np.where(pr > 0, pr, 1.0), np.where(cu > 0, np.inf, 1.0))
                cand = lo + rough[ratio > self.JUMP]  # pair index k: full[k] -> full[k + 1]
                if len(cand):
                    prior = np.maximum.accumulate(full)  # full[0] is the old last value: the old peak covers it
                    if n:
                        prior = np.maximum(prior, self.peak)
                    vb = prior[cand]  # the running max of everything before full[k + 1]
                    real = full[cand + 1] > 1.5 * vb
                    hits = np.flatnonzero(real)
                    if len(hits):
                        k = int(cand[hits[0]])
                        self.restarts += int(hits[0])
                        self.jump = [base + 1 + k, int(fsteps[k]), int(fsteps[k + 1]), float(full[k]),
                                     float(full[k + 1]), float(vb[hits[0]])]
                    else:
                        self.restarts += len(cand)
        # the peak (first occurrence of the maximum) and what follows it
        vmax = float(v.max())
        if n == 0 or vmax > self.peak:
            p = int(np.argmax(v))
            self.peak, self.peak_i, self.peak_step = vmax, n + p, int(steps[p])
            self.zero = self.dead = None
            start = p + 1
        else:
            start = 0
        if self.zero is None:
            hit = np.flatnonzero(v[start:] <= self.ZERO * self.peak)
            if len(hit):
                k = start + int(hit[0])  # position in v; the point before is v[k-1] or the old last one
                pv, ps = (float(v[k - 1]), int(steps[k - 1])) if k else (self.last, self.last_step)
                if k >= 2:
                    ppv, pps = float(v[k - 2]), int(steps[k - 2])
                elif k == 1:
                    ppv, pps = (self.last, self.last_step) if n else (math.nan, 0)
                else:
                    ppv, pps = (self.before_last, self.before_last_step) if n >= 2 else (math.nan, 0)
                self.zero = [n + k, ps, int(steps[k]), pv, float(v[k]), *((pps, ppv) if ppv == ppv else (None, None))]
        if self.dead is None:
            hit = np.flatnonzero(v[start:] <= self.DEAD * self.peak)
            if len(hit):
                k = start + int(hit[0])
                self.dead = [n + k, int(steps[k]), float(v[k])]
        self.n = n + m
        if m >= 2:
            self.before_last, self.before_last_step = float(v[-2]), int(steps[-2])
        else:
            self.before_last, self.before_last_step = self.last, self.last_step
        self.last, self.last_step = float(v[-1]), int(steps[-1])


@dataclass
class Scale:
    """The loss-scale signal's facts over a metric's non-NaN values (Inf kept, as ``dropna`` keeps it): exact."""

    n: int = 0
    max: float = -math.inf
    last: float = math.nan
    last_step: int = 0
    trail_low: int = 0  # trailing values <= MIN
    trail_low_step: int = 0  # step of the first of them
    low_first_step: int | None = None
    low_last_step: int | None = None

    MIN = 1.0

    def update(self, steps: np.ndarray, v: np.ndarray) -> None:
        keep = ~np.isnan(v)
        steps, v = steps[keep], v[keep]
        if not len(v):
            return
        self.n += len(v)
        self.max = max(self.max, float(v.max()))
        self.last, self.last_step = float(v[-1]), int(steps[-1])
        low = np.flatnonzero(v <= self.MIN)
        if len(low):
            if self.low_first_step is None:
                self.low_first_step = int(steps[low[0]])
            self.low_last_step = int(steps[low[-1]])
        high = np.flatnonzero(v > self.MIN)
        if not len(high):
            if self.trail_low == 0:
                self.trail_low_step = int(steps[0])
            self.trail_low += len(v)
        else:
            self.trail_low = len(v) - 1 - int(high[-1])
            self.trail_low_step = int(steps[high[-1] + 1]) if self.trail_low else 0


# -- one metric ---------------------------------------------------------------------------------------------------
@dataclass
class MetricHistory:
    steps: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # the window, cleaned
    values: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float64))
    n_base: int = 0  # base blocks formed so far
    level: int = 0
    complete: Blocks = field(default_factory=empty_blocks)  # blocks of 2**level base blocks
    stack: list = field(default_factory=list)  # [(level, Blocks of one entry)], levels decreasing, < self.level
    head_steps: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    head_values: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float64))
    trail_bad: int = 0  # trailing non-finite values
    trail_bad_step: int = 0  # step of the first of them
    schedule: Schedule = field(default_factory=Schedule)
    scale: Scale = field(default_factory=Scale)
    _blocks: Blocks | None = field(default=None, repr=False, compare=False)

    # -- building ---------------------------------------------------------------------------------------------
    @property
    def last_step(self) -> int | None:
        return int(self.steps[-1]) if len(self.steps) else None

    def extend(self, steps: np.ndarray, values: np.ndarray) -> bool:
        """Add points that continue the metric (steps rising, after the last one); False (nothing changed) when
        they do not."""
        steps = np.asarray(steps, dtype=np.int64)
        values = np.asarray(values, dtype=np.float64)
        if not len(steps):
            return True
        if ((len(self.steps) and steps[0] <= self.steps[-1])
                or (len(steps) > 1 and not bool(np.all(steps[1:] > steps[:-1])))):
            return False
        fin = np.isfinite(values)
        if len(self.head_values) < HEAD and fin.any():
            take = np.flatnonzero(fin)[: HEAD - len(self.head_values)]
            self.head_steps = np.concatenate([self.head_steps, steps[take]])
            self.head_values = np.concatenate([self.head_values, values[take]])
        good = np.flatnonzero(fin)
        if not len(good):
            if self.trail_bad == 0:
                self.trail_bad_step = int(steps[0])
            self.trail_bad += len(values)
        else:
            self.trail_bad = len(values) - 1 - int(good[-1])
            self.trail_bad_step = int(steps[good[-1] + 1]) if self.trail_bad else 0
        self.schedule.update(steps[fin], values[fin])
        self.scale.update(steps, values)
        self.steps = np.concatenate([self.steps, steps]) if len(self.steps) else steps.copy()
        self.values = np.concatenate([self.values, values]) if len(self.values) else values.copy()
        if len(self.steps) >= WINDOW + BLOCK:
            k = (len(self.steps) - WINDOW) // BLOCK * BLOCK
            self._push(base_blocks(self.steps[:k], self.values[:k]))
            self.steps, self.values = self.steps[k:].copy(), self.values[k:].copy()
        return True

    def _push(self, new: Blocks) -> None:
        """Add base blocks; carry merges aligned pairs upward, as a binary counter does."""
        self._blocks = None
        n_new = self.n_base + len(new["n"])
        target = level_for(n_new)
        stack = dict(self.stack)
        carry = new
        new_stack: dict[int, Blocks] = {}
        complete = self.complete
        for j in range(target):
            if not len(carry["n"]) and target == self.level:  # nothing climbs further: the rest stays as it is
                new_stack.update((lv, b) for lv, b in stack.items() if lv >= j)
                break
            parts = []
            if j == self.level and j < target:
                parts.append(complete)  # the old largest blocks become mergeable
                complete = empty_blocks()
            if j in stack:
                parts.append(stack[j])
            parts.append(carry)
            seq = concat_blocks(parts)
            k = len(seq["n"])
            if k % 2:
                new_stack[j] = slice_blocks(seq, slice(k - 1, k))
                seq = slice_blocks(seq, slice(0, k - 1))
            carry = merge_pairs(seq) if len(seq["n"]) else empty_blocks()
        parts = [complete] if target == self.level else []
        self.complete = concat_blocks(parts + [carry])
        self.stack = sorted(new_stack.items(), key=lambda kv: -kv[0])
        self.level, self.n_base = target, n_new

    # -- reading ----------------------------------------------------------------------------------------------
    @property
    def summarised(self) -> bool:
        return self.n_base > 0

    @property
    def blocks(self) -> Blocks:
        """The older history's blocks, oldest first."""
        if self._blocks is None:
            self._blocks = concat_blocks([self.complete] + [b for _, b in self.stack])
        return self._blocks

    @property
    def count(self) -> int:
        return self.n_base * BLOCK + len(self.values)

    def _sum(self, key: str, window: int) -> int:
        return int(self.blocks[key].sum()) + window if self.summarised else window

    @property
    def n_finite(self) -> int:
        return self._sum("n_fin", int(np.isfinite(self.values).sum()))

    @property
    def n_nan(self) -> int:
        return self._sum("n_nan", int(np.isnan(self.values).sum()))

    @property
    def n_inf(self) -> int:
        return self._sum("n_pinf", 0) + self._sum("n_ninf", int(np.isinf(self.values).sum()))

    @property
    def n_bad(self) -> int:
        return self.count - self.n_finite

    @property
    def n_negative(self) -> int:
        v = self.values[np.isfinite(self.values)]
        return self._sum("n_neg", int((v < 0).sum()))

    def finite_window(self) -> tuple[np.ndarray, np.ndarray]:
        ok = np.isfinite(self.values)
        return self.steps[ok], self.values[ok]

    def extreme(self, which: str, history_only: bool = False) -> tuple[float, int] | None:
        """(finite min or max, its first step) over the whole metric (or the summarised part only)."""
        cands: list[tuple[float, int]] = []
        if self.summarised:
            b = self.blocks
            ok = b["n_fin"] > 0
            if ok.any():
                vals = b[which][ok]
                i = int(np.argmin(vals) if which == "min" else np.argmax(vals))
                cands.append((float(vals[i]), int(b[f"{which}_step"][ok][i])))
        if not history_only:
            s, v = self.finite_window()
            if len(v):
                i = int(np.argmin(v) if which == "min" else np.argmax(v))
                cands.append((float(v[i]), int(s[i])))
        if not cands:
            return None
        pick = min(cands, key=lambda c: c[0]) if which == "min" else max(cands, key=lambda c: c[0])
        return pick if len(cands) == 1 or cands[0][0] != cands[1][0] else cands[0]

    def finite_median(self, lo_index: int = 0, hi_index: int | None = None) -> float | None:
        """Median of the finite values with finite index in [lo_index, hi_index): blocks stand for their points by
        their median (weighted by their finite count), the window's points are exact."""
        hi_index = self.n_finite if hi_index is None else hi_index
        _, v = self.finite_window()
        off = self.n_finite - len(v)
        win = v[max(0, lo_index - off): max(0, hi_index - off)]
        if not self.summarised or off == 0:
            return float(np.median(win)) if len(win) else None
        b = self.blocks
        ends = np.cumsum(b["n_fin"])
        starts = ends - b["n_fin"]
        use = (b["n_fin"] > 0) & (starts >= lo_index) & (ends <= min(hi_index, off))
        meds, weights = b["med"][use], b["n_fin"][use]
        if not len(win) and not len(meds):
            return None
        allv = np.concatenate([meds, win])
        allw = np.concatenate([weights, np.ones(len(win), dtype=np.int64)])
        order = np.argsort(allv, kind="stable")
        cw = np.cumsum(allw[order])
        half = cw[-1] / 2.0
        i = int(np.searchsorted(cw, half, side="left"))
        if cw[i] == half and i + 1 < len(order):  # an even total split exactly between two values
            return float((allv[order[i]] + allv[order[i + 1]]) / 2.0)
        return float(allv[order[i]])

    def finite_count_since(self, step: int) -> int:
        """Finite points at or after ``step`` (a block counts whole when it ends at or after it)."""
        s, _ = self.finite_window()
        n = int((s >= step).sum())
        if self.summarised and (not len(s) or s[0] >= step):
            b = self.blocks
            n += int(b["n_fin"][b["last_step"] >= step].sum())
        return n

    def finite_before(self, step: int, k: int) -> np.ndarray:
        """The last ``k`` finite values at or before ``step``: exact from the window, else the medians of the blocks
        that end by ``step`` (each once per point it stands for, up to ``k``)."""
        s, v = self.finite_window()
        win = v[s <= step][-k:]
        if len(win) >= k or not self.summarised:
            return win
        b = self.blocks
        use = np.flatnonzero((b["last_step"] <= step) & (b["n_fin"] > 0))
        parts, need = [], k - len(win)
        for i in use[::-1]:
            take = min(need, int(b["n_fin"][i]))
            parts.append(np.full(take, b["med"][i]))
            need -= take
            if need <= 0:
                break
        return np.concatenate(parts[::-1] + [win]) if parts else win

    def finite_count_upto(self, step: int) -> int:
        s, _ = self.finite_window()
        n = int((s <= step).sum())
        if self.summarised:
            b = self.blocks
            n += int(b["n_fin"][b["last_step"] <= step].sum())
        return n

    # -- serialisation --------------------------------------------------------------------------------------------
    def to_parts(self) -> tuple[dict, list[np.ndarray]]:
        arrays = [self.steps, self.values, self.head_steps, self.head_values]
        for b in [self.complete] + [b for _, b in self.stack]:
            arrays.extend(b[k] for k in FIELDS)
        meta = {"n_base": self.n_base, "level": self.level, "stack": [lv for lv, _ in self.stack],
                "trail_bad": self.trail_bad, "trail_bad_step": self.trail_bad_step,
                "schedule": {k: getattr(self.schedule, k) for k in Schedule.__dataclass_fields__},
                "scale": {k: getattr(self.scale, k) for k in Scale.__dataclass_fields__}}
        return meta, arrays

    @classmethod
    def from_parts(cls, meta: dict, arrays: list[np.ndarray]) -> MetricHistory:
        it = iter(arrays)
        h = cls(next(it), next(it), meta["n_base"], meta["level"])
        h.head_steps, h.head_values = next(it), next(it)
        h.complete = {k: next(it) for k in FIELDS}
        h.stack = [(lv, {k: next(it) for k in FIELDS}) for lv in meta["stack"]]
        h.trail_bad, h.trail_bad_step = meta["trail_bad"], meta["trail_bad_step"]
        h.schedule = Schedule(**meta["schedule"])
        h.scale = Scale(**meta["scale"])
        return h


# -- a run: every metric ------------------------------------------------------------------------------------------
@dataclass
class RunHistory:
    metrics: dict[str, MetricHistory] = field(default_factory=dict)

    @classmethod
    def build(cls, batch) -> RunHistory:
        """From raw points in arrival order (a PointBatch): cleaned as the run lives (a step logged again
        supersedes what was logged at or after it), then summarised."""
        from .frame import clean_points

        h = cls()
        for key, col in batch.columns.items():
            steps, values = clean_points(col.steps, col.values)
            if len(steps):
                m = MetricHistory()
                m.extend(steps, values)
                h.metrics[key] = m
        return h

    def extend(self, batch) -> bool:
        """Add a batch of new points in place; False (and nothing changed) when any metric's new points do not
        simply continue it (then rebuild from the raw points)."""
        import copy

        staged: dict[str, MetricHistory] = {}
        for key, col in batch.columns.items():
            if not len(col):
                continue
            m = copy.copy(self.metrics[key]) if key in self.metrics else MetricHistory()
            m.schedule = copy.copy(m.schedule)
            m.scale = copy.copy(m.scale)
            if not m.extend(col.steps, col.values):
                return False
            staged[key] = m
        self.metrics.update(staged)
        return True

    def copy(self) -> RunHistory:
        import copy

        out = RunHistory()
        for k, m in self.metrics.items():
            c = copy.copy(m)
            c.schedule, c.scale = copy.copy(m.schedule), copy.copy(m.scale)
            out.metrics[k] = c
        return out

    def max_step(self) -> int | None:
        lasts = [m.last_step for m in self.metrics.values() if m.last_step is not None]
        return max(lasts) if lasts else None

    @property
    def n_points(self) -> int:
        return sum(m.count for m in self.metrics.values())

    MAGIC = b"RH1\0"

    def to_bytes(self) -> bytes:
        metas: list[dict] = []
        arrays: list[np.ndarray] = []
        for key, m in self.metrics.items():
            meta, arrs = m.to_parts()
            meta["key"] = key
            meta["arrays"] = [[a.dtype.str, len(a)] for a in arrs]
            metas.append(meta)
            arrays.extend(arrs)
        head = json.dumps({"version": VERSION, "metrics": metas}, separators=(",", ":")).encode()
        return (self.MAGIC + struct.pack("<I", len(head)) + head
                + b"".join(np.ascontiguousarray(a).tobytes() for a in arrays))

    @classmethod
    def from_bytes(cls, blob: bytes) -> RunHistory | None:
        """The history, or None when the blob is of another layout version (rebuild it)."""
        if blob[:4] != cls.MAGIC:
            return None
        (hlen,) = struct.unpack_from("<I", blob, 4)
        header = json.loads(blob[8:8 + hlen])
        if header.get("version") != VERSION:
            return None
        pos = 8 + hlen
        out = cls()
        for meta in header["metrics"]:
            arrs = []
            for dt, n in meta["arrays"]:
                a = np.frombuffer(blob, dtype=np.dtype(dt), count=n, offset=pos)
                pos += a.nbytes
                arrs.append(a if a.dtype.isnative else a.astype(a.dtype.newbyteorder("=")))  # read-only views
            out.metrics[meta["key"]] = MetricHistory.from_parts(meta, arrs)
        return out
