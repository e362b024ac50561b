"""The judge: findings (what was measured) -> a verdict (what to do). Kept apart from the signals.

- STOP: non-finite loss that persists, or divergence sustained over a long
  window by itself, or seen on two checks in a row (unless its newest logs are coming back down, log after log:
  ``_coming_back``). Never on one noisy point.
  In a run's first logs (fewer than ``CONFIRM_POINTS``, its start logged) a finite rise must be an order of
  magnitude (``ORDER`` x its best, in the objective or a sibling train loss) to STOP: a rise of a few x there is
  ESCALATE until more of the run confirms it (``_early_modest_rise``).
- ESCALATE: an ambiguous warning (plateau, overfitting, eval worse than the
  baseline, LR schedule oddity, exploding or vanishing gradients, instability).
- WAIT: too little data, or a fresh anomaly at the very end that may resolve.
- ESCALATE (divergence) on a young run: fewer than ``MIN_POINTS`` points, but the loss now sits at
  ``JUMP_FACTOR`` times its best so far (a short log that caught a spike or a divergence).
- ESCALATE (unreadable): no loss or eval metric found on ``UNREADABLE_CHECKS`` checks in a row
  (the log is in a shape the reader does not follow): the agent tells the user what was seen
  instead of waiting forever.
- CONTINUE: everything else.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .findings import CRITICAL, WARN, Finding
from .signals import run_end
from .signals.divergence import back_above_first, blown_up_beside
from .signals.view import RunView

CONTINUE, STOP, ESCALATE, WAIT, UNREACHABLE = "CONTINUE", "STOP", "ESCALATE", "WAIT", "UNREACHABLE"
UNREADABLE_CHECKS = 3  # this many checks in a row without a loss: tell the user instead of waiting on
NO_LOSS = "no loss or eval metric found"
JUMP_FACTOR = 1.5  # a young run's loss at this multiple of its best so far is worth a reviewer's look
UNRECOVERED_SHARE = 0.05  # a jumped loss still this share above its level before the jump has not come back
MIN_POINTS = 8  # below this many finite objective points, a run is too young to judge (except non-finite)
SELF_SUFFICIENT = {"divergence", "eval", "baseline", "lr_schedule", "grad_norm", "nonfinite", "chance_level"}
TWICE_STOPS = ("divergence", "chance_level")  # a sustained warning from these on two checks in a row stops the run
CONFIRM_POINTS = 16  # a run's first logs (fewer than this many points, its start logged): a rise there must be
ORDER = 10.0  # ...an order of magnitude (in the objective or a sibling train loss) to stop it by itself
CONFIRM_SHARE = 0.75  # ...or a divergence held over this share of the run's planned length (the run confirms it)
RISE_LOGS = 10  # a rise under the run's start stops on two checks in a row once held over this many logs


@dataclass
class Judgment:
    verdict: str
    summary: str
    concern: str | None = None
    reviewed: list[str] | None = None  # warning kinds a reviewer already judged acceptable (not anomalies any more)


COMING_BACK = 5  # the newest logs of a run whose sustained rise is coming back: none above the one before


def _coming_back(view: RunView, k: int = COMING_BACK) -> bool:
    """Whether the objective's newest ``k`` finite logs never rise and end below where they started: a run whose
    level rose (a warm-started annealing's exploration, a recovering loss) and is coming back down, log after log, is
    no divergence confirmed by a second check (``TWICE_STOPS``); a divergence that holds or goes on rising is."""
    c = view.curve
    if c is None or len(c.values) < k:
        return False
    last = c.values[-k:]
    return bool((np.diff(last) <= 0).all() and last[-1] < last[0])


def _rise_confirmed(f: Finding, logs: int = RISE_LOGS) -> bool:
    """Whether a sustained rise (a divergence warning's numbers) is confirmed enough for a second check to stop on:
    above where the run started, or held over ``logs`` logs. A loss that gave back part of its progress for a few logs
    (a contrastive loss 3.21 -> 3.45 after 3.68 at its start, 7 logs, its eval worse too, then falling again for the
    rest of the run) is a reviewer's question on both checks; one back above its start, or held, is no swing."""
    n = f.numbers or {}
    now, start, above = n.get("now"), n.get("start"), n.get("points_above")
    if not isinstance(now, (int, float)) or not isinstance(start, (int, float)) or not isinstance(above, (int, float)):
        return True
    return bool(now > start or above >= logs)


def _previous_flagged(view: RunView, signal: str) -> bool:
    """Whether the previous check (on older data) already saw a warning/critical from ``signal``."""
    for prev in view.previous[:1]:
        if prev.last_step is not None and view.last_step is not None and prev.last_step >= view.last_step:
            continue
        return prev.flagged(signal)
    return False


def _no_loss(findings: list[Finding], view: RunView, checks: int = UNREADABLE_CHECKS) -> Judgment:
    """WAIT while a run may not have logged its loss yet; ESCALATE as unreadable after ``checks`` checks in a row.

    The answer says what was seen: the metric names read (aliases where a name is not plain); a sample line of the
    log is run data, so it travels in read_metrics' ``run_data``, never in the summary or the concern.
    The escalation adds a ``readability`` finding with concern ``unreadable`` to ``findings``.
    """
    names = ", ".join(list(view.frame.series)[:8]) or "none"
    sample = view.config.get("log_sample_line") if isinstance(view.config, dict) else None
    seen = f"logged: {names}" + ("; read_metrics shows a sample line of the log in run_data" if sample else "")
    earlier = 0
    for prev in view.previous:
        if NO_LOSS not in prev.summary:
            break
        earlier += 1
    if earlier + 1 < checks:
        return Judgment(WAIT, f"WAIT: {NO_LOSS} yet ({seen})")
    msg = (f"{NO_LOSS} in {earlier + 1} checks in a row ({seen}): the log may be in a shape the reader does not "
           f"follow; tell the user, or name the loss with loss_metric (assess_run, read_metrics, check "
           f"--loss-metric, or the config)")
    findings.append(Finding("readability", WARN, msg, concern="unreadable"))
    return Judgment(ESCALATE, f"ESCALATE (unreadable): {msg}", f"unreadable: {msg}")


def _young_jump(view: RunView, factor: float = JUMP_FACTOR, late_start: float = 2.0,
                back_share: float = UNRECOVERED_SHARE) -> str | None:
    """With too few points for the trend signals, a loss that jumped to ``factor`` times its best so far (or more)
    is not something to wait on: a reviewer should look (a spike or a divergence caught in a short log). A jump
    counts while the loss is still there, or has come back only part way: the newest value is more than
    ``back_share`` above the best before the jump.
    Only for an established run: its first logged step is ``late_start`` times the logged span or more (a run's
    first steps swing as it warms up)."""
    if view.direction != "min" or view.adversarial or view.objective is None:
        return None
    s = view.frame.series[view.objective]
    v = s.to_numpy()
    ok = np.isfinite(v)
    v, st = v[ok], s.index.to_numpy()[ok]
    if len(v) < 2 or v[:-1].min() <= 0:
        return None
    if st[0] < late_start * max(1, st[-1] - st[0]):
        return None  # the run's first steps (warmup swings), not an established run caught in a short log
    best_before = np.minimum.accumulate(v)[:-1]  # best_before[i - 1]: the best up to point i - 1
    jumps = np.flatnonzero(v[1:] >= factor * best_before) + 1
    if not len(jumps):
        return None
    i = int(jumps[-1])
    j = int(np.argmin(v[:i]))
    if i == len(v) - 1:
        return (f"{view.objective} jumped to {v[-1]:.4g} at step {int(st[-1])} from {v[j]:.4g} at step {int(st[j])} "
                f"({v[-1] / v[j]:.1f}x) with only {len(v)} points logged: too few to judge the trend, worth a look")
    if v[-1] <= (1 + back_share) * v[j]:
        return None  # came back to where it was before the jump
    return (f"{view.objective} jumped to {v[i]:.4g} at step {int(st[i])} from {v[j]:.4g} at step {int(st[j])} "
            f"({v[i] / v[j]:.1f}x) and is still {v[-1]:.4g} at step {int(st[-1])} ({v[-1] / v[j] - 1:.0%} above its "
            f"level before the jump), with only {len(v)} points logged: too few to judge the trend, worth a look")


def _early_modest_rise(view: RunView, confirm: int = CONFIRM_POINTS, order: float = ORDER,
                       late_start: float = 2.0) -> bool:
    """Whether a finite rise is in a run's first logs and under an order of magnitude: fewer than ``confirm`` finite
    objective points with the run's start logged (its first step under ``late_start`` x the logged span), the
    objective under ``order`` x its best so far, and no other train loss at ``order`` x its best or non-finite.
    Losses that rise a few x over a run's first epochs and come back are common (a detector's assigner matching more
    anchors, a warmup): that is a question for a reviewer, not a STOP, until more of the run confirms it."""
    c = view.curve
    if c is None or c.n >= confirm or view.direction != "min" or c.n < 2:
        return False
    st = c.steps
    if st[0] >= late_start * max(1, st[-1] - st[0]):
        return False  # an established run caught in a short log: its rise is not the start's swing
    for name in {view.objective, *view.frame.names("train_loss")}:
        if name is None or name not in view.frame.series:
            continue
        v = view.frame.series[name].to_numpy(dtype=float)
        if (~np.isfinite(v)).any():
            return False
        if name != view.objective and len(v) and float(np.min(v)) == float(np.max(v)):
            continue  # a term that never moved (a regulariser logged at 0.000): it tells nothing of a rise
        best = float(np.min(v)) if len(v) else 0.0
        if best <= 0 or float(v[-1]) >= order * best:
            return False
    return True


def _held_over_plan(f: Finding, view: RunView, share: float = CONFIRM_SHARE) -> bool:
    """Whether a sustained divergence ``f`` has held over ``share`` of the run's planned length (``total_steps``,
    given or stated by the log): a run of few logs (an epoch a log, a dozen epochs) whose loss rose in its first
    epochs and stayed there for most of its planned run has been confirmed by the run itself, whatever its count of
    logs; a rise that comes back is no longer a sustained divergence. (Half the plan is too little: an RL run's TD
    loss, logged alone, climbs over two thirds of a healthy run.)"""
    total = view.total_steps
    if not total or total <= 0 or not f.sustained or not f.steps or len(f.steps) < 2:
        return False
    return (int(f.steps[-1]) - int(f.steps[0])) >= share * total


def judge(findings: list[Finding], view: RunView, min_points: int = MIN_POINTS) -> Judgment:
    """The verdict on ``findings``; a run whose log ends with an error (``signals/run_end.py``) judged by
    ``ended_with_error`` after the rest."""
    ends = [f for f in findings if f.signal == run_end.SIGNAL and f.status == WARN]
    if not ends:
        return _judge(findings, view, min_points)
    rest = [f for f in findings if all(f is not e for e in ends)]
    n = len(rest)
    j = _judge(rest, view, min_points)
    findings.extend(rest[n:])  # what the judge added (an unreadable log's finding, a young run's jump)
    return ended_with_error(j, ends, view)


def ended_with_error(j: Judgment, ends: list[Finding], view: RunView) -> Judgment:
    """A CONTINUE or a WAIT on a run whose log ends with an error is an ESCALATE (``run_ended_with_error``): the run
    is dead, which no healthy verdict may hide; not when the run had finished its planned length, nor for an end
    from outside its training (an interrupt), nor when a reviewer already accepted it (those keep their verdict,
    the finding says the end). A STOP or an ESCALATE stands: its finding says the end beside it."""
    f = next((f for f in ends if run_end.asks(f, view)), None)
    if f is None or j.verdict not in (CONTINUE, WAIT):
        return j
    acc = view.accepted
    if acc and run_end.CONCERN in acc.kinds:
        return j
    return Judgment(ESCALATE, f"ESCALATE ({run_end.CONCERN}): {f.message}", f.message)


def _judge(findings: list[Finding], view: RunView, min_points: int = MIN_POINTS) -> Judgment:
    crit = [f for f in findings if f.status == CRITICAL]
    warns = [f for f in findings if f.status == WARN]
    for f in crit:
        if f.signal in ("nonfinite", run_end.SIGNAL):
            return Judgment(STOP, f"STOP: {f.message}", f.message)
    early = _early_modest_rise(view)  # a rise in the run's first logs, under an order of magnitude: ESCALATE
    for f in crit:
        if f.signal == "divergence" and (not early or blown_up_beside(f) or back_above_first(f)
                                         or _held_over_plan(f, view)):
            # another loss wrecked, the loss back above its first log after halving, or the rise held over three
            # quarters of the planned run: no start's swing
            return Judgment(STOP, f"STOP: {f.message}", f.message)
    for f in warns:
        if f.signal in TWICE_STOPS and not f.fresh and f.sustained and _previous_flagged(view, f.signal) \
                and not early and not _coming_back(view) and _rise_confirmed(f):
            return Judgment(STOP, f"STOP: {f.message}, on two checks in a row", f.message)
    if view.objective is None:
        return _no_loss(findings, view)
    n = view.curve.n if view.curve else 0
    firm = [f for f in crit if f.signal == "divergence"] + [f for f in warns if not f.fresh]  # a held STOP asks
    if n < min_points:
        # Trend signals need points; the others (evals with their own patience, the LR schedule, gradient norms,
        # non-finite evals, a sustained rise) carry their own evidence and may speak early (epoch-level logs).
        firm = [f for f in firm if f.signal in SELF_SUFFICIENT]
        if not firm and not crit:
            jump = _young_jump(view)
            if jump is not None:
                findings.append(Finding("loss_jump", WARN, jump, concern="divergence"))
                return Judgment(ESCALATE, f"ESCALATE (divergence): {jump}", jump)
            return Judgment(WAIT, f"WAIT: only {n} finite {view.objective} points so far; need {min_points} to judge")
    if firm:
        concern = "; ".join(f.message for f in firm[:2])
        kind_set = {f.concern or f.signal for f in firm}
        kinds = ", ".join(sorted(kind_set))
        acc = view.accepted
        if acc and kind_set <= set(acc.kinds):
            # The reviewer already looked at exactly these concerns and said CONTINUE: say so, do not ask again
            # until something new or worse shows up.
            return Judgment(CONTINUE, f"CONTINUE: {kinds} seen again ({firm[0].message}); the reviewer judged it "
                            f"acceptable at step {acc.step} ({acc.review_id})", None, sorted(kind_set))
        return Judgment(ESCALATE, f"ESCALATE ({kinds}): {firm[0].message}", concern)
    fresh = [f for f in warns if f.fresh]
    if fresh:
        return Judgment(WAIT, f"WAIT: {fresh[0].message}; look again sooner")
    at = f" at step {view.last_step}" if view.last_step is not None else ""
    trend = next((f.message for f in findings if f.signal == "loss_trend"), "")
    return Judgment(CONTINUE, f"CONTINUE{at}: {trend}" if trend else f"CONTINUE{at}: healthy")
