"""Robust statistics the signals share: finite views, block medians, noise scale, Theil–Sen, Mann–Kendall.

Long histories are reduced to at most a few thousand block medians first, so a
signal's cost does not grow with the run's length.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..history import BLOCK, MetricHistory

MAX_BLOCKS = 1000
MAX_PAIRWISE = 200  # Theil–Sen and Mann–Kendall are O(n^2): run them on at most this many points


@dataclass
class Curve:
    """A metric's finite points (raw) and a smoothed, length-bounded view of them."""

    steps: np.ndarray  # raw finite steps
    values: np.ndarray  # raw finite values
    s_steps: np.ndarray  # smoothed view: block medians, then a rolling median
    s_values: np.ndarray
    sigma: float  # robust point-to-point noise of the raw values (MAD of differences / sqrt 2)
    b_values: np.ndarray  # block medians before the rolling median (independent noise: for trend tests)
    # A long metric: ``steps``/``values`` are its newest finite points only; these tell about the rest.
    history: MetricHistory | None = None
    sign: float = 1.0  # the curve is sign * the metric (-1: higher is better, negated)

    @property
    def n(self) -> int:
        """Finite points over the whole run."""
        return self.history.n_finite if self.history is not None else len(self.values)

    @property
    def offset(self) -> int:
        """How many finite points come before ``values[0]``."""
        return self.n - len(self.values)

    def first(self, k: int) -> np.ndarray:
        """The run's first ``k`` finite values."""
        if self.history is None:
            return self.values[:k]
        return self.sign * self.history.head_values[:k]

    def count_since(self, step: float) -> int:
        """Finite points at or after ``step``."""
        if self.history is None:
            return int((self.steps >= step).sum())
        return self.history.finite_count_since(int(np.ceil(step)))

    def last_at_or_below(self, x: float) -> int | None:
        """The run-wide index of the last finite point at or below ``x`` (in a summarised block: the block's last
        point), or None."""
        below = np.flatnonzero(self.values <= x)
        if len(below):
            return self.offset + int(below[-1])
        if self.history is None:
            return None
        b = self.history.blocks
        lo = b["min"] if self.sign > 0 else -b["max"]
        hit = np.flatnonzero((b["n_fin"] > 0) & (lo <= x))
        if not len(hit):
            return None
        return int(np.cumsum(b["n_fin"])[hit[-1]]) - 1

    def step_after(self, index: int) -> int:
        """The step of the finite point at run-wide ``index`` (a summarised one: its block's first step)."""
        if index >= self.offset or self.history is None:
            return int(self.steps[index - self.offset])
        b = self.history.blocks
        ends = np.cumsum(b["n_fin"])
        i = int(np.searchsorted(ends, index, side="right"))
        return int(b["first_step"][min(i, len(ends) - 1)])

    def noise_around(self, step: int, k: int) -> float:
        """short_noise of the ``k`` finite points up to ``step``; for a step in the summarised part, the noise of the
        block holding it."""
        if self.history is None or (len(self.steps) and step >= self.steps[0]):
            ib = int(np.searchsorted(self.steps, step))
            return short_noise(self.values[max(0, ib - k): ib + 1])
        b = self.history.blocks
        i = min(int(np.searchsorted(b["last_step"], step)), len(b["n"]) - 1)
        v = float(b["noise"][i])
        return v if np.isfinite(v) else self.sigma

    def level(self, last: int) -> float:
        """Median of the last ``last`` raw points."""
        return float(np.median(self.values[-last:]))


