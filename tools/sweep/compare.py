"""Each run against its siblings at EQUAL steps (never equal times): rank, median, best, behind in noise units.

A run is compared at its own latest step with every run that reached that step (a run started later is simply
compared where it is); a run stopped earlier counts with its last value carried forward, which makes the median
more lenient, never stricter. The sweep's noise at a step is the median of the runs' own point-to-point noise,
so "behind by 3" means three typical wiggles of a curve, whatever the metric's scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .projection import _noise
from .view import RunCurve, SweepView

RECENT = 0.25  # "improving": the gain over the last quarter of the steps so far
NOISE_FLOOR = 1e-3  # relative to |median|: a sweep of noiseless curves still has a unit


@dataclass(frozen=True)
class Standing:
    """Where one run stands at ``step`` among the ``of`` runs that reached it (lower is better, oriented)."""

    run: str
    step: float
    value: float  # +inf: non-finite
    rank: int
    of: int
    median: float
    best: float
    noise: float
    behind: float  # (value - median) / noise; positive is behind
    gain: float  # improvement over the last RECENT of the steps, in noise units
    fastest: bool  # the largest recent gain among the runs at this step
    median_gain: float = 0.0  # the median recent gain of the runs at this step


def _run_noise(c: RunCurve, step: float) -> float:
    n = int(np.searchsorted(c.steps, step, side="right"))
    y = c.values[max(0, n - 12):n]
    return _noise(y[np.isfinite(y)])


def _value(c: RunCurve, step: float) -> float:
    """``c`` at ``step``: its own value when it got there, its last value carried forward when it was stopped or
    finished before, NaN when it is still on its way."""
    if c.last_step >= step:
        return c.value_at(step)
    if not c.active and c.steps.size:
        return c.value_at(c.last_step)
    return math.nan


def standing(view: SweepView, run: RunCurve, step: float | None = None) -> Standing | None:
    """``run`` at ``step`` (its last step by default) among ``view`` (oriented lower-is-better); None when it has
    no point yet."""
    if not run.steps.size:
        return None
    step = run.last_step if step is None else step
    peers = [c for c in view.curves if c is run or c.run != run.run]
    values = np.array([_value(c, step) for c in peers])
    here = ~np.isnan(values)
    vals = values[here]
    mine = run.value_at(step)
    if math.isnan(mine):
        return None
    median = float(np.median(vals))
    best = float(vals.min())
    rank = 1 + int((vals < mine).sum())
    noises = [_run_noise(c, step) for c, ok in zip(peers, here, strict=True) if ok and c.last_step >= step]
    noises = [x for x in noises if math.isfinite(x) and x > 0]
    noise = float(np.median(noises)) if noises else 0.0
    if math.isfinite(median):
        noise = max(noise, NOISE_FLOOR * abs(median), 1e-12)
    else:
        noise = max(noise, 1e-12)
    behind = (mine - median) / noise if math.isfinite(mine) and math.isfinite(median) else (
        math.inf if not math.isfinite(mine) else -math.inf)
    earlier = (1 - RECENT) * step

    def gain(c: RunCurve) -> float:
        a, b = c.value_at(earlier), c.value_at(step)
        return (a - b) / noise if math.isfinite(a) and math.isfinite(b) and c.last_step >= step else -math.inf

    gains = [gain(c) for c, ok in zip(peers, here, strict=True) if ok]
    g = gain(run)
    fastest = math.isfinite(g) and g >= max(gains)
    finite_gains = [x for x in gains if math.isfinite(x)]
    median_gain = float(np.median(finite_gains)) if finite_gains else 0.0
    return Standing(run.run, step, mine, rank, int(here.sum()), median, best, noise, behind, g, fastest, median_gain)
