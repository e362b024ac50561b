"""Divergence: the objective sustained well above its best level and not coming back.

"Well above" is measured against both the run's own noise and the progress it
had made (how far it had fallen from its start), so the rule is the same for a
loss of 10 or of 0.01. Single-batch spikes do not count: the level is a median.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..findings import CRITICAL, OK, WARN, Finding, nums
from .curve import Curve, mann_kendall_z, short_noise, theil_sen
from .view import RunView, recent_len


def check(view: RunView, min_points: int = 4, noise_k: float = 6.0, progress_share: float = 0.15,
          critical_progress_share: float = 0.35, sustain_share: float = 0.04, sustain_min: int = 10,
          massive: float = 4.0, sustain_massive: int = 5, rel_jump: float = 0.5, floor_k: float = 6.0,
          z_down: float = 3.0) -> Finding:
    """Warn when the recent median is above the best smoothed level by more than ``noise_k`` noise units and
    ``progress_share`` of the progress made; critical when that held over a long stretch or the level is above the
    start (sustained ``sustain_share`` of the run, at least ``sustain_min`` points)."""
    c = view.curve
    name = view.objective
    if c is None or c.n < min_points or view.adversarial:
        return Finding("divergence", OK, "not enough finite points to judge divergence" if c is not None and c.n < min_points
                       else "no objective curve to judge divergence" if c is None else f"{name} is an adversarial/RL loss: not judged for divergence")
    w = recent_len(c.n, lo=3)
    now = c.level(w)
    # The best level is measured like "now": a median over as many logs, so a lucky batch is not the bar.
    ss, sv = level_curve(c, w)
    start = float(np.median(c.first(max(3, min(10, c.n // 20)))))
    ib = int(np.argmin(sv))
    best, best_step = float(sv[ib]), int(ss[ib])
    progress = max(0.0, start - best)
    sigma = max(_regime_noise(c, w, best_step), 1e-12 * max(1.0, abs(best)))
    rise = now - best
    threshold = max(noise_k * sigma, progress_share * progress, 1e-9)
    if best > 0:
        # A level half again above the best is a real rise whatever the noise estimate says (short or trending
        # series inflate it) -- but never less than the noise of two medians of w noisy logs.
        threshold = max(min(threshold, rel_jump * best), floor_k * sigma / np.sqrt(w), 1.5 * sigma)
    sign = -1.0 if view.direction == "max" else 1.0
    shown = dict(now=sign * now, best=sign * best, best_step=best_step, start=sign * start, noise=sigma)
    if rise <= threshold:
        return Finding("divergence", OK, f"{name} is within noise of its best level ({sign * best:.4g} at step {best_step})",
                       [best_step, int(c.steps[-1])], nums(**shown))
    # How long has it been high? The logs since the last one at or below best + threshold/2 (the level view lags).
    last_below = c.last_at_or_below(best + 0.5 * threshold)
    first_above = last_below + 1 if last_below is not None else 0
    if first_above >= c.n:
        first_above = c.n - 1
    raw_since = c.step_after(first_above)
    n_raw_above = c.n - first_above
    recovering = theil_sen(c.steps[-w:], c.values[-w:]) < 0 and c.values[-1] < best + 0.5 * rise
    worse_than_start = progress > noise_k * sigma and now > start
    from_start_rising = progress <= noise_k * sigma and rise > 2 * threshold
    severity = rise / threshold
    # The bigger the rise, the fewer logs it takes to be sure it is not noise (but never fewer than sustain_massive).
    need = sustain_massive if severity >= massive else max(sustain_min, int(sustain_share * c.n), w)
    long_enough = n_raw_above >= need
    big = rise > max(critical_progress_share * progress, 2 * noise_k * sigma)
    shown.update(rise=rise, above_since=raw_since, points_above=n_raw_above, severity=severity)
    sustained_points = n_raw_above >= sustain_massive
    is_loss = _is_loss(view)
    # Coming down steadily after a jump (a curriculum or data-mix change, a spike being absorbed) is not clearly
    # bad: a significant fall over the recent logs turns a would-be STOP into a question for the reviewer.
    k = min(max(3 * w, 20), n_raw_above)
    half = k // 2  # still coming down: the newer half falls too (a fall that has ended is no recovery)
    coming_down = (k >= 20 and mann_kendall_z(c.values[-k:]) < -z_down and mann_kendall_z(c.values[-half:]) < -1.5
                   and theil_sen(c.steps[-half:], c.values[-half:]) < 0)
    if coming_down and not recovering:
        return Finding("divergence", WARN,
                       f"{name} jumped to above its best ({sign * now:.4g} vs {sign * best:.4g} at step {best_step}) "
                       f"and has been coming down since step {raw_since}",
                       [raw_since, int(c.steps[-1])], nums(**shown), concern="divergence" if is_loss else "objective_drop")
    if long_enough and not recovering and (big or worse_than_start or from_start_rising) and not is_loss:
        # A reward, accuracy or perplexity that fell back is worth a reviewer's look, not an automatic stop:
        # curricula and RL make such objectives move for reasons a loss does not.
        return Finding("divergence", WARN,
                       f"{name} fell back to {sign * now:.4g} from its best {sign * best:.4g} (step {best_step}), "
                       f"for {n_raw_above} logs since step {raw_since}",
                       [raw_since, int(c.steps[-1])], nums(**shown), concern="objective_drop")
    if long_enough and not recovering and (big or worse_than_start or from_start_rising):
        why = "above where it started" if worse_than_start else "rising since the start" if from_start_rising else \
            f"{rise / max(progress, 1e-12):.0%} of its progress lost"
        return Finding("divergence", CRITICAL,
                       f"{name} diverged: {sign * now:.4g} now vs best {sign * best:.4g} at step {best_step} ({why}), "
                       f"sustained for {n_raw_above} logs since step {raw_since}",
                       [raw_since, int(c.steps[-1])], nums(**shown), concern="divergence", sustained=True)
    return Finding("divergence", WARN,
                   f"{name} is {sign * now:.4g}, above its best {sign * best:.4g} (step {best_step}) by {rise:.3g} "
                   f"for {n_raw_above} logs{' and recovering' if recovering else ''}",
                   [raw_since, int(c.steps[-1])], nums(**shown), concern="divergence" if is_loss else "objective_drop",
                   sustained=sustained_points and is_loss,
                   fresh=recovering or (not long_enough and n_raw_above < 3))


def _regime_noise(c: Curve, w: int, best_step: int) -> float:
    """The noise that matters here: the median of the whole curve's, the recent regime's and the best regime's
    (a past explosion must not make a lasting rise look like noise, nor one quiet stretch make noise look like a rise)."""
    if c.n < 30:
        return c.sigma
    k = max(10, 3 * w)
    # Trend-robust estimates on short windows: a regime that is still settling must not read as noise.
    recent = short_noise(c.values[-k:])
    around_best = c.noise_around(best_step, k)  # the regime that reached the best
    return float(np.median([c.sigma, recent, around_best]))


def _is_loss(view: RunView) -> bool:
    """Whether the objective is a loss (train loss, or an eval loss): the only curves divergence may stop a run on."""
    role = view.frame.roles[view.objective]
    return role.role == "train_loss" or (role.role == "eval" and "loss" in view.objective.lower())


def level_curve(c: Curve, w: int) -> tuple[np.ndarray, np.ndarray]:
    """(steps, level): a rolling median over about ``w`` raw logs, on the block-median view of the curve."""
    block = max(1, round(c.n / max(1, len(c.b_values))))
    win = max(1, round(w / block))
    lv = pd.Series(c.b_values).rolling(win, min_periods=max(1, win // 2)).median().to_numpy()
    ok = np.isfinite(lv)
    return c.s_steps[ok], lv[ok]