def finite(series: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    v = series.to_numpy(dtype=np.float64)
    mask = np.isfinite(v)
    return series.index.to_numpy()[mask], v[mask]


def block_median(steps: np.ndarray, values: np.ndarray, max_blocks: int = MAX_BLOCKS) -> tuple[np.ndarray, np.ndarray]:
    n = len(values)
    if n <= max_blocks:
        return steps, values
    b = math.ceil(n / max_blocks)
    m = (n // b) * b
    head_s, head_v = steps[n - m:], values[n - m:]  # keep the newest points whole; drop the oldest remainder
    med = np.median(head_v.reshape(-1, b), axis=1)
    st = head_s.reshape(-1, b)[:, -1]
    return st, med


def robust_sigma(x: np.ndarray) -> float:
    if len(x) < 2:
        return 0.0
    med = np.median(x)
    return float(1.4826 * np.median(np.abs(x - med)))


def diff_noise(values: np.ndarray, last: int = 2000) -> float:
    """Noise of a curve with a trend: robust spread of successive differences, divided by sqrt 2."""
    v = values[-last:]
    if len(v) < 3:
        return 0.0
    d = np.diff(v)
    s = robust_sigma(d)
    if s == 0.0 and np.any(d != 0):
        # Over half the steps repeat the value exactly (quantised or mostly-zero curves): use the mean deviation.
        s = float(np.mean(np.abs(d - np.median(d)))) * 1.2533
    return s / math.sqrt(2)


def _spread(x: np.ndarray) -> float:
    s = robust_sigma(x)
    if s == 0.0 and np.any(x != x[0]):
        s = float(np.mean(np.abs(x - np.median(x)))) * 1.2533
    return s


def short_noise(values: np.ndarray) -> float:
    """Noise of a short excerpt, where a trend or one jump dominates plain differences: the smaller of (a) second
    differences / sqrt 6, which a steady trend does not inflate, and (b) first differences without the single
    largest one / sqrt 2, which one level shift does not inflate."""
    if len(values) < 4:
        return diff_noise(values)
    d = np.diff(values)
    by_trend = _spread(np.diff(values, 2)) / math.sqrt(6)
    by_shift = _spread(np.delete(d, int(np.argmax(np.abs(d))))) / math.sqrt(2)
    return min(by_trend, by_shift)


def make_curve(series: pd.Series, history: MetricHistory | None = None, negated: bool = False,
               smooth: int = 5) -> Curve:
    """The curve of ``series`` (the metric, negated when ``negated``); with the metric's ``history`` when the series
    holds only its newest points."""
    steps, values = finite(series)
    if history is None:
        bs, bv = block_median(steps, values)
    else:
        bs, bv = _history_blocks(history, series, -1.0 if negated else 1.0)
    smooth = smooth if len(bv) >= 15 else 3 if len(bv) >= 7 else 1  # a short excerpt keeps its points
    if smooth > 1:
        sv = pd.Series(bv).rolling(smooth, center=True, min_periods=1).median().to_numpy()
    else:
        sv = bv
    sigma = diff_noise(values) if len(values) >= 30 else short_noise(values)
    return Curve(steps, values, bs, sv, sigma, bv, history, -1.0 if negated else 1.0)


def _history_blocks(h: MetricHistory, series: pd.Series, sign: float) -> tuple[np.ndarray, np.ndarray]:
    """Block medians over the whole run: the summarised blocks, then the window in blocks of the same size."""
    b = h.blocks
    ok = b["n_fin"] > 0
    size = BLOCK << h.level
    raw = series.to_numpy(dtype=np.float64)  # already oriented by the caller
    st = series.index.to_numpy()
    ws, wv = _window_blocks(raw, st, size)
    return (np.concatenate([b["lf_step"][ok], ws.astype(np.int64)]),
            np.concatenate([sign * b["med"][ok], wv]))


def _window_blocks(raw: np.ndarray, st: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Per block of ``size`` points (the last one maybe shorter): the step of its last finite point and the median of
    its finite points; blocks without one left out. All blocks at once (one sort per block row, not a Python loop)."""
    n = len(raw)
    if n == 0:
        return np.zeros(0, dtype=st.dtype), np.zeros(0)
    rows = -(-n // size)
    pad = rows * size - n
    vals = np.concatenate([raw, np.full(pad, np.nan)]).reshape(rows, size)
    steps = np.concatenate([st, np.zeros(pad, dtype=st.dtype)]).reshape(rows, size)
    fin = np.isfinite(vals)
    count = fin.sum(axis=1)
    keep = count > 0
    vals, steps, fin, count = vals[keep], steps[keep], fin[keep], count[keep]
    srt = np.sort(np.where(fin, vals, np.inf), axis=1)  # finite values first, ascending
    idx = np.arange(len(count))
    lo, hi = srt[idx, (count - 1) // 2], srt[idx, count // 2]
    last = size - 1 - np.argmax(fin[:, ::-1], axis=1)
    return steps[idx, last], (lo + hi) / 2


def thin(x: np.ndarray, y: np.ndarray, k: int = MAX_PAIRWISE) -> tuple[np.ndarray, np.ndarray]:
    if len(x) <= k:
        return x, y
    idx = np.linspace(0, len(x) - 1, k).astype(int)
    return x[idx], y[idx]


def theil_sen(x: np.ndarray, y: np.ndarray) -> float:
    """Median of pairwise slopes (Theil 1950, Sen 1968): a trend robust to outliers."""
    x, y = thin(np.asarray(x, float), np.asarray(y, float))
    if len(x) < 2:
        return 0.0
    i, j = np.triu_indices(len(x), 1)
    dx = x[j] - x[i]
    ok = dx != 0
    if not ok.any():
        return 0.0
    return float(np.median((y[j] - y[i])[ok] / dx[ok]))


def mann_kendall_z(y: np.ndarray) -> float:
    """Mann–Kendall trend statistic as a z-score (Mann 1945; Kendall 1975): < -2 falling, > 2 rising."""
    _, y = thin(np.arange(len(y)), np.asarray(y, float))
    n = len(y)
    if n < 4:
        return 0.0
    i, j = np.triu_indices(n, 1)
    s = float(np.sign(y[j] - y[i]).sum())
    var = n * (n - 1) * (2 * n + 5) / 18.0
    if s > 0:
        return (s - 1) / math.sqrt(var)
    if s < 0:
        return (s + 1) / math.sqrt(var)
    return 0.0


def step_span(steps: np.ndarray) -> list[int] | None:
    return [int(steps[0]), int(steps[-1])] if len(steps) else None
