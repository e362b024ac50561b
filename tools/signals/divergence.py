"""Divergence: the objective sustained well above its best level and not coming back.

"Well above" is measured against both the run's own noise and the progress it
had made (how far it had fallen from its start), so the rule is the same for a
loss of 10 or of 0.01. Single-batch spikes do not count: the level is a median.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..findings import CRITICAL, OK, WARN, Finding, nums, readable
from ..roles import is_rl_return
from . import search_evals
from .curve import Curve, make_curve, mann_kendall_z, short_noise, theil_sen
from .params import Params, bound, orientation, start_level
from .view import RunView, recent_len

_EPS = 1e-12  # relative floor of a noise estimate (an exactly flat curve must not divide by zero)
_MIN_BAR = 1e-9  # the smallest rise that can count, in the objective's units


@dataclass(frozen=True)
class DivergenceParams(Params):
    min_points: int = bound(4, 2)  # finite objective points before divergence is judged
    recent_lo: int = bound(3, 1)  # "now" is the median of at least this many newest logs
    noise_k: float = bound(6.0, 0.0, above=True)  # a rise must exceed this many noise units...
    progress_share: float = bound(0.15, 0.0, 1.0)  # ...and this share of the progress made (start - best)
    rel_jump: float = bound(0.5, 0.0, above=True)  # this share above a positive best is a rise whatever the noise
    floor_k: float = bound(6.0, 0.0)  # ...but never less than this many noise units of a w-log median
    min_rise_noise: float = bound(1.5, 0.0)  # ...nor less than this many noise units
    below_share: float = bound(0.5, 0.0, 1.0)  # "high since": the last log at or below best + this share of the bar
    recovered_share: float = bound(0.5, 0.0, 1.0)  # recovering: falling, and the newest log below best + this x rise
    start_rise_k: float = bound(2.0, 1.0)  # a run that never progressed diverges at this many bars above its best
    critical_progress_share: float = bound(0.35, 0.0, 1.0)  # critical: this share of the progress lost...
    big_noise_k: float = bound(2.0, 1.0)  # ...and more than this many times noise_k noise units
    sustain_share: float = bound(0.04, 0.0, 1.0)  # critical needs the rise held over this share of the run...
    sustain_min: int = bound(10, 1)  # ...and at least this many logs
    massive: float = bound(4.0, 1.0)  # a rise this many bars high...
    sustain_massive: int = bound(5, 1)  # ...needs only this many logs
    fresh_points: int = bound(3, 1)  # a rise over fewer logs than this is fresh (may resolve by itself)
    down_window_w: int = bound(3, 1)  # "coming down" is tested over this many "now" windows...
    down_min: int = bound(20, 4)  # ...and at least this many logs
    z_down: float = bound(3.0, 0.0, above=True)  # Mann-Kendall z below -z_down over that window: coming down...
    z_down_half: float = bound(1.5, 0.0, above=True)  # ...and below -z_down_half over its newer half
    regime_min_points: int = bound(30, 4)  # below this many points the whole curve's noise is the noise
    regime_window_min: int = bound(10, 4)  # the recent / around-best noise windows hold this many logs at least...
    regime_window_w: int = bound(3, 1)  # ...or this many "now" windows
    collapse_logs: int = bound(20, 4)  # a reward/accuracy worse than where it started for this many logs...
    collapse_share: float = bound(0.5, 0.0, 1.0)  # ...and this share of the logged run has collapsed: a STOP
    blowup_ratio: float = bound(1000.0, 10.0)  # a positive loss this many times its best level and above its
    # start for sustain_massive logs in a row has blown up: orders of magnitude no noise estimate can explain (the
    # blow-up's own growth swamps the noise in linear units)
    order_ratio: float = bound(10.0, 2.0)  # ...or this many times its best for sustain_order logs in a row...
    sustain_order: int = bound(3, 1)  # ...the newest of them at blowup_ratio x: a blow-up still growing
    sustain_growing: int = bound(2, 2)  # ...or this many logs over blowup_ratio x, each blowup_ratio x the one
    # before: a loss growing by orders of magnitude a log (a spike is one log; no noise rises twice like this)
    beside_ratio: float = bound(2.0, 1.0)  # another loss blown up counts while the objective is this many x its best
    sustain_climb: int = bound(3, 2)  # ...or this many logs in a row, each climb_ratio x the one before, the newest at
    climb_ratio: float = bound(1.4, 1.0, above=True)  # order_ratio x its best: a loss compounding log after log (an
    # LR grown by a factor each epoch), caught before its logs reach blowup_ratio x (a spike is one log, noise does not
    # multiply three logs in a row)
    sustain_undone: int = bound(2, 2)  # ...or this many newest logs (and sustain_share of the run) each order_ratio x
    undone_ratio: float = bound(2.0, 1.0)  # its best and undone_ratio x where it started: the run's progress undone
    # and doubled (a spike is one log of a sparse log, a few of a dense one; no noise doubles the untrained level)
    never_below_share: float = bound(0.1, 0.0, 1.0)  # a loss above its first log at all but this share of its
    # later logs, their median undone_ratio x the first: worse than untrained from its first update on
    back_ratio: float = bound(2.0, 1.0)  # a positive loss whose best level fell to 1/back_ratio of its first log...
    sustain_back: int = bound(3, 2)  # ...then came back above that first log for this many newest logs in a row...
    back_share: float = bound(0.25, 0.0, 1.0)  # ...and this share of the logs seen has undone its training: a run of
    # few logs (a dozen epoch records, an LR multiplied every epoch) cannot hold a rise over sustain_min logs
    zero_share: float = bound(1e-7, 0.0, 1e-3)  # a positive loss at or under this share of its first log (a single
    # float's precision) is at zero as far as its numbers tell: its orders of magnitude over its best are measured
    # from this floor, not from a rounding residue (a solver's residual at 1e-16 of where it started, back at 1e-7)
    adversarial_blowup: float = bound(1e6, 10.0)  # an adversarial or RL loss (not judged for divergence: it climbs
    # as the returns grow) this many times its best and its start for sustain_massive logs in a row has blown up
    # all the same: no return's growth squares into six orders of magnitude (a value function's weights exploding)


DEFAULT = DivergenceParams()


def check(view: RunView, p: DivergenceParams = DEFAULT) -> Finding:
    """Warn when the recent median is above the best smoothed level by more than ``noise_k`` noise units and
    ``progress_share`` of the progress made; critical when that held over a long stretch or the level is above the
    start (sustained ``sustain_share`` of the run, at least ``sustain_min`` points), or when another loss blew up by
    orders of magnitude while the objective rose too (``_blown_up_beside``)."""
    if view.evaluations is not None and view.objective is not None:  # a search's evaluations: its black box blown up
        found = search_evals.blown_up(view.evaluations, view.objective, view.direction, p.blowup_ratio, p.min_points)
        if found is not None:
            return found
    return _blown_up_beside(view, p) or _unjudged_blowup(view, p) or _check(view, p)


def _check(view: RunView, p: DivergenceParams) -> Finding:
    """``_levels``, or where it finds no divergence to stop on, a loss held above its first log from its first update
    on (``_never_below_first``): its level and best are medians, which a loss bouncing from 1 to 9 makes noise."""
    found = _levels(view, p)
    c = view.curve
    if found.status == CRITICAL or c is None or c.n < p.min_points or view.adversarial or not _is_loss(view) or (
            view.direction == "max"):
        return found
    now = c.level(recent_len(c.n, lo=p.recent_lo))
    never = _never_below_first(c, now, p)
    if not never:
        return found
    first = float(c.first(1)[0])
    level = float(np.median(c.values[1:]))
    return Finding("divergence", CRITICAL,
                   f"{view.objective} diverged from its first log: hardly ever back to {first:.4g} since, its level "
                   f"{readable(level, 4)} over its {never} logs since ({level / first:.2g} times its first log)",
                   [int(c.steps[1]), int(c.steps[-1])], nums(now=now, first_logged=first, level=level,
                                                             points_above=never), concern="divergence",
                   sustained=True)


def _levels(view: RunView, p: DivergenceParams) -> Finding:
    c = view.curve
    name = view.objective
    if c is None or c.n < p.min_points or view.adversarial:
        why = ("not enough finite points to judge divergence" if c is not None and c.n < p.min_points
               else "no objective curve to judge divergence" if c is None
               else f"{name} is an adversarial/RL loss: not judged for divergence")
        return Finding("divergence", OK, why)
    w = recent_len(c.n, lo=p.recent_lo)
    now = c.level(w)
    # The best level is measured like "now": a median over as many logs, so a lucky batch is not the bar.
    ss, sv = level_curve(c, w)
    start = start_level(c)
    ib = int(np.argmin(sv))
    best, best_step = float(sv[ib]), int(ss[ib])
    progress = max(0.0, start - best)
    sigma = max(_regime_noise(c, w, best_step, p), _EPS * max(1.0, abs(best)))
    rise = now - best
    threshold = max(p.noise_k * sigma, p.progress_share * progress, _MIN_BAR)
    if best > 0:
        # A level half again above the best is a real rise whatever the noise estimate says (short or trending
        # series inflate it) -- but never less than the noise of two medians of w noisy logs.
        threshold = max(min(threshold, p.rel_jump * best), p.floor_k * sigma / np.sqrt(w), p.min_rise_noise * sigma)
    sign = orientation(view.direction)
    shown = dict(now=sign * now, best=sign * best, best_step=best_step, start=sign * start, noise=sigma)
    blown = _blown_up(c, best, start, p) if _is_loss(view) and sign > 0 else 0
    if blown:
        since = int(c.steps[-blown])
        shown.update(rise=now - best, above_since=since, points_above=blown, ratio=now / best)
        return Finding("divergence", CRITICAL,
                       f"{name} diverged: {readable(now, 4)} now vs best {best:.4g} at step {best_step} "
                       f"({now / best:.2g} times its best, above where it started), "
                       f"sustained for {blown} logs since step {since}",
                       [since, int(c.steps[-1])], nums(**shown), concern="divergence", sustained=True)
    if rise <= threshold:
        return Finding("divergence", OK,
                       f"{name} is within noise of its best level ({sign * best:.4g} at step {best_step})",
                       [best_step, int(c.steps[-1])], nums(**shown))
    # How long has it been high? The logs since the last one at or below best + threshold/2 (the level view lags).
    last_below = c.last_at_or_below(best + p.below_share * threshold)
    first_above = last_below + 1 if last_below is not None else 0
    if first_above >= c.n:
        first_above = c.n - 1
    raw_since = c.step_after(first_above)
    n_raw_above = c.n - first_above
    recovering = theil_sen(c.steps[-w:], c.values[-w:]) < 0 and c.values[-1] < best + p.recovered_share * rise
    worse_than_start = progress > p.noise_k * sigma and now > start
    from_start_rising = progress <= p.noise_k * sigma and rise > p.start_rise_k * threshold
    severity = rise / threshold
    # The bigger the rise, the fewer logs it takes to be sure it is not noise (but never fewer than sustain_massive).
    need = p.sustain_massive if severity >= p.massive else max(p.sustain_min, int(p.sustain_share * c.n), w)
    long_enough = n_raw_above >= need
    big = rise > max(p.critical_progress_share * progress, p.big_noise_k * p.noise_k * sigma)
    shown.update(rise=rise, above_since=raw_since, points_above=n_raw_above, severity=severity)
    sustained_points = n_raw_above >= p.sustain_massive
    is_loss = _is_loss(view)
    # Coming down steadily after a jump (a curriculum or data-mix change, a spike being absorbed) is not clearly
    # bad: a significant fall over the recent logs turns a would-be STOP into a question for the reviewer.
    k = min(max(p.down_window_w * w, p.down_min), n_raw_above)
    half = k // 2  # still coming down: the newer half falls too (a fall that has ended is no recovery)
    coming_down = (k >= p.down_min and mann_kendall_z(c.values[-k:]) < -p.z_down
                   and mann_kendall_z(c.values[-half:]) < -p.z_down_half
                   and theil_sen(c.steps[-half:], c.values[-half:]) < 0)
    if coming_down and not recovering:
        return Finding("divergence", WARN,
                       f"{name} jumped to above its best ({sign * now:.4g} vs {sign * best:.4g} at step {best_step}) "
                       f"and has been coming down since step {raw_since}",
                       [raw_since, int(c.steps[-1])], nums(**shown),
                       concern="divergence" if is_loss else "objective_drop")
    below_start = now > start + threshold  # oriented: worse than the untrained model's level
    if sign < 0 and not recovering and below_start and not _coming_back(c, best, first_above, w, p) \
            and n_raw_above >= max(p.collapse_logs, p.collapse_share * c.n):
        # A higher-is-better objective (reward, accuracy) worse than the run began with, over half the run and many
        # logs: the policy or model collapsed below its untrained self (RL's exploration dips come back sooner)
        return Finding("divergence", CRITICAL,
                       f"{name} collapsed: {sign * now:.4g} now, worse than where it started ({sign * start:.4g}) and "
                       f"than its best {sign * best:.4g} (step {best_step}), for {n_raw_above} logs since step "
                       f"{raw_since}", [raw_since, int(c.steps[-1])], nums(**shown), concern="objective_drop",
                       sustained=True)
    back = _back_above_first(c, best, p) if is_loss and sign > 0 and not recovering and not long_enough else 0
    if back:
        first = float(c.first(1)[0])
        shown.update(first_log=first)
        return Finding("divergence", CRITICAL,
                       f"{name} diverged: {readable(now, 4)} now vs best {best:.4g} at step {best_step}, back above "
                       f"its first log {first:.4g} for its last {back} of {c.n} logs since step "
                       f"{int(c.steps[-back])}", [int(c.steps[-back]), int(c.steps[-1])], nums(**shown),
                       concern="divergence", sustained=True)
    if long_enough and not recovering and (big or worse_than_start or from_start_rising) and not is_loss:
        # A reward, accuracy or perplexity that fell back is worth a reviewer's look, not an automatic stop:
        # curricula and RL make such objectives move for reasons a loss does not.
        return Finding("divergence", WARN,
                       f"{name} fell back to {sign * now:.4g} from its best {sign * best:.4g} (step {best_step}), "
                       f"for {n_raw_above} logs since step {raw_since}",
                       [raw_since, int(c.steps[-1])], nums(**shown), concern="objective_drop")
    if long_enough and not recovering and (big or worse_than_start or from_start_rising):
        # "rising since the start" only for a curve that never got meaningfully below its start (a blow-up's noise
        # can dwarf real progress in noise units: 2.36 -> 0.31 then up is not "rising since the start")
        never_fell = best >= start - p.progress_share * abs(start)
        why = "above where it started" if worse_than_start or (now > start and not never_fell) else \
            "rising since the start" if from_start_rising and never_fell else \
            f"{min(rise / max(progress, _EPS), 1.0):.0%} of its progress lost" if progress > 0 else "above its best"
        return Finding("divergence", CRITICAL,
                       f"{name} diverged: {readable(sign * now, 4)} now vs best {sign * best:.4g} at step {best_step} "
                       f"({why}), "
                       f"sustained for {n_raw_above} logs since step {raw_since}",
                       [raw_since, int(c.steps[-1])], nums(**shown), concern="divergence", sustained=True)
    worse = "above" if sign > 0 else "below"  # a reward or an accuracy that fell is below its best
    return Finding("divergence", WARN,
                   f"{name} is {sign * now:.4g}, {worse} its best {sign * best:.4g} (step {best_step}) by {rise:.3g} "
                   f"for {n_raw_above} logs{' and recovering' if recovering else ''}",
                   [raw_since, int(c.steps[-1])], nums(**shown), concern="divergence" if is_loss else "objective_drop",
                   sustained=sustained_points and is_loss,
                   fresh=recovering or (not long_enough and n_raw_above < p.fresh_points
                                        and not _order_above_start(c, best, start, p, n_raw_above, is_loss)))


def _coming_back(c: Curve, best: float, first_above: int, w: int, p: DivergenceParams) -> bool:
    """Whether an objective that fell from its best is on its way back: rising over its newest ``w`` logs and its newest
    log has made up over ``recovered_share`` of the way from its worst level since the best back to the best (an RL
    return's exploration dip of 20.8 -> 9.7 back at 17.3: the level view, a median, still lags at 14.1). Oriented:
    lower is better."""
    if c.n - first_above < 2:
        return False
    ss, sv = level_curve(c, w)
    since = sv[ss >= c.steps[first_above]]
    if not len(since):
        return False
    worst = float(np.max(since))
    return bool(worst > best and theil_sen(c.steps[-w:], c.values[-w:]) < 0
                and c.values[-1] < worst - p.recovered_share * (worst - best))


def _order_above_start(c: Curve, best: float, start: float, p: DivergenceParams, above: int, is_loss: bool) -> bool:
    """Whether the ``above`` newest logs of a positive loss (two or more: no one-log spike) each sit ``order_ratio``
    times over its best and above where it started: worse than the untrained model by an order of magnitude over its
    best is no swing that may resolve by itself (an LR grown into a blow-up, caught at a log's end), it is worth a
    reviewer's look now, not a WAIT."""
    if not is_loss or best <= 0 or above < 2:
        return False
    v = c.values[-above:]
    return bool((v >= p.order_ratio * best).all() and (v > start).all())


def _back_above_first(c: Curve, best: float, p: DivergenceParams) -> int:
    """How many newest logs in a row (``sustain_back`` or more, and ``back_share`` of the logs seen; else 0) a positive
    loss whose best level fell to ``1 / back_ratio`` of its first log sits above that first log: its training undone
    in a run of few logs (the label's "diverged": back above its start, at twice its best and more). A loss rising
    from its first logs (no progress made first), or risen a few x but still under where it started, is not."""
    v = c.values
    first = float(c.first(1)[0])
    if best <= 0 or first < p.back_ratio * best or len(v) < p.sustain_back:
        return 0
    above = v > first
    k = len(above) - 1 - int(np.flatnonzero(~above)[-1]) if not above.all() else len(above)
    return k if k >= max(p.sustain_back, int(np.ceil(p.back_share * c.n))) else 0


def _never_below_first(c: Curve, now: float, p: DivergenceParams) -> int:
    """How many logs after the first (``sustain_min`` or more, else 0) a positive loss has logged, all but
    ``never_below_share`` of them above its first log, their median ``undone_ratio`` times it or more: made worse
    than the untrained model from its first update on and held there (a learning rate too high for the first step
    to survive: a classifier's cross-entropy bouncing between 1 and 9 from a first log of 0.69, chance). A run that
    learned first is ``_back_above_first``'s; one coming back down (its level ``now`` under ``undone_ratio`` times its
    first log: a simulated annealing's warm start accepting worse states, then cooling) is not held there."""
    v = c.values
    first = float(c.first(1)[0]) if len(v) else 0.0
    if first <= 0 or len(v) <= p.sustain_min or now < p.undone_ratio * first or float(
            np.mean(v[1:] <= first)) > p.never_below_share:
        return 0
    return len(v) - 1 if float(np.median(v[1:])) >= p.undone_ratio * first else 0


def back_above_first(f: Finding) -> bool:
    """Whether ``f`` is a divergence of a loss back above its first log (``_back_above_first``)."""
    return f.signal == "divergence" and f.status == CRITICAL and "first_log" in (f.numbers or {})


def _unjudged_blowup(view: RunView, p: DivergenceParams) -> Finding | None:
    """Critical when a loss the divergence rules leave alone - an adversarial or RL objective, or the losses of a run
    judged by its episode return (they climb as the returns grow) - blew up by ``adversarial_blowup``
    (``_adversarial_blowup``): a value function's weights exploding, whatever the returns do."""
    names = [view.objective] if view.adversarial and view.objective else []
    if view.objective and is_rl_return(view.objective):
        names += [n for n in view.frame.series if view.frame.roles[n].role == "train_loss"]
    for name in names:
        c = view.curve if name == view.objective else make_curve(view.frame.series[name],
                                                                 view.frame.summarised(name))
        if c is None or c.n < p.min_points or not (blown := _adversarial_blowup(c, p)):
            continue
        now = c.level(recent_len(c.n, lo=p.recent_lo))
        return Finding("divergence", CRITICAL,
                       f"{name} blew up: {readable(now, 4)} now, over {readable(p.adversarial_blowup)} times its best "
                       f"and its start for {blown} logs (an RL or adversarial loss, but no return's growth explains "
                       f"that)", [int(c.steps[-blown]), int(c.steps[-1])], nums(now=now, points_above=blown),
                       concern="divergence", sustained=True)
    return None


def _adversarial_blowup(c: Curve, p: DivergenceParams) -> int:
    """How many newest logs in a row (``sustain_massive`` or more, else 0) a positive adversarial or RL loss sits over
    ``adversarial_blowup`` times both its lowest log and its first."""
    v = c.values
    if len(v) < p.sustain_massive:
        return 0
    low, first = float(np.min(v)), float(c.first(1)[0])
    if low <= 0 or first <= 0:
        return 0
    over = v > p.adversarial_blowup * max(low, first)
    k = len(over) - 1 - int(np.flatnonzero(~over)[-1]) if not over.all() else len(over)
    return k if k >= p.sustain_massive else 0


def _blown_up(c: Curve, best: float, start: float, p: DivergenceParams) -> int:
    """How many newest logs in a row a positive loss has been over ``blowup_ratio`` times its best level and above
    its start (0 when fewer than ``sustain_massive``, unless ``sustain_growing`` of them each grew ``blowup_ratio``
    times over the one before), or over ``order_ratio`` times for ``sustain_order`` logs with the newest at
    ``blowup_ratio`` times (a blow-up still growing), or ``sustain_climb`` logs each ``climb_ratio`` times the one
    before with the newest ``order_ratio`` times its best (compounding), or ``sustain_undone`` logs (``sustain_share``
    of the run) each ``order_ratio`` times its best and ``undone_ratio`` times its start (the run's progress undone
    twice over): a blow-up measured in orders of magnitude. A best under ``zero_share`` of the first log counts as
    that share of it (a rounding residue is no base for a ratio). The start is the first log when lower than the
    start level (a blow-up from the second log inflates the median of the first few)."""
    if best <= 0 or len(c.values) < p.sustain_massive:
        return 0
    best = max(best, p.zero_share * float(c.first(1)[0]))  # a best at a rounding residue is zero: no ratio's base
    above_start = c.values > min(start, float(c.first(1)[0]))
    over = (c.values > p.blowup_ratio * best) & above_start
    k = len(over) - 1 - int(np.flatnonzero(~over)[-1]) if not over.all() else len(over)
    if k >= p.sustain_massive:
        return k
    g = p.sustain_growing
    if k >= g and (c.values[-g + 1:] >= p.blowup_ratio * c.values[-g:-1]).all():
        return k  # orders of magnitude a log, sustain_growing logs in a row (2e6 then 1e21 over a best of 0.4)
    # an order of magnitude over its best for sustain_order logs, growing to blowup_ratio x at the newest
    order = (c.values > p.order_ratio * best) & above_start
    k = len(order) - 1 - int(np.flatnonzero(~order)[-1]) if not order.all() else len(order)
    if k >= p.sustain_order and over[-1]:
        return k
    # compounding: sustain_climb logs in a row each climb_ratio x the one before, the newest order_ratio x its best
    m = p.sustain_climb
    v = c.values
    if len(v) > m and order[-1] and (v[-m:] >= p.climb_ratio * v[-m - 1:-1]).all() and (v[-m - 1:-1] > 0).all():
        return m
    # undone: the newest sustain_undone logs (sustain_share of the run) each order_ratio x its best, undone_ratio x
    # its start
    u = max(p.sustain_undone, int(p.sustain_share * len(v)))
    ref = min(start, float(c.first(1)[0]))
    if ref > 0 and len(v) > u and order[-u:].all() and (v[-u:] >= p.undone_ratio * ref).all():
        return u
    return 0


def other_losses(view: RunView) -> list[str]:
    """The run's losses beside its objective: its other train losses and its eval losses."""
    fr = view.frame
    return [n for n in fr.series if n != view.objective and (fr.roles[n].role == "train_loss" or (
        fr.roles[n].role == "eval" and fr.roles[n].direction == "min" and "loss" in n.lower()))]


def blown_up_beside(f: Finding) -> bool:
    """Whether ``f`` is ``_blown_up_beside``'s: another loss wrecked by orders of magnitude, the objective risen."""
    return f.signal == "divergence" and "other_best" in (f.numbers or {})


def _blown_up_beside(view: RunView, p: DivergenceParams) -> Finding | None:
    """Critical when another loss (an eval loss, a sibling train loss) blew up by orders of magnitude while the
    objective itself is at ``beside_ratio`` x its best and above its start: ``_blown_up`` on that loss (sustained), or
    its newest log and the objective's newest both at ``blowup_ratio`` x their best (two measurements of one model
    wrecked at once). An eval that blows up while the train loss holds stays a question (a broken eval split)."""
    c = view.curve
    if c is None or view.adversarial or not _is_loss(view) or view.direction != "min" or len(c.values) < 2:
        return None
    v = c.values
    pos = v[v > 0]
    if not len(pos):
        return None
    best, now, start = float(pos.min()), float(v[-1]), float(start_level(c))
    if not (now >= p.beside_ratio * best and now > start):
        return None
    for name in other_losses(view):
        s = view.frame.series[name]
        cx = make_curve(s, view.frame.summarised(name))
        xv = cx.values
        xpos = xv[xv > 0]
        if len(xv) < 2 or not len(xpos):
            continue
        xbest = float(xpos.min())
        sustained = _blown_up(cx, xbest, start_level(cx), p)
        at_once = xv[-1] >= p.blowup_ratio * xbest and now >= p.blowup_ratio * best
        if sustained or at_once:
            how = f"for {sustained} logs" if sustained else "on its newest log, as the objective's"
            return Finding("divergence", CRITICAL,
                           f"{name} blew up to {readable(float(xv[-1]), 4)} ({xv[-1] / xbest:.3g} times its best "
                           f"{xbest:.4g}) {how}, while {view.objective} rose to {readable(now, 4)} "
                           f"({now / best:.3g} times its best)",
                           [int(cx.steps[-max(1, sustained)]), int(c.steps[-1])],
                           nums(now=now, best=best, start=start, other_now=float(xv[-1]), other_best=xbest),
                           concern="divergence", sustained=True)
    return None


def _regime_noise(c: Curve, w: int, best_step: int, p: DivergenceParams) -> float:
    """The noise that matters here: the median of the whole curve's, the recent regime's and the best regime's
    (a past explosion must not make a lasting rise look like noise, nor one quiet stretch make noise look like a
    rise)."""
    if c.n < p.regime_min_points:
        return c.sigma
    k = max(p.regime_window_min, p.regime_window_w * w)
    # Trend-robust estimates on short windows: a regime that is still settling must not read as noise.
    recent = short_noise(c.values[-k:])
    around_best = c.noise_around(best_step, k)  # the regime that reached the best
    return float(np.median([c.sigma, recent, around_best]))


def _is_loss(view: RunView) -> bool:
    """Whether the objective is a loss (train loss, or an eval loss): the only curves divergence may stop a run on."""
    name = view.objective
    if name is None:
        return False
    role = view.frame.roles[name]
    return role.role == "train_loss" or (role.role == "eval" and "loss" in name.lower())


def level_curve(c: Curve, w: int) -> tuple[np.ndarray, np.ndarray]:
    """(steps, level): a rolling median over about ``w`` raw logs, on the block-median view of the curve."""
    block = max(1, round(c.n / max(1, len(c.b_values))))
    win = max(1, round(w / block))
    lv = pd.Series(c.b_values).rolling(win, min_periods=max(1, win // 2)).median().to_numpy()
    ok = np.isfinite(lv)
    return c.s_steps[ok], lv[ok]
