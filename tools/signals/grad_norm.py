"""Gradient norm: explosion (orders of magnitude above its running level, sustained) and vanishing
(collapsing towards zero while the loss is flat). Non-finite grad norms belong to the nonfinite signal."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..findings import OK, WARN, Finding, nums, readable, times
from ..history import MetricHistory
from .curve import finite
from .params import Params, bound
from .view import RunView, recent_len


@dataclass(frozen=True)
class GradNormParams(Params):
    explode_factor: float = bound(10.0, 1.0, above=True)  # the newest norms this many times the running level...
    explode_all_share: float = bound(0.5, 0.0, 1.0)  # ...and every one of them above this share of that bar
    vanish_factor: float = bound(1e-3, 0.0, 1.0, above=True)  # below this share of the running level: vanishing
    min_points: int = bound(20, 2)  # gradient-norm points before they are judged
    warmup_share: float = bound(0.1, 0.0, 1.0)  # the running level leaves out this first share of the run
    min_reference: int = bound(5, 1)  # the running level needs this many points between warmup and "now"
    flat_min_points: int = bound(10, 2)  # a loss with fewer points counts as flat
    flat_noise_k: float = bound(3.0, 0.0)  # a loss whose level moved less than this many noise units is flat
    settled_share: float = bound(0.01, 0.0, 1.0)  # a loss that fell by this share of its level since the norm's
    settled_noise: float = bound(0.01, 0.0, 1.0)  # running level began, its noise below this share of the fall, has
    # settled at a minimum (a full-batch solver's gradient at its stationary point): converged, not vanishing


DEFAULT = GradNormParams()


def check(view: RunView, p: GradNormParams = DEFAULT) -> Finding:
    """Warn when the median of the newest grad norms is ``explode_factor`` x the median of the earlier run (after the
    first ``warmup_share``), or below ``vanish_factor`` x it (or exactly zero) while the loss does not improve."""
    name = view.frame.first_of("grad_norm")
    if not name:
        return Finding("grad_norm", OK, "no gradient norm logged")
    steps, v = finite(view.frame.series[name])
    v = np.abs(v)
    hist = view.frame.summarised(name)
    n = hist.n_finite if hist is not None else len(v)
    if n < p.min_points:
        return Finding("grad_norm", OK, f"{n} gradient-norm points so far")
    w = recent_len(n)
    now = float(np.median(v[-w:]))
    lo, hi = int(n * p.warmup_share), n - w
    if hi - lo < p.min_reference:
        return Finding("grad_norm", OK, f"{name} at {now:.3g}")
    # A long run's older norms are summarised: their blocks' medians stand for them (norms are >= 0, so |x| = x).
    ref_or_none = float(np.median(v[lo:hi])) if hist is None else hist.finite_median(lo, hi)
    if ref_or_none is None:
        return Finding("grad_norm", OK, f"{name} at {now:.3g}")
    ref = float(ref_or_none)
    info = nums(now=now, reference=ref, ratio=now / ref if ref > 0 else None)
    span = [int(steps[-w]), int(steps[-1])]
    if ref > 0 and now > p.explode_factor * ref and np.all(v[-w:] > p.explode_all_share * p.explode_factor * ref):
        return Finding("grad_norm", WARN,
                       f"{name} exploded to {readable(now)}, {times(now / ref)} its running level {readable(ref)}",
                       span, info, concern="grad_explosion")
    flat = view.curve is None or _flat(view, p) and not _settled(
        view, _step_at(hist, steps, lo), _step_at(hist, steps, lo + max(1, (hi - lo) // 4) - 1), p)
    if ref > 0 and (now < p.vanish_factor * ref or np.all(v[-w:] == 0)) and flat:
        return Finding("grad_norm", WARN,
                       f"{name} collapsed to {now:.3g} from {ref:.3g} while the loss is flat: vanishing gradients",
                       span, info, concern="vanishing_gradients")
    return Finding("grad_norm", OK, f"{name} at {now:.3g} (running level {ref:.3g})", span, info)


def _step_at(hist: MetricHistory | None, steps: np.ndarray, i: int) -> float:
    """The step of the ``i``-th finite point of the run: from the newest points kept whole, or (a long run's older
    history summarised) the first step of the block that holds it."""
    off = (hist.n_finite if hist is not None else len(steps)) - len(steps)
    if i >= off or hist is None or not hist.summarised:
        return float(steps[min(max(i - off, 0), len(steps) - 1)])
    b = hist.blocks
    j = int(np.searchsorted(np.cumsum(b["n_fin"]), i, side="right"))
    return float(b["first_step"][min(j, len(b["first_step"]) - 1)])


def _settled(view: RunView, first: float, last: float, p: GradNormParams) -> bool:
    """Whether the loss came down smoothly from where it was when the norm's running level began (steps ``first``..
    ``last``: the first quarter of that window) to the flat level it holds now: a deterministic optimiser reaching a
    minimum, its gradient shrinking to nothing at the stationary point (a full-batch solver). Vanishing gradients
    leave the loss where it was while the norm collapses; a minibatch run's loss is never this smooth."""
    c = view.curve
    if c is None:
        return False
    during = c.values[(c.steps >= first) & (c.steps <= last)]
    if not len(during):
        return False
    before, now = float(np.median(during)), c.level(recent_len(c.n))
    fell = before - now
    return fell > p.settled_share * abs(before) and c.sigma <= p.settled_noise * fell


def _flat(view: RunView, p: GradNormParams) -> bool:
    c = view.curve
    if c is None or c.n < p.flat_min_points:
        return True
    w = recent_len(c.n)
    before = float(np.median(c.values[-3 * w: -w] if c.n > 3 * w else c.values[:w]))
    return abs(c.level(w) - before) < p.flat_noise_k * c.sigma
