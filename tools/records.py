"""Stored records, typed: what the store keeps as JSON, read once at the store boundary (``from_dict``) and written
once (``to_dict``), so the modules that use them read fields, not string keys.

The stored JSON is unchanged: ``from_dict`` accepts every record an earlier version wrote (a missing key reads
as its default) and ``to_dict`` writes the keys it always wrote. The store itself (``store.py``) stays untyped:
it keeps and returns dicts; these classes are the shapes the stop path (``stop_run.py``), the pacing
(``schedule.py``) and the staleness signal read and write.

- ``AssessmentRecord``: one stored assess_run answer (written by ``assess.py``).
- ``ReviewRecord``: one stored reviewer decision (written by ``reviewer/escalate.py``).
- ``ScheduleState``: a run's pacing state (``schedule.py``).
- ``StopPlanRecord`` / ``StopOutcomeRecord``: the stop evidence, saved before and after the signal
  (``stop_run.py``), read back by ``schedule.py`` to stop checking a stopped run.
- ``NamedTarget``: the stop target a person named for a run (``stop_target.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Protocol

from .errors import BadInput, TrainingCheckError
from .findings import CRITICAL, WARN


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class AssessmentRecord:
    """An assessment as the store gives it back (assess_run's stored answer)."""

    assessment_id: str | None
    run_key: str | None
    run: str | None
    verdict: str
    created_at: float | None
    as_of_step: int | None = None  # set on a replay: never authorises a stop
    summary: str = ""
    url: str | None = None
    step: Any = "?"  # progress.step as stored ("?" when the record has none)
    total_steps: Any = "?"
    key_metrics: dict = field(default_factory=dict)
    findings: tuple[dict, ...] = ()
    reviewed_concerns: tuple[str, ...] = ()  # warning kinds a reviewer already judged acceptable

    @classmethod
    def from_dict(cls, d: dict) -> AssessmentRecord:
        prog = d.get("progress") or {}
        return cls(d.get("assessment_id"), d.get("run_key"), d.get("run"), str(d.get("verdict") or ""),
                   d.get("created_at"), d.get("as_of_step"), str(d.get("summary") or ""), d.get("url"),
                   prog.get("step", "?"), prog.get("total_steps", "?"), dict(d.get("key_metrics") or {}),
                   tuple(d.get("findings") or ()), tuple(d.get("reviewed_concerns") or ()))

    @property
    def is_replay(self) -> bool:
        return self.as_of_step is not None

    @property
    def last_step(self) -> int | None:
        """The newest step the assessment saw, when it is a step number."""
        return _int_or_none(self.step)

    def flagged(self, signal: str) -> bool:
        """Whether this check saw a warning or critical finding from ``signal``."""
        return any(isinstance(f, dict) and f.get("signal") == signal and f.get("status") in (WARN, CRITICAL)
                   for f in self.findings)

    def unreviewed_warnings(self) -> list[dict]:
        """Its warn and critical findings, less those of a kind a reviewer already judged acceptable."""
        reviewed = set(self.reviewed_concerns)
        return [f for f in self.findings if f.get("status") in (WARN, CRITICAL)
                and (f.get("concern") or f.get("signal")) not in reviewed]


class _StoredAssessments(Protocol):
    def get_assessment(self, assessment_id: str) -> dict | None: ...


def stored_assessment(store: _StoredAssessments, assessment_id: str, run_key: str | None, *,
                      other_run: type[TrainingCheckError] = BadInput, outcome: str = "") -> dict:
    """The stored assessment ``assessment_id`` (of run ``run_key`` when given), as the store keeps it: the one
    lookup stop_run, reschedule and escalate_to_reviewer make. An unknown id is a BadInput; an assessment of another
    run raises ``other_run`` (stop_run refuses: StopRefused). ``outcome`` ends both messages (stop_run's "nothing
    was stopped")."""
    tail = f"; {outcome}" if outcome else ""
    found = store.get_assessment(assessment_id)
    if found is None:
        raise BadInput(f"unknown assessment_id {assessment_id[:80]!r}: pass the id an assess_run answer gave{tail}")
    if run_key is not None and found.get("run_key") != run_key:
        raise other_run(f"assessment {assessment_id!r} is of run {found.get('run_key')}, not {run_key}: pass an "
                        f"assessment of that run{tail}")
    return found


@dataclass(frozen=True)
class ReviewRecord:
    """A reviewer's decision as the store gives it back (escalate_to_reviewer's stored answer)."""

    review_id: str | None
    run_key: str | None
    assessment_id: str | None
    decision: str
    created_at: float | None
    model: str | None = None
    reason: str | None = None

    @classmethod
    def from_dict(cls, d: dict) -> ReviewRecord:
        return cls(d.get("review_id"), d.get("run_key"), d.get("assessment_id"), str(d.get("decision") or ""),
                   d.get("created_at"), d.get("model"), d.get("reason"))


@dataclass(frozen=True)
class ScheduleState:
    """A run's pacing state, as ``reschedule`` keeps it between checks (None: not known yet)."""

    rung: int | None = None  # the ladder's rung (-1 after a WAIT)
    interval: int | None = None  # minutes; None once the run is stopped
    cron: str | None = None
    assessment_id: str | None = None  # the assessment last rescheduled for
    awaiting_job_id: bool = False  # the last answer asked to create a job whose id is not known yet
    create_asked_at: str | None = None  # ISO 8601: when that job was asked for
    asked_cron: str | None = None  # and with which cron
    jobs_known: dict[str, dict] = field(default_factory=dict)  # job id -> {"cron", "since" (ISO 8601)}
    stopped: bool = False
    updated_at: str | None = None

    @classmethod
    def from_dict(cls, d: dict | None) -> ScheduleState:
        d = d or {}
        known = d.get("jobs_known")
        return cls(d.get("rung"), d.get("interval"), d.get("cron"), d.get("assessment_id"),
                   bool(d.get("awaiting_job_id")), d.get("create_asked_at"), d.get("asked_cron"),
                   dict(known) if isinstance(known, dict) else {}, bool(d.get("stopped")), d.get("updated_at"))

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


STOP_PLAN, STOP_OUTCOME = "stop_plan", "stop_outcome"  # the evidence kinds


@dataclass(frozen=True)
class StopPlanRecord:
    """The stop evidence saved BEFORE anything is signalled: who allowed it, why, and what will be stopped."""

    time: str = ""
    run: str = ""
    url: str | None = None
    allowed_by: str = ""
    reason: str = ""
    method: str = ""  # the mechanism (StopReport.method)
    target: str | None = None
    host: str | None = None
    plan: tuple[str, ...] = ()
    assessment_id: str | None = None
    verdict: str | None = None
    key_metrics: dict | None = None
    findings: tuple[dict, ...] | None = None
    review: dict | None = None  # {review_id, model, decision, reason}
    evidence_id: str | None = None  # given by the store
    created_at: float | None = None  # given by the store

    @classmethod
    def from_dict(cls, d: dict) -> StopPlanRecord:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})

    def to_dict(self) -> dict:
        return {"kind": STOP_PLAN, **{f.name: getattr(self, f.name) for f in fields(self)
                                      if f.name not in ("evidence_id", "created_at")}}


@dataclass(frozen=True)
class StopOutcomeRecord:
    """The stop evidence saved AFTER the signal: what happened."""

    plan_evidence_id: str | None = None
    stopped: bool = False
    final_state: str | None = None
    actions: tuple[str, ...] = ()
    elapsed_s: float | None = None
    method: str = ""
    target: str | None = None
    host: str | None = None
    evidence_id: str | None = None  # given by the store
    created_at: float | None = None  # given by the store

    @classmethod
    def from_dict(cls, d: dict) -> StopOutcomeRecord:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})

    def to_dict(self) -> dict:
        return {"kind": STOP_OUTCOME, **{f.name: getattr(self, f.name) for f in fields(self)
                                         if f.name not in ("evidence_id", "created_at")}}


@dataclass(frozen=True)
class NamedTarget:
    """The stop target a person named for a run (``training-check target``): later stops without a target use it."""

    target: str
    host: str | None = None  # None: this machine
    named_at: float = 0.0

    @classmethod
    def from_dict(cls, d: dict | None) -> NamedTarget | None:
        if not d or not isinstance(d.get("target"), str):
            return None
        host = d.get("host")
        return cls(d["target"], host if isinstance(host, str) else None, float(d.get("named_at") or 0.0))

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}
