"""Every health signal measured on a run's view; on a verdict's event, the ok findings measured again on the run
before it (so none reads as a contradiction of the verdict)."""

from __future__ import annotations

from collections.abc import Callable

from .findings import INFO, OK, Finding
from .signals import (
    chance_level,
    divergence,
    eval_health,
    grad_norm,
    loss_trend,
    lr_schedule,
    nonfinite,
    projection,
    run_end,
    spikes,
    staleness,
)
from .signals.view import RunView, build_view

SIGNALS = (nonfinite.check, divergence.check, chance_level.check, loss_trend.check, spikes.check, eval_health.check,
           projection.check, lr_schedule.check, grad_norm.check, staleness.check, run_end.check)


def run_signals(view: RunView) -> list[Finding]:
    out: list[Finding] = []
    for signal in SIGNALS:
        r = signal(view)
        out.extend(r if isinstance(r, list) else [r])
    return run_end.amend(out)


CONTEXT: dict[str, Callable[[RunView], Finding | list[Finding]]] = {
    "loss_trend": loss_trend.check, "eval": eval_health.check, "grad_norm": grad_norm.check,
    "spikes": spikes.check, "divergence": divergence.check, "chance_level": chance_level.check}
DROPPED_AT_EVENT = ("projection",)  # a projection across the event says nothing: left out


def before_the_event(findings: list[Finding], view: RunView, onset: int) -> list[Finding]:
    """An ok finding whose window reaches the verdict's event (at ``onset``) would read as a contradiction of the
    verdict: a judging signal is measured again on the run up to the step before the onset and kept as context
    (status info, "before step N: ..."); a description (the LR schedule's shape) becomes context as it is; a
    projection across the event is left out."""
    out: list[Finding] = []
    pre: RunView | None = None
    tried = False
    for f in findings:
        overlaps = f.status == OK and f.steps is not None and f.steps[-1] >= onset
        if not overlaps:
            out.append(f)
            continue
        if f.signal in DROPPED_AT_EVENT:
            continue
        if f.signal not in CONTEXT:  # a description (the LR schedule's shape), not a judgment: context, not ok
            out.append(Finding(f.signal, INFO, f.message, f.steps, f.numbers))
            continue
        if not tried:
            tried = True
            # a long run's older points are summarised: cutting it would rebuild its history from every raw point,
            # so its findings are kept as context with their own window instead (the check's cost stays flat)
            long_run = any(h.summarised for h in view.frame.history.values())
            cut = None if long_run else view.frame.upto(onset - 1)
            if cut is not None and cut.series:
                pre = build_view(cut, view.total_steps, [], None, view.baseline, view.config,
                                 primary_eval=view.primary_eval)
        again = None
        if pre is not None:
            r = CONTEXT[f.signal](pre)
            again = next((g for g in (r if isinstance(r, list) else [r]) if g.signal == f.signal), None)
        if again is not None and again.status == OK:
            out.append(Finding(f.signal, INFO, f"before step {onset}: {again.message}", again.steps, again.numbers))
        elif again is not None:
            out.append(Finding(f.signal, INFO, f"before step {onset} already: {again.message}", again.steps,
                               again.numbers, again.concern))
        else:
            out.append(Finding(f.signal, INFO, f"{f.message} (over a window that reaches the event at step {onset})",
                               f.steps, f.numbers))
    return out
