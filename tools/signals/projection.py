"""Projection: fit the recent objective curve with a power law plus a floor and project it to ``total_steps``.

L(t) = a + b * t^(-c), the shape of neural scaling curves (Kaplan et al. 2020;
Hoffmann et al. 2022), fitted by least squares over a grid of exponents; the
interval is the spread of fits on different recent windows.
"""

from __future__ import annotations

import numpy as np

from ..findings import OK, Finding, nums, readable
from .params import orientation
from .view import RunView

EXPONENTS = np.linspace(0.05, 1.5, 30)


def _fit(t: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float] | None:
    best = None
    for c in EXPONENTS:
        x = t ** (-c)
        A = np.vstack([np.ones_like(x), x]).T
        coef, res, *_ = np.linalg.lstsq(A, y, rcond=None)
        with np.errstate(over="ignore", invalid="ignore"):  # a blown-up curve (1e25) fits nothing: no warning
            err = float(np.sum((A @ coef - y) ** 2))
        if not np.isfinite(err):
            continue
        if best is None or err < best[3]:
            best = (float(coef[0]), float(coef[1]), float(c), err)
    return best


def project(t: np.ndarray, y: np.ndarray, at: float, windows=(0.5, 0.3, 0.7)) -> tuple[float, float, float] | None:
    """(point estimate, low, high) of the curve's value at step ``at``."""
    preds = []
    for share in windows:
        k = max(8, int(len(t) * share))
        tt, yy = t[-k:], y[-k:]
        if len(tt) < 8 or tt[0] <= 0:
            continue
        f = _fit(tt.astype(float), yy)
        if f:
            a, b, c, _ = f
            preds.append(a + b * at ** (-c))
    if not preds:
        return None
    return preds[0], min(preds), max(preds)


def metric_range(view: RunView) -> tuple[float, float]:
    """The values the objective can take: a loss, perplexity or error never below 0 (when it was never logged below
    0: a cross-entropy, an MSE); an accuracy-like metric logged in [0, 1] stays in [0, 1], in [0, 100] when logged in
    percent."""
    name = view.objective or ""
    s = view.frame.series.get(name)
    v = s.to_numpy(dtype=float) if s is not None else np.zeros(0)
    v = v[np.isfinite(v)]
    if not len(v):
        return -np.inf, np.inf
    lo = 0.0 if v.min() >= 0 else -np.inf
    hi = np.inf
    if view.direction == "max" and v.min() >= 0:
        hi = 1.0 if v.max() <= 1.0 else 100.0 if v.max() <= 100.0 and _percent(name) else np.inf
    return lo, hi


def _percent(name: str) -> bool:
    low = name.lower()
    return any(w in low for w in ("acc", "f1", "precision", "recall", "auc", "map", "iou", "%"))


def check(view: RunView, min_points: int = 20) -> Finding:
    """Project the objective at ``total_steps`` (when known) with an interval; always status ok: it informs."""
    c = view.curve
    if c is None or c.n < min_points or not view.total_steps or view.adversarial:
        return Finding("projection", OK, "no projection (needs total_steps and enough points)")
    t, y = c.s_steps.astype(float), c.s_values
    keep = t > 0
    t, y = t[keep], y[keep]
    if len(t) < min_points or view.total_steps <= t[-1]:
        return Finding("projection", OK, "run is at or past total_steps")
    p = project(t, y, float(view.total_steps))
    if p is None:
        return Finding("projection", OK, "no stable fit")
    sign = orientation(view.direction)
    est, lo, hi = (sign * p[0], sign * p[1], sign * p[2])
    lo, hi = min(lo, hi), max(lo, hi)
    floor, ceil = metric_range(view)
    est, lo, hi = (float(np.clip(x, floor, ceil)) for x in (est, lo, hi))
    return Finding("projection", OK,
                   f"{view.objective} projected to {readable(est)} [{readable(lo)}, {readable(hi)}] "
                   f"at step {view.total_steps}",
                   [int(t[0]), int(t[-1])], nums(at_step=view.total_steps, projected=est, low=lo, high=hi))
