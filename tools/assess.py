"""assess_run: read what is new, measure every health signal, judge, store the assessment, answer small."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

import pandas as pd

from .config import Config
from .diagnosis import Diagnosis, DiagnosisDict, diagnose
from .encode import jnum
from .errors import BadInput, SourceUnreachable, TrainingCheckError
from .findings import CRITICAL, INFO, OK, WARN, Accepted, Finding, FindingDict
from .frame import MetricFrame
from .judge import CONTINUE, ESCALATE, STOP, UNREACHABLE, judge
from .reading import REMOTE_KINDS, load_run, loss_override, resolve_ref
from .signals import (
    chance_level,
    divergence,
    eval_health,
    grad_norm,
    loss_trend,
    lr_schedule,
    nonfinite,
    projection,
    spikes,
    staleness,
)
from .signals.view import RunView, build_view
from .sources.base import Progress
from .store import Store

RESPONSE_BUDGET = 2000  # bytes of JSON an assessment answer may take
HISTORY_CHECKS = 5  # earlier assessments the judge reads


class AssessmentAnswer(TypedDict):
    """An assess_run answer: the verdict and the findings behind it (the stored record holds more)."""

    assessment_id: str  # empty for UNREACHABLE: nothing was judged
    run: str
    verdict: str  # CONTINUE / STOP / ESCALATE / WAIT / UNREACHABLE
    summary: str
    concern: str | None
    progress: dict[str, Any]  # step, total_steps, fraction
    findings: list[FindingDict]  # every non-ok finding in full, then the ok ones as short notes
    source: str | None  # the kind of source read: wandb_api, wandb_local, log, tfevents
    fallback_reason: str | None  # why the fallback log was read instead of the W&B API
    diagnosis: NotRequired[DiagnosisDict]  # on STOP and ESCALATE: the probable cause, its events, what to change
    notes: NotRequired[list[str]]  # arguments ignored and why


@dataclass
class Assessment:
    assessment_id: str
    run: str
    run_key: str
    verdict: str
    summary: str
    concern: str | None
    findings: list[Finding]
    progress: dict
    source: dict = field(default_factory=dict)
    fallback_reason: str | None = None
    url: str | None = None
    key_metrics: dict = field(default_factory=dict)
    loss_checkpoints: list = field(default_factory=list)
    evals: dict = field(default_factory=dict)
    elapsed_s: float = 0.0
    diagnosis: Diagnosis | None = None
    notes: list[str] = field(default_factory=list)

    def record(self) -> dict:
        """Everything, as stored (the reviewer and the evidence read this)."""
        return {
            "assessment_id": self.assessment_id, "run": self.run, "run_key": self.run_key, "url": self.url,
            "verdict": self.verdict, "summary": self.summary, "concern": self.concern,
            "findings": [f.to_dict() for f in self.findings], "progress": self.progress, "source": self.source,
            "fallback_reason": self.fallback_reason, "key_metrics": self.key_metrics,
            "loss_checkpoints": self.loss_checkpoints, "evals": self.evals,
            "diagnosis": self.diagnosis.to_dict() if self.diagnosis else None, "notes": self.notes,
        }

    def to_dict(self, budget: int = RESPONSE_BUDGET) -> AssessmentAnswer:
        """The answer: every non-ok finding in full, ok and context ones as short notes, the diagnosis and the notes,
        within ``budget`` bytes of JSON. Room is made by shortening, never by leaving a finding without its words."""
        bad = [f.to_dict() for f in self.findings if f.status not in (OK, INFO)]
        ok: list[FindingDict] = [{"signal": f.signal, "status": f.status, "message": f.message}
                                 for f in self.findings if f.status in (OK, INFO)]
        out: AssessmentAnswer = {
            "assessment_id": self.assessment_id, "run": self.run, "verdict": self.verdict, "summary": self.summary,
            "concern": self.concern, "progress": self.progress, "findings": bad + ok,
            "source": self.source.get("kind"), "fallback_reason": self.fallback_reason,
        }
        if self.diagnosis is not None:
            out["diagnosis"] = self.diagnosis.to_dict()
        if self.notes:
            out["notes"] = [n[:200] for n in self.notes[:4]]

        def size() -> int:
            return len(json.dumps(out))

        if size() > budget:
            for f in ok:
                f["message"] = _cut(f["message"], 90)
        if size() > budget and self.diagnosis is not None:
            out["diagnosis"] = self.diagnosis.to_dict(events=5, actions=3, ruled_out=2, chars=150)
        if size() > budget and ok:
            names = ", ".join(f["signal"] for f in ok)
            note = _cut(f"left out for room: {names}", 200)
            out["findings"] = bad + [{"signal": "others", "status": INFO, "message": note}]
        if size() > budget:
            for f in out["findings"]:
                f.pop("numbers", None)
        if size() > budget and len(out["summary"]) > 300:
            out["summary"] = _cut(out["summary"], 300)
        concern = out["concern"]
        if size() > budget and concern and len(concern) > 300:
            out["concern"] = _cut(concern, 300)
        if size() > budget and self.diagnosis is not None:
            out["diagnosis"] = self.diagnosis.to_dict(events=3, actions=2, ruled_out=0, chars=120)
        for f in out["findings"]:
            if size() <= budget:
                break
            if "message" in f and len(f["message"]) > 160:
                f["message"] = _cut(f["message"], 160)
        return out


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 3].rstrip() + "..."


SIGNALS = (nonfinite.check, divergence.check, chance_level.check, loss_trend.check, spikes.check, eval_health.check,
           projection.check, lr_schedule.check, grad_norm.check, staleness.check)


def run_signals(view: RunView) -> list[Finding]:
    out: list[Finding] = []
    for signal in SIGNALS:
        r = signal(view)
        out.extend(r if isinstance(r, list) else [r])
    return out


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
                pre = build_view(cut, view.total_steps, [], None, view.baseline, view.config)
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


def ignored_arguments(baseline, expected: dict[str, pd.Series] | None, frame: MetricFrame, as_of_step: int | None,
                      total_steps: int | None) -> list[str]:
    """One note per argument (or part of one) the assessment could not use, saying why."""
    from .signals.view import choose_primary_eval

    notes: list[str] = []
    if isinstance(baseline, list) and expected and not choose_primary_eval(frame):
        notes.append(f"baseline: the run logs no eval metric, so the baseline was compared with the train loss "
                     f"{next(iter(expected))}")
    for metric, exp in (expected or {}).items():
        s = frame.series.get(metric)
        if s is None or not len(exp):
            continue
        st = s.index.to_numpy()
        lo, hi = int(exp.index[0]), int(exp.index[-1])
        if not len(st) or lo > int(st[-1]) or hi < int(st[0]):
            notes.append(f"baseline for {metric} ignored: its steps {lo}-{hi} do not overlap the run's logged steps "
                         f"{int(st[0]) if len(st) else '-'}-{int(st[-1]) if len(st) else '-'}")
    last = frame.last_step
    if as_of_step is not None and last is not None and as_of_step > last:
        notes.append(f"as_of_step {as_of_step} is past the last logged step {last}: judged at step {last}")
    if total_steps is not None and last is not None and total_steps < last:
        notes.append(f"total_steps {total_steps} is below the last logged step {last}: the run's progress and "
                     f"projection ignore it")
    return notes


def parse_baseline(baseline, frame: MetricFrame, *, store: Store, config: Config) -> dict[str, pd.Series] | None:
    """Expected values by step, per metric, from: {metric: {step: value}} / {metric: [[step, value], ...]} /
    [[step, value], ...] (the primary eval, else the train loss) / a JSON string of those / another run's reference."""
    if baseline in (None, "", {}):
        return None
    if isinstance(baseline, str):
        text = baseline.strip()
        if text[:1] in "{[":
            try:
                baseline = json.loads(text)
            except json.JSONDecodeError as e:
                raise BadInput(f"baseline is not valid JSON ({e.msg} at char {e.pos}): "
                               f"pass {{metric: [[step, value], ...]}}") from None
        else:
            try:
                ref = load_run(text, store=store, config=config)
            except TrainingCheckError as e:
                raise BadInput(f"baseline {text[:80]!r} is neither expected values ({{metric: [[step, value], ...]}}) "
                               f"nor a readable run: {e}") from None
            keys = [k for k in frame.series if k in ref.frame.series and frame.roles[k].role in ("eval", "train_loss")]
            if not keys:
                raise BadInput(f"baseline run {text} shares no loss/eval metric with this run")
            return {k: ref.frame.long_series(k).dropna() for k in keys}
    if isinstance(baseline, list):
        from .signals.view import choose_primary_eval

        target = choose_primary_eval(frame) or frame.primary_loss
        if not target:
            raise BadInput("baseline given as [[step, value], ...] but the run has no eval or loss metric to compare")
        baseline = {target: baseline}
    if not isinstance(baseline, dict):
        raise BadInput("baseline must be {metric: [[step, value], ...]}, a list of [step, value], or a run reference")
    out: dict[str, pd.Series] = {}
    for metric, points in baseline.items():
        try:
            pairs = sorted((int(k), float(v)) for k, v in (points.items() if isinstance(points, dict) else points))
        except (TypeError, ValueError):
            raise BadInput(f"baseline for {metric!r} must be [[step, value], ...] or {{step: value}}") from None
        name = metric if metric in frame.series else same_role_metric(metric, frame)
        if name is None:
            raise BadInput(f"baseline metric {metric!r} is not logged by this run; "
                           f"logged: {', '.join(list(frame.series)[:10])}")
        if pairs:
            out[name] = pd.Series([v for _, v in pairs], index=[s for s, _ in pairs], dtype=float)
    return out or None


