"""Loss trend: is the objective still improving, stalled, or converged?

A robust slope (Theil–Sen) and its significance (Mann–Kendall) over the recent
part of the smoothed curve, measured against the run's noise and the progress
made so far. Late in a decayed schedule a flat loss is convergence, not a stall.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..findings import OK, WARN, Finding, nums
from .curve import mann_kendall_z, theil_sen
from .params import Params, bound, orientation, start_level
from .view import RunView


@dataclass(frozen=True)
class LossTrendParams(Params):
    recent_share: float = bound(0.3, 0.0, 1.0, above=True)  # the trend is judged over this newest share of the run
    min_points: int = bound(30, 4)  # finite objective points before the trend is judged
    min_recent: int = bound(15, 4)  # the recent window holds at least this many smoothed points
    z_sig: float = bound(2.0, 0.0, above=True)  # Mann-Kendall z below -z_sig: still improving
    worse_z_share: float = bound(1.5, 1.0)  # z above worse_z_share x z_sig (and rising): getting worse
    stall_share: float = bound(0.03, 0.0, 1.0)  # a stall gains less than this share of the progress made...
    noise_k: float = bound(2.0, 0.0)  # ...even allowing this many standard errors of the window's change
    early_share: float = bound(0.1, 0.0, 1.0)  # no plateau before this share of a run of known length
    converged_share: float = bound(0.85, 0.0, 1.0)  # flat this late in the run (and for half of it): converged
    flat_share: float = bound(0.5, 0.0, 1.0)  # ...flat for this share of the run's total steps
    flat_k: float = bound(3.0, 0.0, above=True)  # "flat since": within this many noise units of the current level
    no_learning_share: float = bound(0.02, 0.0, 1.0)  # a gain below this share of the start is no learning...
    never_noise_k: float = bound(3.0, 0.0)  # ...as is a gain within this many noise units
    small_share: float = bound(0.1, 0.0, 1.0)  # a loss at this share of its start or below has converged
    settled_share: float = bound(0.5, 0.0, 1.0)  # under a winding-down LR, keeping this share of the gain: converged
    late_start: float = bound(2.0, 0.0)  # a log starting at this many spans after step 0 cannot show "no learning"
    decayed_share: float = bound(0.15, 0.0, 1.0)  # the LR below this share of its peak: decayed
    winding_share: float = bound(0.5, 0.0, 1.0)  # the LR at most this share of its peak and not rising: decaying
    small_lr: float = bound(1e-5, 0.0)  # an LR at or below this is a fine-tuning rate: no progress expected
    collapsed_share: float = bound(1e-3, 0.0, 1.0, above=True)  # an LR below this share of its peak...
    collapsed_before: float = bound(0.5, 0.0, 1.0)  # ...reached before this share of the run: no convergence
    early_flat_from: float = bound(0.25, 0.0, 1.0)  # flat since before this share of a run of known length...
    early_flat_for: float = bound(0.3, 0.0, 1.0)  # ...for this share of its planned steps...
    high_lr_share: float = bound(0.5, 0.0, 1.0)  # ...under an LR still at this share of its peak...
    early_flat_z: float = bound(2.5, 0.0, above=True)  # ...no trend since (Mann-Kendall z above -early_flat_z)...
    early_flat_gain: float = bound(0.15, 0.0, 1.0)  # ...and a gain since below this share of the progress made
    short_min: int = bound(8, 4)  # a short log (this many points, under min_points) of a run of known length...
    short_share: float = bound(0.5, 0.0, 1.0)  # ...this share done whose best is within noise of its start: no learning
    eval_min: int = bound(4, 2)  # evals since the window's start before "the eval still improves" counts
    eval_z: float = bound(1.5, 0.0, above=True)  # Mann-Kendall z of those evals below -eval_z: still improving


DEFAULT = LossTrendParams()


def lr_decayed(view: RunView, share: float = DEFAULT.decayed_share) -> bool:
    """True when the learning rate has fallen below ``share`` of its peak (the schedule is winding down)."""
    lr_name = view.frame.first_of("lr")
    if not lr_name:
        return False
    v = view.frame.series[lr_name].to_numpy()
    v = v[np.isfinite(v)]
    peak = view.frame.finite_extreme(lr_name, "max") if len(v) >= 3 else None  # over the whole run
    return bool(len(v) >= 3 and peak is not None and peak > 0 and v[-1] <= share * peak)


def lr_winding_down(view: RunView, since: float, share: float = DEFAULT.winding_share,
                    small: float = DEFAULT.small_lr) -> str | None:
    """Why the LR no longer drives progress, or None: it is small in absolute terms (``small``, a fine-tuning
    rate), or it is decaying: at most ``share`` of its peak and not rising since step ``since``."""
    lr_name = view.frame.first_of("lr")
    if not lr_name:
        return None
    s = view.frame.series[lr_name]
    v = s.to_numpy()
    ok = np.isfinite(v)
    v, st = v[ok], s.index.to_numpy()[ok]
    if len(v) < 3 or v.max() <= 0:
        return None
    if 0 < v[-1] <= small:
        return f"a small learning rate ({v[-1]:.2g})"
    recent = v[st >= since]
    if v[-1] <= share * v.max() and (len(recent) < 2 or recent[-1] <= recent[0]):
        return f"a decaying learning rate ({v[-1]:.2g}, {v[-1] / v.max():.0%} of its peak)"
    return None


def lr_collapsed_early(view: RunView, share: float = DEFAULT.collapsed_share,
                       before: float = DEFAULT.collapsed_before) -> int | None:
    """The step where the LR fell below ``share`` of its peak, when that came before ``before`` of a run of known
    length (a schedule stepped per iteration instead of per epoch): a loss flat after it has not converged."""
    lr_name = view.frame.first_of("lr")
    if not lr_name or not view.total_steps:
        return None
    s = view.frame.series[lr_name]
    v = s.to_numpy()
    ok = np.isfinite(v)
    v, st = v[ok], s.index.to_numpy()[ok]
    if len(v) < 3 or v.max() <= 0 or v[-1] > share * v.max():
        return None
    low = np.flatnonzero(v[int(np.argmax(v)):] <= share * v.max())
    at = int(st[int(np.argmax(v)) + int(low[0])])
    return at if at < before * view.total_steps else None


def check(view: RunView, p: LossTrendParams = DEFAULT) -> Finding:
    """Warn "plateau" when, over the last ``recent_share`` of the run, the objective has not fallen significantly
    (Mann–Kendall z > -``z_sig``) and by less than ``stall_share`` of the progress made and ``noise_k`` noise units;
    not before ``early_share`` of a run of known length, and never once the LR has decayed or the run is nearly done.

    A run that learned and then flattened has converged, not stalled: when its loss (non-negative, lower is better)
    sits at ``small_share`` of where it started or below, or when the LR is small or decaying (``lr_winding_down``)
    and the loss keeps at least ``settled_share`` of the gain it made. A reviewer call would only hear "it converged".
    A log whose first step is more than ``late_start`` times its span (it starts mid-run) cannot show "no learning".
    """
    c = view.curve
    name = view.objective
    if c is None or c.n < p.min_points:
        flat = _never_left_start(view, p) if c is not None else None
        if flat is not None:
            return flat
        return Finding("loss_trend", OK, "too few points to judge the trend yet", numbers=nums(points=c.n if c else 0))
    if view.adversarial:
        return Finding("loss_trend", OK, f"{name} is an adversarial/RL loss: no trend expected")
    ss, sv = c.s_steps, c.s_values
    span = ss[-1] - ss[0]
    cut = ss[-1] - p.recent_share * span
    m = ss >= cut
    if m.sum() < p.min_recent:
        m = np.zeros(len(ss), bool)
        m[-p.min_recent:] = True
    x, y = ss[m], c.b_values[m]  # unsmoothed block medians: a rolling median's autocorrelation would fake significance
    slope = theil_sen(x, y)
    z = mann_kendall_z(y)
    change = slope * (x[-1] - x[0])  # negative = improving (curve is oriented lower-is-better)
    start = start_level(c)
    best = float(sv.min())
    progress = max(0.0, start - best)
    sign = orientation(view.direction)
    info = nums(slope_per_1k_steps=sign * slope * 1000, mk_z=sign * z, recent_change=sign * change,
                progress=progress, noise=c.sigma)
    steps = [int(x[0]), int(x[-1])]
    frac = view.fraction
    late = c.steps[0] > p.late_start * max(1, c.steps[-1] - c.steps[0])
    crawl = (not late and view.direction == "min" and start > 0 and progress < p.no_learning_share * start
             and (frac is None or frac >= p.early_share))
    if z <= -p.z_sig and change < 0:
        if crawl:
            # Significant but a sliver: a network this far from its start after min_points logs is not learning at
            # the rate it takes (an LR far too small), whatever the sign of its trend.
            return Finding("loss_trend", WARN,
                           f"{name} is barely improving: it gained {progress:.3g} since the start "
                           f"({progress / start:.1%} of {start:.3g}) by step {steps[1]}", steps, info,
                           concern="plateau")
        return Finding("loss_trend", OK,
                       f"{name} still improving ({sign * change:+.3g} over steps {steps[0]}-{steps[1]})", steps, info)
    if frac is not None and frac < p.early_share:
        return Finding("loss_trend", OK, f"{name} flat for now, but the run is only {frac:.0%} done", steps, info)
    # No learning: the gain since the start is within noise, or a sliver of the starting loss (a dead network sits at
    # its chance-level loss, e.g. ln(10) for ten classes, gaining a percent at most).
    # A log that begins long after step 0 (an excerpt, a resumed run) shows a loss that already learned: sitting
    # flat there is not "never learned".
    # A gain within a few noise units of single points is still learning when the whole curve trends down
    # significantly (per-batch losses of a small batch are noisy: their median levels move less than one point's noise)
    learned = mann_kendall_z(c.b_values) <= -p.z_sig and float(c.b_values[-1]) < float(c.b_values[0])
    never = not late and ((progress <= p.never_noise_k * c.sigma and not learned)
                          or (start > 0 and progress < p.no_learning_share * start))
    collapsed = lr_collapsed_early(view, p.collapsed_share, p.collapsed_before)
    if lr_decayed(view, p.decayed_share) and not never and collapsed is None:
        return Finding("loss_trend", OK, f"{name} has flattened as the learning rate decayed: converged", steps, info)
    flat_since = _flat_since(ss, sv, c.sigma, p.flat_k)
    if (not never and frac is not None and frac >= p.converged_share and view.total_steps
            and flat_since >= p.flat_share * view.total_steps):
        return Finding("loss_trend", OK, f"{name} flattened late in the run (since step {flat_since}): converged",
                       steps, info)
    if not never and frac is not None and frac >= 1.0:
        # the run has done every step it was given: a flat end after learning is where it arrived, nothing left to
        # save by stopping nor to ask a reviewer about
        return Finding("loss_trend", OK, f"{name} flat since step {flat_since} at the run's last step: finished",
                       steps, info)
    n_raw = max(1, c.count_since(x[0]))
    # The standard error of the window's change (a line fitted through noise): 12 comes from a least-squares line's
    # slope variance over n evenly spaced points.
    se = c.sigma * np.sqrt(12.0 / n_raw)
    improvement = -change
    if z >= p.worse_z_share * p.z_sig and change > 0:
        return Finding("loss_trend", WARN,
                       f"{name} is getting worse over steps {steps[0]}-{steps[1]} ({sign * change:+.3g})",
                       steps, info, concern="divergence")
    if not never and view.direction == "min" and start > 0 and float(np.min(c.b_values[m])) >= 0:
        level = float(np.median(y))
        if level <= p.small_share * start:
            return Finding("loss_trend", OK, f"{name} has converged to {level:.3g} (from {start:.3g})", steps, info)
        why = lr_winding_down(view, float(x[0]), p.winding_share, p.small_lr) if collapsed is None else None
        if why and level - best <= (1 - p.settled_share) * progress:
            return Finding("loss_trend", OK, f"{name} has flattened at {level:.3g} under {why}: converged", steps, info)
    ev = _eval_improving(view, float(x[0]), p.eval_min, p.eval_z, p.no_learning_share if never else 0.0)
    if ev:
        return Finding("loss_trend", OK, f"{name} is flat but {ev} is still improving", steps, info)
    if never:
        return Finding("loss_trend", WARN, f"{name} has not improved since the start (change {sign * change:+.3g} over "
                       f"steps {steps[0]}-{steps[1]}, within noise {c.sigma:.3g})", steps, info, concern="plateau")
    stopped = _stopped_early(view, flat_since, progress, p)
    if stopped:
        return Finding("loss_trend", WARN, f"{name} has been flat at {sign * float(np.median(y)):.4g} {stopped}",
                       [flat_since, steps[1]], info, concern="plateau")
    if improvement + p.noise_k * se > p.stall_share * progress:
        # The data cannot rule out a slow, healthy improvement: a stall has to be shown, not presumed.
        return Finding("loss_trend", OK, f"{name} improving slowly or flat within noise ({sign * change:+.3g} ± "
                       f"{p.noise_k * se:.2g} over steps {steps[0]}-{steps[1]})", steps, info)
    return Finding("loss_trend", WARN, f"{name} has stalled at {sign * float(np.median(y)):.4g} (change "
                   f"{sign * change:+.3g} over steps {steps[0]}-{steps[1]}, {progress:.3g} gained before)",
                   steps, info, concern="plateau")


def _never_left_start(view: RunView, p: LossTrendParams) -> Finding | None:
    """A short log (``short_min`` to ``min_points`` points: an epoch or an evaluation a log) of a run of known length,
    ``short_share`` or more done, whose best so far is within ``never_noise_k`` noise units of where it started and
    with no downward trend (Mann-Kendall), and for a loss (lower is better, positive) a gain under
    ``no_learning_share`` of its start (a short log's noise is loose: a loss down 70 % in ten swinging logs learned):
    nothing learned in half the planned run (an RL return at its random policy's level, a loss at its first value),
    too few points for the trend test but not for this."""
    c, frac = view.curve, view.fraction
    if c is None or c.n < p.short_min or view.adversarial or frac is None or frac < p.short_share:
        return None
    if view.last_step is not None and view.total_steps is not None and view.last_step > view.total_steps:
        return None  # a run past the length it was given (resumed, re-counted): that length is not its plan
    if c.steps[0] > p.late_start * max(1, c.steps[-1] - c.steps[0]) or c.history is not None:
        return None  # an excerpt starting mid-run has learned before it
    start = max(start_level(c), float(c.values[0]))  # a log an epoch: its first point is already a mean, no outlier
    progress = start - float(np.min(c.values))
    if progress > p.never_noise_k * c.sigma or mann_kendall_z(c.values) <= -p.z_sig:
        return None
    if view.direction == "min" and start > 0 and progress >= p.no_learning_share * start:
        return None  # a loss a few points' noise can hide: short logs' noise is loose, its share of the start is not
    sign = orientation(view.direction)
    return Finding("loss_trend", WARN, f"{view.objective} has not improved since the start: its best "
                   f"{sign * float(np.min(c.values)):.4g} is within {p.never_noise_k:g} noise units ({c.sigma:.3g} "
                   f"each) of its start {sign * start:.4g} after {c.n} logs, {frac:.0%} of the run",
                   [int(c.steps[0]), int(c.steps[-1])], nums(progress=progress, noise=c.sigma, points=c.n),
                   concern="plateau")


def _stopped_early(view: RunView, flat_since: int, progress: float, p: LossTrendParams) -> str | None:
    """Why a loss flat since early in a run of known length stopped learning long before its end, or None: flat
    since before ``early_flat_from`` of the planned steps, for ``early_flat_for`` of them, while the LR is still at
    ``high_lr_share`` of its peak or more (a schedule that wound down explains a flat loss; a high LR does not).
    Flat means no trend over that whole stretch (a healthy run near its floor still creeps down significantly over
    half a run) and a gain below ``early_flat_gain`` of the progress made before it."""
    total, last, c = view.total_steps, view.last_step, view.curve
    lr_name = view.frame.first_of("lr")
    if not total or last is None or not lr_name or c is None or flat_since > p.early_flat_from * total:
        return None
    if last - flat_since < p.early_flat_for * total:
        return None
    m = c.steps >= flat_since
    if m.sum() < 8 or mann_kendall_z(c.values[m]) <= -p.early_flat_z:
        return None
    gain = -theil_sen(c.steps[m].astype(float), c.values[m]) * float(c.steps[m][-1] - c.steps[m][0])
    if progress <= 0 or gain >= p.early_flat_gain * progress:
        return None
    v = view.frame.series[lr_name].to_numpy()
    v = v[np.isfinite(v)]
    if len(v) < 3 or v.max() <= 0 or v[-1] < p.high_lr_share * v.max():
        return None
    return (f"since step {flat_since} ({flat_since / total:.0%} of its {total} steps) while the LR is still "
            f"{v[-1]:.3g} ({v[-1] / v.max():.0%} of its peak): it stopped learning long before the run's end")


def _flat_since(ss: np.ndarray, sv: np.ndarray, sigma: float, k: float) -> int:
    """The first step from which the smoothed curve stays within ``k`` noise units of its current level."""
    now = float(np.median(sv[-max(3, len(sv) // 20):]))
    off = np.abs(sv - now) > max(k * sigma, 1e-12)
    idx = np.flatnonzero(off)
    return int(ss[idx[-1] + 1]) if len(idx) and idx[-1] + 1 < len(ss) else int(ss[0])


def _eval_improving(view: RunView, since: float, min_evals: int, z_sig: float, min_share: float = 0.0) -> str | None:
    """The primary eval's name when it is still improving since step ``since`` (the train loss may flatten
    first on a noisy task while generalisation still improves), by more than ``min_share`` of its level."""
    name = view.primary_eval
    if not name or name == view.objective:
        return None
    s = view.oriented(name)
    v = s.to_numpy()
    st = s.index.to_numpy()
    keep = np.isfinite(v) & (st >= since)
    v = v[keep]
    if len(v) < min_evals:
        return None
    z = mann_kendall_z(v)
    return name if z <= -z_sig and v[0] - v[-1] > min_share * abs(v[0]) else None
