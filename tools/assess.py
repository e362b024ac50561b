"""assess_run: one check of a run, orchestrated: read -> the run's view (built once, ``tools/run_view.py``) -> signals
(``tools/measure.py``) -> judge (``tools/judge.py``) -> diagnosis (``tools/diagnosis.py``) -> the answer, stored
(``tools/assessment.py``)."""

from __future__ import annotations

import time

from .assessment import RESPONSE_BUDGET, Assessment, AssessmentAnswer, answer
from .config import Config
from .diagnosis import diagnose
from .errors import BadInput, SourceUnreachable
from .judge import ESCALATE, STOP, UNREACHABLE, judge
from .measure import before_the_event, run_signals
from .reading import REMOTE_KINDS, RunData, load_run, loss_override, resolve_ref
from .recheck import derivable, inputs_key, is_steady, quick_mark
from .run_view import HISTORY_CHECKS, accepted_concerns, view_of_run
from .sources.base import Progress
from .store import Store

__all__ = ["HISTORY_CHECKS", "RESPONSE_BUDGET", "Assessment", "AssessmentAnswer", "accepted_concerns", "assess_run",
           "run_signals"]


def assess_run(run: str, *, store: Store, config: Config, fallback_log: str | None = None, baseline=None,
               total_steps: int | None = None, as_of_step: int | None = None,
               progress: Progress | None = None, role_overrides: dict[str, str] | None = None,
               loss_metric: str | None = None) -> Assessment:
    """Judge a run's health now (or as it stood at ``as_of_step``), store the assessment and return it.
    ``loss_metric``: the metric to judge as the loss (default: the config's, else the one named a loss)."""
    t0 = time.perf_counter()
    for name, value in (("total_steps", total_steps), ("as_of_step", as_of_step)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise BadInput(f"{name} must be a non-negative whole number, got {value!r}")
    ref = resolve_ref(run, config)
    try:
        data = load_run(run, store=store, config=config, fallback_log=fallback_log, progress=progress,
                        role_overrides=loss_override(role_overrides, loss_metric or config.loss_metric))
    except SourceUnreachable as e:
        a = Assessment("", run, ref.key, UNREACHABLE, f"UNREACHABLE: {e}", None, [],
                       {"step": None, "total_steps": total_steps}, url=ref.url, elapsed_s=time.perf_counter() - t0)
        a.assessment_id = store.add_assessment(ref.key, UNREACHABLE, None, a.record())
        return a
    return judge_read(run, data, store=store, config=config, fallback_log=fallback_log, baseline=baseline,
                      total_steps=total_steps, as_of_step=as_of_step, t0=t0)


def judge_read(run: str, data: RunData, *, store: Store, config: Config, fallback_log: str | None = None,
               baseline=None, total_steps: int | None = None, as_of_step: int | None = None,
               t0: float | None = None) -> Assessment:
    """``assess_run`` after the read: judge ``data``, store the assessment and return it."""
    t0 = time.perf_counter() if t0 is None else t0
    ref = data.ref
    view = view_of_run(data, store=store, config=config, baseline=baseline, total_steps=total_steps,
                       as_of_step=as_of_step)
    findings = run_signals(view)
    j = judge(findings, view)
    diagnosis = diagnose(view, findings, j.verdict) if j.verdict in (STOP, ESCALATE) else None
    if diagnosis is not None and diagnosis.onset_step is not None:
        findings = before_the_event(findings, view, diagnosis.onset_step)
    notes = ([data.chosen] if data.chosen else []) + list(view.notes)
    if fallback_log and ref.kind not in REMOTE_KINDS:
        notes.append(f"fallback_log is read only when the W&B API cannot be (or an MLflow server); {run} is not a "
                     f"W&B or MLflow server run: not read")
    a = answer(run, data, view, j, findings, diagnosis, notes, ref.url)
    record = a.record()
    if j.reviewed:
        record["reviewed_concerns"] = j.reviewed
    if as_of_step is not None:
        record["as_of_step"] = as_of_step  # a replay: never authorises a stop (stop_run.check_authority)
    if baseline is not None:
        record["baseline"] = baseline if not isinstance(baseline, str) or len(baseline) < 2000 else baseline[:2000]
    if as_of_step is None and baseline is None and not fallback_log and is_steady(
            data, j.verdict, j.summary, view.previous[0].last_step if view.previous else None, view.last_step):
        record["recheck"] = a.recheck = {
            "steady": True, "key": inputs_key(data, store=store, config=config, total_steps=total_steps),
            "quick": quick_mark(data, store=store, config=config, total_steps=total_steps)}
    elif as_of_step is None and baseline is None and not fallback_log and data.new_points \
            and derivable(j.verdict, j.summary):  # the next check on nothing new takes it (recheck.derived_record)
        record["recheck"] = a.recheck = {
            "steady": False, "key": inputs_key(data, store=store, config=config, total_steps=total_steps),
            "quick": quick_mark(data, store=store, config=config, total_steps=total_steps)}
    a.elapsed_s = time.perf_counter() - t0
    a.assessment_id = store.add_assessment(data.run_key, j.verdict, view.last_step, record)
    return a