def warning_kinds(findings: list[dict]) -> set[str]:
    kinds = (f.get("concern") or f.get("signal") for f in findings if f.get("status") in (WARN, CRITICAL))
    return {k for k in kinds if isinstance(k, str)}


def accepted_concerns(store: Store, run_key: str, as_of_step: int | None = None) -> Accepted | None:
    """The concerns a reviewer last judged acceptable (decision CONTINUE) for this run, if its latest review did."""
    for review in store.recent_reviews(run_key, 3):
        assessment = store.get_assessment(review.get("assessment_id") or "") if review.get("assessment_id") else None
        step = (assessment or {}).get("progress", {}).get("step")
        if as_of_step is not None and step is not None and step > as_of_step:
            continue
        if review.get("decision") != CONTINUE or assessment is None:
            return None
        return Accepted(tuple(sorted(warning_kinds(assessment.get("findings", [])))), step, review.get("review_id"))
    return None


def same_role_metric(metric: str, frame: MetricFrame) -> str | None:
    """The run's metric that plays the role a baseline's metric name implies (``val_loss`` for a run logging
    ``eval/loss``): the primary eval or train loss when the role matches, else the only metric of that role."""
    from .roles import infer_role
    from .signals.view import choose_primary_eval

    want = infer_role(metric)
    if want.role not in ("eval", "train_loss"):
        return None
    preferred = choose_primary_eval(frame) if want.role == "eval" else frame.primary_loss
    if preferred and frame.roles[preferred].direction == want.direction:
        return preferred
    same = [n for n, r in frame.roles.items() if r.role == want.role and r.direction == want.direction]
    return same[0] if len(same) == 1 else None


