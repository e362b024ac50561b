"""Where a run's curve is heading: its value at the planned final step, with an interval.

Learning-curve extrapolation over the run's own tail (Domhan et al. 2015, "Speeding up automatic hyperparameter
optimization of deep neural networks by extrapolation of learning curves", fit parametric families and keep their
disagreement as uncertainty): power laws ``a + b * s^-c`` for a few exponents, exponentials ``a + b * e^(-s/tau)``
for a few time scales, a line in log(step) and a flat line, each fitted by least squares over the last part of the
curve (lower-is-better values). The projection is the median of the families that fit about as well as the best
one; the interval spans their predictions, plus ``below``/``above`` times the remaining gain (a learning-rate decay
or a late drop no tail can see), plus ``z`` times the run's noise. ``calibrate`` widens those two factors until the
runs that already finished would have been covered had they been projected from the same progress.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np

from .view import RunCurve


@dataclass(frozen=True)
class ProjectionParams:
    """The extrapolation's settings; every default named here."""

    tail_fraction: float = 0.5  # fit over the points after this fraction of the run's last step ...
    min_points: int = 3  # ... and at least this many (fewer finite points: no projection, the run is too young)
    exponents: tuple[float, ...] = (0.25, 0.5, 1.0, 2.0)  # power-law families a + b (s/s_last)^-c
    timescales: tuple[float, ...] = (0.1, 0.3, 1.0)  # exponential families a + b e^(-s/(tau s_last))
    log_linear: bool = True  # also a line in log(step) (unbounded: the most optimistic family)
    fit_tolerance: float = 2.0  # families whose squared error is within this factor of the best one count
    below: float = 0.5  # optimistic side: the remaining gain may be this much larger again
    above: float = 0.5  # pessimistic side: the run may keep only this fraction less of its gain
    z: float = 2.0  # noise units added on both sides
    coverage: float = 0.8  # calibration: the share of finished runs whose final the widened interval must cover
    max_widen: float = 4.0  # calibration: below/above never above this
    narrow_from: int = 0  # calibration on at least this many finished runs may also narrow (0: only widen) ...
    min_factor: float = 0.1  # ... never below this


@dataclass(frozen=True)
class Projection:
    """A run's projected value at ``at_step`` (lower is better), with its interval ``low <= value <= high``."""

    value: float
    low: float
    high: float
    at_step: float
    now: float  # the run's smoothed value at its last step
    noise: float  # the run's own noise (residual std of the best fit)
    model: str  # the family closest to the median, e.g. "power(0.5)"

    @property
    def gain(self) -> float:
        return self.now - self.value


def _fits(u: np.ndarray, y: np.ndarray, u_target: float, params: ProjectionParams) -> list[tuple[str, float, float]]:
    """(family, squared error, prediction at u_target) for every family that can describe a curve going down."""
    out: list[tuple[str, float, float]] = []

    def linear(x: np.ndarray, x_target: float, name: str, need_positive: bool) -> None:
        xm, ym = x.mean(), y.mean()
        var = float(((x - xm) ** 2).sum())
        if var <= 0 or not math.isfinite(var):
            return
        b = float(((x - xm) * (y - ym)).sum()) / var
        if need_positive and b < 0:
            return
        a = ym - b * xm
        sse = float(((a + b * x - y) ** 2).sum())
        out.append((name, sse, a + b * x_target))

    for c in params.exponents:
        linear(u ** -c, u_target ** -c, f"power({c:g})", True)
    for tau in params.timescales:
        linear(np.exp(-u / tau), math.exp(-u_target / tau), f"exp({tau:g})", True)
    if params.log_linear:
        linear(np.log(u), math.log(u_target), "log-linear", False)
    ym = float(y.mean())
    out.append(("flat", float(((y - ym) ** 2).sum()), ym))
    return out


