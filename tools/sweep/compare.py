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
    beaten_before: float | None = None  # an earlier step where an active run stands and was better than this run


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


@dataclass(frozen=True)
class _AtStep:
    """Every run's value, noise and recent gain at one step (computed once per distinct step)."""

    runs: list[str]
    values: np.ndarray  # NaN: not there yet
    noise: float
    gains: np.ndarray  # noise units; -inf: not measurable
    median: float
    best: float
    median_gain: float
    max_gain: float


def _at_step(curves: list[RunCurve], step: float) -> _AtStep:
    values = np.array([_value(c, step) for c in curves])
    here = ~np.isnan(values)
    vals = values[here]
    median = float(np.median(vals)) if vals.size else math.nan
    best = float(vals.min()) if vals.size else math.nan
    noises = [_run_noise(c, step) for c, ok in zip(curves, here, strict=True) if ok and c.last_step >= step]
    noises = [x for x in noises if math.isfinite(x) and x > 0]
    noise = float(np.median(noises)) if noises else 0.0
    floor = NOISE_FLOOR * abs(median) if math.isfinite(median) else 0.0
    noise = max(noise, floor, 1e-12)
    earlier = (1 - RECENT) * step
    gains = np.full(len(curves), -math.inf)
    for i, c in enumerate(curves):
        if here[i] and c.last_step >= step:
            a, b = c.value_at(earlier), c.value_at(step)
            if math.isfinite(a) and math.isfinite(b):
                gains[i] = (a - b) / noise
    finite = gains[np.isfinite(gains)]
    return _AtStep([c.run for c in curves], values, noise, gains, median, best,
                   float(np.median(finite)) if finite.size else 0.0, float(finite.max()) if finite.size else -math.inf)


def standings(view: SweepView) -> dict[str, Standing]:
    """Every run with a point, at its own last step, among ``view`` (oriented lower-is-better).

    A run ahead of the others is also compared at the steps where the runs behind it stand now: ``beaten_before``
    names the first such step where one of them was better than it was there (a run that leads only because the
    better runs started later is not "the best at its step")."""
    curves = [c for c in view.curves if c.steps.size]
    tables: dict[float, _AtStep] = {}
    for c in curves:
        if c.last_step not in tables:
            tables[c.last_step] = _at_step(curves, c.last_step)
    live = sorted({c.last_step for c in curves if c.active})
    out: dict[str, Standing] = {}
    for i, c in enumerate(curves):
        step = c.last_step
        t = tables[step]
        mine = float(t.values[i])
        if math.isnan(mine):
            continue
        vals = t.values[~np.isnan(t.values)]
        rank = 1 + int((vals < mine).sum())
        if math.isfinite(mine) and math.isfinite(t.median):
            behind = (mine - t.median) / t.noise
        else:
            behind = math.inf if not math.isfinite(mine) else -math.inf
        g = float(t.gains[i])
        fastest = math.isfinite(g) and g >= t.max_gain
        beaten = next((s for s in live if s < step and float(tables[s].values[i]) > tables[s].best), None)
        out[c.run] = Standing(c.run, step, mine, rank, int(vals.size), t.median, t.best, t.noise, behind, g, fastest,
                              t.median_gain, beaten)
    return out
