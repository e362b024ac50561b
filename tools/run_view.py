"""The run as one check judges it, built in one place: the read cut at ``as_of_step`` -> ``RunView`` (objective,
primary eval, baseline series, accepted concerns, planned length, progress, earlier assessments), with a note for
every argument the check could not use. Signals, judge and diagnosis read the view; nothing recomputes the primary
eval or parses the baseline again."""

from __future__ import annotations

import json

import pandas as pd

from .config import Config
from .errors import BadInput, TrainingCheckError
from .findings import CRITICAL, WARN, Accepted
from .frame import MetricFrame
from .judge import CONTINUE, UNREACHABLE
from .reading import RunData, load_run
from .roles import infer_role
from .signals.view import RunView, build_view
from .store import Store

HISTORY_CHECKS = 5  # earlier assessments the judge reads


def view_of_run(data: RunData, *, store: Store, config: Config, baseline=None, total_steps: int | None = None,
                as_of_step: int | None = None) -> RunView:
    """The view of ``data`` as it stood at ``as_of_step`` (a replay takes every raw point, cut at the step)."""
    frame = data.replay(as_of_step)
    previous = store.recent_assessments(data.run_key, HISTORY_CHECKS)
    if as_of_step is not None:
        previous = [p for p in previous
                    if (p.get("progress") or {}).get("step") is None or p["progress"]["step"] <= as_of_step]
    previous = [p for p in previous if p.get("verdict") != UNREACHABLE]
    view = build_view(frame, planned_length(total_steps, data.info.total_steps, frame.last_step), previous,
                      data.new_points, None, data.info.config)
    view.baseline = parse_baseline(baseline, frame, view.primary_eval, store=store, config=config)
    view.accepted = accepted_concerns(store, data.run_key, as_of_step)
    last = data.frame.last_step
    if as_of_step is None or last is None or as_of_step >= last:
        view.ended = data.info.ended  # a replay before the run's last step is before its end
    view.notes = view.notes + ignored_arguments(baseline, view.baseline, frame, view.primary_eval, as_of_step,
                                                total_steps)
    return view


def planned_length(given: int | None, stated: int | None, last_step: int | None) -> int | None:
    """The run's planned length: the one given, else the one its source states unless the run already passed it."""
    if given:
        return given
    if stated and last_step is not None and stated < last_step:
        return None  # a length the source gave that the run already passed is not its planned length
    return stated


def ignored_arguments(baseline, expected: dict[str, pd.Series] | None, frame: MetricFrame, primary_eval: str | None,
                      as_of_step: int | None, total_steps: int | None) -> list[str]:
    """One note per argument (or part of one) the assessment could not use, saying why."""
    notes: list[str] = []
    if isinstance(baseline, list) and expected and not primary_eval:
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


def parse_baseline(baseline, frame: MetricFrame, primary_eval: str | None, *, store: Store,
                   config: Config) -> dict[str, pd.Series] | None:
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
        target = primary_eval or frame.primary_loss
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
        name = metric if metric in frame.series else same_role_metric(metric, frame, primary_eval)
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


def same_role_metric(metric: str, frame: MetricFrame, primary_eval: str | None) -> str | None:
    """The run's metric that plays the role a baseline's metric name implies (``val_loss`` for a run logging
    ``eval/loss``): the primary eval or train loss when the role matches, else the only metric of that role."""
    want = infer_role(metric)
    if want.role not in ("eval", "train_loss"):
        return None
    preferred = primary_eval if want.role == "eval" else frame.primary_loss
    if preferred and frame.roles[preferred].direction == want.direction:
        return preferred
    same = [n for n, r in frame.roles.items() if r.role == want.role and r.direction == want.direction]
    return same[0] if len(same) == 1 else None
