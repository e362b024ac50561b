"""Robust statistics the signals share: finite views, block medians, noise scale, Theil–Sen, Mann–Kendall.

Long histories are reduced to at most a few thousand block medians first, so a
signal's cost does not grow with the run's length.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

MAX_BLOCKS = 1000
MAX_PAIRWISE = 200  # Theil–Sen and Mann–Kendall are O(n^2): run them on at most this many points


@dataclass
class Curve:
    """A metric's finite points (raw) and a smoothed, length-bounded view of them."""

    steps: np.ndarray  # raw finite steps
    values: np.ndarray  # raw finite values
    s_steps: np.ndarray  # smoothed view: block medians, then a rolling median
    s_values: np.ndarray
    sigma: float
    b_values: np.ndarray  # block medians before the rolling median (independent noise: for trend tests)  # robust point-to-point noise of the raw values (MAD of differences / sqrt 2)

    @property
    def n(self) -> int:
        return len(self.values)

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


def make_curve(series: pd.Series, smooth: int = 5) -> Curve:
    steps, values = finite(series)
    bs, bv = block_median(steps, values)
    smooth = smooth if len(bv) >= 15 else 3 if len(bv) >= 7 else 1  # a short excerpt keeps its points
    if smooth > 1:
        sv = pd.Series(bv).rolling(smooth, center=True, min_periods=1).median().to_numpy()
    else:
        sv = bv
    return Curve(steps, values, bs, sv, diff_noise(values) if len(values) >= 30 else short_noise(values), bv)


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
