"""Learning-rate schedule: warmup ends, no unexpected zeros or jumps, no rise after warmup unless cyclic.

A schedule is judged only against itself (and ``warmup_steps`` when the config
names it): sudden factor changes are what a broken schedule looks like.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..findings import OK, WARN, Finding, nums
from .params import Params, bound
from .view import RunView


@dataclass(frozen=True)
class LrScheduleParams(Params):
    jump_factor: float = bound(3.0, 1.0, above=True)  # a one-log rise by more than this after warmup is a jump...
    restart_share: float = bound(1.5, 1.0)  # ...unless it restarts at most this many times the earlier peak (cyclic)
    zero_share: float = bound(0.01, 0.0, 1.0, above=True)  # an LR below this share of its peak is ~0...
    abrupt_k: float = bound(10.0, 1.0)  # ...reached abruptly: from above abrupt_k x zero_share of the peak...
    drop_factor: float = bound(10.0, 1.0)  # ...falling by more than this factor in one log...
    late_share: float = bound(0.9, 0.0, 1.0)  # ...before this share of the run
    dead_share: float = bound(1e-3, 0.0, 1.0, above=True)  # an LR below this share of its peak is zero...
    early_zero_share: float = bound(0.5, 0.0, 1.0)  # ...reached before this share of the run...
    zero_span_share: float = bound(0.2, 0.0, 1.0)  # ...or (run length unknown) held for this share of the steps...
    zero_min_points: int = bound(10, 1)  # ...and this many logs
    warmup_max_share: float = bound(0.3, 0.0, 1.0)  # warmup still going after this share of the run
    warmup_rising_share: float = bound(0.9, 0.0, 1.0)  # a warmup: more than this share of the steps do not fall
    warmup_config_k: float = bound(2.0, 1.0)  # still rising at this many times the config's warmup_steps
    min_points: int = bound(5, 2)  # learning-rate points before the schedule is judged
    past_best_factor: float = bound(3.0, 1.0, above=True)  # a rising LR this many times its value at the loss's best
    past_best_noise_k: float = bound(3.0, 0.0)  # ...with the loss now this many noise units (of a w-log mean) above
    past_best_min_points: int = bound(20, 4)  # ...judged on at least this many loss points


DEFAULT = LrScheduleParams()


def check(view: RunView, p: LrScheduleParams = DEFAULT) -> Finding:
    """Warn on an LR rise by more than ``jump_factor`` after the peak (unless the schedule cycles), an LR that drops
    to ~0 (< ``zero_share`` of peak) abruptly, an LR at zero (< ``dead_share`` of peak) before ``early_zero_share``
    of the run (or for the last fifth of the logs), or warmup still going after ``warmup_max_share`` of the run."""
    name = view.frame.first_of("lr")
    if not name:
        return Finding("lr_schedule", OK, "no learning rate logged")
    hist = view.frame.summarised(name)
    if hist is not None:
        return _from_schedule(view, name, hist, p)
    s = view.frame.series[name]
    v = s.to_numpy()
    steps = s.index.to_numpy()
    fin = np.isfinite(v)
    v, steps = v[fin], steps[fin]
    if len(v) < p.min_points:
        return Finding("lr_schedule", OK, f"{len(v)} learning-rate points so far")
    peak_i = int(np.argmax(v))
    peak = float(v[peak_i])
    if peak <= 0:
        return Finding("lr_schedule", WARN, f"{name} is {peak:g} throughout: nothing is being learned",
                       [int(steps[0]), int(steps[-1])], nums(peak=peak), concern="lr_schedule")
    # Warmup ends at the first point that does not rise; after that, a one-step rise of more than jump_factor is a
    # jump, unless it only restarts the schedule at (about) its earlier peak, as cyclic / warm-restart schedules do.
    d = np.diff(v)
    nonrise = np.flatnonzero(d <= 0)
    warm_end = int(nonrise[0]) if len(nonrise) else len(v) - 1
    prev = v[:-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(prev > 0, v[1:] / prev, np.where(v[1:] > 0, np.inf, 1.0))
    info = nums(peak=peak, peak_step=int(steps[peak_i]), last=float(v[-1]))
    restarts = 0
    for j in np.flatnonzero(ratio > p.jump_factor):
        i = int(j) + 1
        if i <= warm_end:
            continue
        earlier_peak = float(v[:i].max())
        if v[i] <= p.restart_share * earlier_peak:
            restarts += 1
            continue
        return Finding("lr_schedule", WARN,
                       f"{name} jumped {v[i] / max(v[i - 1], 1e-30):.3g}x at step {int(steps[i])} "
                       f"({v[i - 1]:.3g} -> {v[i]:.3g}), "
                       f"above its earlier peak {earlier_peak:.3g}",
                       [int(steps[i - 1]), int(steps[i])], {**info, **nums(jump=float(v[i] / max(v[i - 1], 1e-30)))},
                       concern="lr_schedule")
    cyclic = restarts >= 1
    # Abrupt drop to ~zero before the schedule's end.
    frac = view.fraction
    zero = np.flatnonzero(v <= p.zero_share * peak)
    zero = zero[zero > peak_i]
    if len(zero):
        z = int(zero[0])
        drop = v[z - 1] / max(v[z], 1e-30) if z > 0 else 1.0
        abrupt = z > 0 and v[z - 1] > p.abrupt_k * p.zero_share * peak
        if abrupt and z >= 2 and _continues_decay(int(steps[z - 2]), float(v[z - 2]), int(steps[z - 1]),
                                                  float(v[z - 1]), int(steps[z]), float(v[z])):
            abrupt = False
        if abrupt and (frac is None or frac < p.late_share) and drop > p.drop_factor:
            return Finding("lr_schedule", WARN,
                           f"{name} dropped abruptly to {v[z]:.3g} at step {int(steps[z])} (peak {peak:.3g})",
                           [int(steps[z - 1]), int(steps[z])], info, concern="lr_schedule")
    # A schedule that has already reached zero (not a step decay's small last stage) with most of the run to go.
    dead = np.flatnonzero(v <= p.dead_share * peak)
    dead = dead[dead > peak_i]
    if len(dead) and v[-1] <= p.dead_share * peak:
        z = int(dead[0])
        z_frac = steps[z] / view.total_steps if view.total_steps else None
        long_zero = (steps[-1] - steps[z]) >= max(p.zero_span_share * steps[-1], 1) and len(v) - z >= p.zero_min_points
        if (z_frac is not None and z_frac < p.early_zero_share) or (z_frac is None and long_zero):
            where = f"at {z_frac:.0%} of the run" if z_frac is not None else f"{len(v) - z} logs ago"
            return Finding("lr_schedule", WARN,
                           f"{name} reached ~0 ({v[z]:.3g}, peak {peak:.3g}) {where} and stays there: the schedule "
                           f"ended long before the run (a per-epoch schedule stepped per iteration?)",
                           [int(steps[z]), int(steps[-1])], info, concern="lr_schedule")
    # Warmup that never ends.
    warmup_steps = _config_warmup(view)
    if peak_i == len(v) - 1 and _is_warmup(v, p.warmup_rising_share):
        if warmup_steps and steps[-1] > p.warmup_config_k * warmup_steps:
            return Finding("lr_schedule", WARN,
                           f"{name} still rising at step {int(steps[-1])}, past warmup_steps={warmup_steps}",
                           [int(steps[0]), int(steps[-1])], info, concern="lr_schedule")
        if frac is not None and frac > p.warmup_max_share:
            return Finding("lr_schedule", WARN, f"{name} still warming up at {frac:.0%} of the run",
                           [int(steps[0]), int(steps[-1])], info, concern="lr_schedule")
    if peak_i == len(v) - 1 and _is_warmup(v, p.warmup_rising_share):
        past = _rising_past_best(view, v, steps, p)
        if past is not None:
            return Finding("lr_schedule", WARN, past, [int(steps[0]), int(steps[-1])], info, concern="lr_schedule")
    shape = "cyclic" if cyclic else "warming up" if peak_i == len(v) - 1 else "decaying" if v[-1] < peak else "constant"
    return Finding("lr_schedule", OK, f"{name} schedule looks {shape} (peak {peak:.3g}, now {v[-1]:.3g})",
                   [int(steps[0]), int(steps[-1])], info)


def _rising_past_best(view: RunView, v: np.ndarray, steps: np.ndarray, p: LrScheduleParams) -> str | None:
    """Why a still-rising LR is a warmup that never ends: it is ``past_best_factor`` x its value where the objective
    (a loss) was at its best level, and the objective is now above that level by ``past_best_noise_k`` noise units
    (the LR kept rising past what the model takes: ``lr * step / warmup`` without ``min(1, .)``)."""
    c = view.curve
    if c is None or view.adversarial or view.direction != "min" or len(c.values) < p.past_best_min_points:
        return None
    w = max(3, min(25, len(c.values) // 20))
    lv = np.convolve(c.values, np.ones(w) / w, mode="valid")
    ib = int(np.argmin(lv)) + w - 1
    best, best_step = float(lv[ib - w + 1]), int(c.steps[ib])
    now = float(np.median(c.values[-w:]))
    if now <= best + max(p.past_best_noise_k * c.sigma / np.sqrt(w), 0.02 * abs(best)):
        return None
    at = np.flatnonzero(steps <= best_step)
    if not len(at) or v[at[-1]] <= 0 or v[-1] < p.past_best_factor * v[at[-1]]:
        return None
    lr_best = float(v[at[-1]])
    return (f"{view.frame.first_of('lr')} still rising at step {int(steps[-1])}: {v[-1]:.3g}, "
            f"{v[-1] / lr_best:.2g}x its value {lr_best:.3g} at step {best_step}, where {view.objective} was at its "
            f"best ({best:.4g}; {now:.4g} now): a warmup that never ends (no min(1, step / warmup))?")


def _continues_decay(s2: int, v2: float, s1: int, v1: float, s0: int, v0: float) -> bool:
    """Whether the fall v1 -> v0 only goes on at the pace of the fall v2 -> v1 before it (a linear decay's last
    stretch to ~0 looks like a 25x drop in one log, and is none)."""
    if not (s2 < s1 < s0) or not v2 > v1 > v0:
        return False
    pace = (v2 - v1) / (s1 - s2)
    return (v1 - v0) <= 1.5 * pace * (s0 - s1)


def _is_warmup(v: np.ndarray, rising_share: float) -> bool:
    d = np.diff(v)
    return bool(len(d) and (d >= 0).mean() > rising_share and v[-1] > v[0])


def _config_warmup(view: RunView) -> int | None:
    cfg = view.config
    for k in ("warmup_steps", "lr_warmup_steps", "num_warmup_steps", "warmup_iters"):
        if isinstance(cfg.get(k), (int, float)) and cfg[k] > 0:
            return int(cfg[k])
    return None


def _from_schedule(view: RunView, name: str, hist, p: LrScheduleParams) -> Finding:
    """``check`` for a long LR series, from its exact running facts (tools/history.py ``Schedule``), which hold the
    same events the full-series rules find (with the default thresholds)."""
    sch = hist.schedule
    n, peak, last = sch.n, sch.peak, sch.last
    if n < p.min_points:
        return Finding("lr_schedule", OK, f"{n} learning-rate points so far")
    first_step, last_step = int(hist.head_steps[0]), sch.last_step
    if peak <= 0:
        return Finding("lr_schedule", WARN, f"{name} is {peak:g} throughout: nothing is being learned",
                       [first_step, last_step], nums(peak=peak), concern="lr_schedule")
    info = nums(peak=peak, peak_step=sch.peak_step, last=float(last))
    if sch.jump is not None:
        _, s0, s1, v0, v1, earlier_peak = sch.jump
        return Finding("lr_schedule", WARN,
                       f"{name} jumped {v1 / max(v0, 1e-30):.3g}x at step {s1} ({v0:.3g} -> {v1:.3g}), "
                       f"above its earlier peak {earlier_peak:.3g}",
                       [s0, s1], {**info, **nums(jump=float(v1 / max(v0, 1e-30)))}, concern="lr_schedule")
    cyclic = sch.restarts >= 1
    frac = view.fraction
    if sch.zero is not None:
        _, s0, s1, v0, v1 = sch.zero[:5]
        drop = v0 / max(v1, 1e-30)
        abrupt = v0 > p.abrupt_k * sch.ZERO * peak
        if abrupt and len(sch.zero) >= 7 and sch.zero[5] is not None:
            abrupt = not _continues_decay(int(sch.zero[5]), float(sch.zero[6]), s0, v0, s1, v1)
        if abrupt and (frac is None or frac < p.late_share) and drop > p.drop_factor:
            return Finding("lr_schedule", WARN, f"{name} dropped abruptly to {v1:.3g} at step {s1} (peak {peak:.3g})",
                           [s0, s1], info, concern="lr_schedule")
    if sch.dead is not None and last <= sch.DEAD * peak:
        z, sz, vz = sch.dead
        z_frac = sz / view.total_steps if view.total_steps else None
        long_zero = (last_step - sz) >= max(p.zero_span_share * last_step, 1) and n - z >= p.zero_min_points
        if (z_frac is not None and z_frac < p.early_zero_share) or (z_frac is None and long_zero):
            where = f"at {z_frac:.0%} of the run" if z_frac is not None else f"{n - z} logs ago"
            return Finding("lr_schedule", WARN,
                           f"{name} reached ~0 ({vz:.3g}, peak {peak:.3g}) {where} and stays there: the schedule "
                           f"ended long before the run (a per-epoch schedule stepped per iteration?)",
                           [sz, last_step], info, concern="lr_schedule")
    warmup_steps = _config_warmup(view)
    warming = sch.peak_i == n - 1
    if warming and n > 1 and sch.n_nonneg / (n - 1) > p.warmup_rising_share and last > sch.v0:
        if warmup_steps and last_step > p.warmup_config_k * warmup_steps:
            return Finding("lr_schedule", WARN,
                           f"{name} still rising at step {last_step}, past warmup_steps={warmup_steps}",
                           [first_step, last_step], info, concern="lr_schedule")
        if frac is not None and frac > p.warmup_max_share:
            return Finding("lr_schedule", WARN, f"{name} still warming up at {frac:.0%} of the run",
                           [first_step, last_step], info, concern="lr_schedule")
    shape = "cyclic" if cyclic else "warming up" if warming else "decaying" if last < peak else "constant"
    return Finding("lr_schedule", OK, f"{name} schedule looks {shape} (peak {peak:.3g}, now {last:.3g})",
                   [first_step, last_step], info)
