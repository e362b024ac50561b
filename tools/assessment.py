"""The answer of one check: the verdict, the findings behind it, the diagnosis, progress and key numbers, stored
whole and answered within a budget."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

from .diagnosis import Diagnosis, DiagnosisDict
from .encode import jnum
from .findings import INFO, OK, Finding, FindingDict
from .frame import MetricFrame
from .judge import Judgment
from .reading import RunData
from .signals.view import RunView

RESPONSE_BUDGET = 2000  # bytes of JSON an assessment answer may take


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
    recheck: dict | None = None  # the steady mark stored with the record (tools/recheck.py), when there is one

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


def answer(run: str, data: RunData, view: RunView, j: Judgment, findings: list[Finding], diagnosis: Diagnosis | None,
           notes: list[str], url: str | None) -> Assessment:
    """The assessment of one check, from the view it judged (its progress, key numbers and checkpoints)."""
    frame = view.frame
    prog = {"step": frame.last_step, "total_steps": view.total_steps,
            "fraction": jnum(view.fraction, 3) if view.fraction is not None else None}
    return Assessment(
        "", run, data.run_key, j.verdict, j.summary, j.concern, findings, prog,
        source={"kind": data.source.kind, "description": data.source.description},
        fallback_reason=data.fallback_reason, url=data.info.url or url,
        key_metrics=_key_metrics(frame, view),
        loss_checkpoints=_checkpoints(frame, frame.primary_loss or view.objective, 10),
        evals={e: _checkpoints(frame, e, 3) for e in frame.names("eval")[:6]}, diagnosis=diagnosis, notes=notes,
    )