def _noise(y: np.ndarray) -> float:
    """A robust std of the curve's point-to-point noise (median absolute first difference, scaled)."""
    if y.size < 3:
        return 0.0
    d = np.diff(y)
    return float(np.median(np.abs(d - np.median(d))) * 1.4826 / math.sqrt(2))


DEFAULT = ProjectionParams()


def project(curve: RunCurve, at_step: float, params: ProjectionParams = DEFAULT,
            upto: float | None = None) -> Projection | None:
    """``curve`` (lower is better) projected to ``at_step`` from its points up to ``upto`` (default: all);
    None when it has fewer than ``params.min_points`` finite points in its tail."""
    steps, values = curve.steps, curve.values
    if upto is not None:
        n = int(np.searchsorted(steps, upto, side="right"))
        steps, values = steps[:n], values[:n]
    if not steps.size:
        return None
    last = float(steps[-1])
    gone = curve.gone_at()
    if gone is not None and gone <= last:
        return Projection(math.inf, math.inf, math.inf, at_step, math.inf, 0.0, "non-finite")
    finite = np.isfinite(values) & (steps > 0)
    s, y = steps[finite], values[finite]
    if s.size < params.min_points:
        return None
    start = min(int(np.searchsorted(s, params.tail_fraction * last)), s.size - params.min_points)
    s, y = s[start:], y[start:]
    now = float(y[-3:].mean())
    if at_step <= last:
        return Projection(now, now, now, at_step, now, _noise(y), "reached")
    fits = _fits(s / last, y, at_step / last, params)
    best_sse = min(f[1] for f in fits)
    good = [f for f in fits if f[1] <= params.fit_tolerance * best_sse + 1e-12 * (1 + abs(now))]
    preds = np.array([f[2] for f in good])
    value = float(np.median(preds))
    model = good[int(np.argmin(np.abs(preds - value)))][0]
    noise = max(math.sqrt(best_sse / max(1, s.size - 2)), _noise(y))
    scale = max(abs(now - value), noise)
    low = min(float(preds.min()), value - params.below * scale) - params.z * noise
    high = max(float(preds.max()), value + params.above * scale) + params.z * noise
    return Projection(value, low, high, at_step, now, noise, model)


@dataclass(frozen=True)
class Calibration:
    """The interval factors after checking them on finished runs: ``below``/``above`` never narrower than the
    prior's; ``runs`` how many finished runs they were checked on."""

    below: float
    above: float
    runs: int

    def apply(self, params: ProjectionParams) -> ProjectionParams:
        return replace(params, below=self.below, above=self.above)


def calibrate(finished: Iterable[RunCurve], upto_fraction: float, at_step: float,
              params: ProjectionParams = DEFAULT) -> Calibration:
    """Project each finished run from its first ``upto_fraction`` of ``at_step`` and widen ``below``/``above``
    until ``params.coverage`` of their actual finals lie inside their intervals (never narrower than the prior,
    never wider than ``params.max_widen``)."""
    need_below: list[float] = []
    need_above: list[float] = []
    for c in finished:
        actual = c.value_at(at_step)
        p = project(c, at_step, params, upto=upto_fraction * at_step)
        if p is None or not math.isfinite(actual) or not math.isfinite(p.value):
            continue
        scale = max(abs(p.gain), p.noise, 1e-12)
        # value - below * scale - z * noise must reach down to actual; value + above * scale + z * noise up to it
        need_below.append((p.value - params.z * p.noise - actual) / scale)
        need_above.append((actual - p.value - params.z * p.noise) / scale)
    if not need_below:
        return Calibration(params.below, params.above, 0)

    def widen(prior: float, need: list[float]) -> float:
        q = float(np.quantile(need, params.coverage))
        if params.narrow_from and len(need) >= params.narrow_from:  # enough finished runs: their coverage decides
            return min(max(params.min_factor, q), max(prior, params.max_widen))
        return min(max(prior, q), max(prior, params.max_widen))

    return Calibration(widen(params.below, need_below), widen(params.above, need_above), len(need_below))