def _checkpoints(frame: MetricFrame, name: str | None, k: int) -> list[list]:
    if not name:
        return []
    s = frame.series[name].iloc[-k:]
    return [[int(i), jnum(v)] for i, v in zip(s.index, s.to_numpy(), strict=True)]


def _key_metrics(frame: MetricFrame, view: RunView) -> dict:
    out: dict = {"step": frame.last_step}
    loss = frame.primary_loss
    if loss:
        v = frame.series[loss].to_numpy()
        out["train_loss"] = {"name": loss, "last": jnum(v[-1]), "best": jnum(frame.finite_extreme(loss, "min"))}
    if view.primary_eval:
        s = frame.series[view.primary_eval]
        v = s.to_numpy()
        way = "max" if frame.roles[view.primary_eval].direction == "max" else "min"
        best = frame.finite_extreme(view.primary_eval, way)
        out["eval"] = {"name": view.primary_eval, "last": jnum(v[-1]), "best": jnum(best), "step": int(s.index[-1])}
    return out


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
        summary = f"UNREACHABLE: {e}"
        a = Assessment("", run, ref.key, UNREACHABLE, summary, None, [], {"step": None, "total_steps": total_steps},
                       url=ref.url, elapsed_s=time.perf_counter() - t0)
        a.assessment_id = store.add_assessment(ref.key, UNREACHABLE, None, a.record())
        return a
    frame = data.replay(as_of_step)  # a replay takes the full path: every raw point, cut at the step
    previous = store.recent_assessments(data.run_key, HISTORY_CHECKS)
    if as_of_step is not None:
        previous = [p for p in previous
                    if (p.get("progress") or {}).get("step") is None or p["progress"]["step"] <= as_of_step]
    previous = [p for p in previous if p.get("verdict") != UNREACHABLE]
    total = total_steps or data.info.total_steps
    if not total_steps and total and frame.last_step is not None and total < frame.last_step:
        total = None  # a length the source gave that the run already passed is not its planned length
    expected = parse_baseline(baseline, frame, store=store, config=config)
    view = build_view(frame, total, previous, data.new_points, expected, data.info.config)
    view.accepted = accepted_concerns(store, data.run_key, as_of_step)
    findings = run_signals(view)
    j = judge(findings, view)
    diagnosis = diagnose(view, findings, j.verdict) if j.verdict in (STOP, ESCALATE) else None
    if diagnosis is not None and diagnosis.onset_step is not None:
        findings = before_the_event(findings, view, diagnosis.onset_step)
    notes = ([data.chosen] if data.chosen else []) + ignored_arguments(baseline, expected, frame, as_of_step,
                                                                       total_steps)
    if fallback_log and ref.kind not in REMOTE_KINDS:
        notes.append(f"fallback_log is read only when the W&B API cannot be (or an MLflow server); {run} is not a "
                     f"W&B or MLflow server run: not read")
    step = frame.last_step
    prog = {"step": step, "total_steps": total,
            "fraction": jnum(view.fraction, 3) if view.fraction is not None else None}
    a = Assessment(
        "", run, data.run_key, j.verdict, j.summary, j.concern, findings, prog,
        source={"kind": data.source.kind, "description": data.source.description},
        fallback_reason=data.fallback_reason, url=data.info.url or ref.url,
        key_metrics=_key_metrics(frame, view),
        loss_checkpoints=_checkpoints(frame, frame.primary_loss or view.objective, 10),
        evals={e: _checkpoints(frame, e, 3) for e in frame.names("eval")[:6]}, diagnosis=diagnosis, notes=notes,
    )
    record = a.record()
    if j.reviewed:
        record["reviewed_concerns"] = j.reviewed
    if as_of_step is not None:
        record["as_of_step"] = as_of_step  # a replay: never authorises a stop (stop_run.check_authority)
    if baseline is not None:
        record["baseline"] = baseline if not isinstance(baseline, str) or len(baseline) < 2000 else baseline[:2000]
    a.elapsed_s = time.perf_counter() - t0
    a.assessment_id = store.add_assessment(data.run_key, j.verdict, step, record)
    return a
