"""stop_run: stop a training run, guarded by a recent STOP verdict, with the evidence saved first.

The rule: a recent (``max_age_h``) STOP assessment or STOP review of THIS run, or ``force`` with a
reason; a review overrides the assessment it reviewed (a STOP assessment with a CONTINUE review is
refused). Evidence (store row + markdown file) is written before anything is signalled; the outcome
is appended to both afterwards. ``dry_run`` checks everything and returns the plan but writes no
evidence and signals nothing (read-only look-ups, such as whether the PID exists, still happen).
Targets: ``pid:N`` / ``N``, ``pidfile:/path``, ``cmd:<exact command line>``, ``slurm:<job>``,
``tmux:<session>``, ``wandb``; ``host`` (``user@host:port`` or an ssh alias) runs it over SSH, ``None``
on this machine. For an ssh:// run a process target needs ``host`` (the run's host, or ``local``).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from . import stop_target
from .config import Config
from .errors import BadInput, StopRefused, StoreError
from .judge import STOP, UNREACHABLE
from .records import (
    AssessmentRecord,
    ReviewRecord,
    ScheduleState,
    StopOutcomeRecord,
    StopPlanRecord,
    stored_assessment,
)
from .redact import redact
from .runref import RunRef, parse_run_ref
from .stoppers import binding, slurm, tmux
from .stoppers.base import Stopper, StopPlan
from .stoppers.factory import make_stopper
from .stoppers.outcome import StopOutcome
from .stoppers.processes import LocalProcesses
from .store import Store

# Three things are kept apart: the ``method`` ARGUMENT of the tool (one of METHOD_CHOICES: which kind of target, or
# "auto" to tell from the target), the target KIND it resolves to (pid, pidfile, cmd, slurm, tmux, wandb), and the
# MECHANISM that stops it (StopPlan.mechanism: "signal (pid)", "slurm", "tmux", "wandb"; StopReport.method on the wire).
METHOD_CHOICES = ("auto", "wandb", "pid", "pidfile", "cmd", "slurm", "tmux")
PREFIXED_KINDS = ("pid", "pidfile", "cmd", "slurm", "tmux")  # kinds written as a target prefix: pid:123, tmux:name
LOCAL_HOSTS = ("local",)
MAX_REASON = 4000


@dataclass
class StopReport:
    """What stop_run did (or, for a dry run, would do)."""

    run: str
    run_key: str
    method: str  # the mechanism used (StopPlan.mechanism): "signal (pid)", "slurm", "tmux", "wandb"
    target: str | None
    host: str | None  # None = this machine
    dry_run: bool
    allowed_by: str  # "assessment asm_..(STOP)", "review rev_..(STOP)", "force"
    plan: list[str] = field(default_factory=list)
    stopped: bool = False
    final_state: str | None = None
    actions: list[str] = field(default_factory=list)
    elapsed_s: float | None = None
    evidence_id: str | None = None
    evidence_path: str | None = None
    reason: str = ""
    warnings: list[str] = field(default_factory=list)  # e.g. a person-named process that writes another run's log

    @property
    def summary(self) -> str:
        where = f" on {self.host}" if self.host else ""
        warn = "".join(f" WARNING: {w}" for w in self.warnings)
        if self.dry_run:
            return (f"Dry run: would stop {self.target}{where} by {self.method} ({'; '.join(self.plan[:1])}); "
                    f"allowed by {self.allowed_by}; nothing was touched.{warn}")
        state = "stopped" if self.stopped else "NOT confirmed stopped"
        return (f"{self.target}{where} {state} ({self.final_state}) in {self.elapsed_s or 0:.1f}s by {self.method}; "
                f"evidence in {self.evidence_path}. Allowed by {self.allowed_by}.{warn}")

    def to_dict(self) -> dict:
        d = asdict(self)
        d["summary"] = self.summary
        return d


# -- the guard -----------------------------------------------------------------------------------
MAX_AUTHORITY_MIN = 120.0  # a STOP verdict authorises for at most 2 h ...
AUTHORITY_INTERVALS = 2  # ... and at most two check intervals of the run's pacing ladder
DEFAULT_INTERVAL_MIN = 10.0  # the ladder's first rung, when the run has no schedule yet


def _check_id(value, what: str) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_\-]{1,100}", value):
        raise BadInput(f"bad {what} {str(value)[:60]!r}: pass the id returned by the tool that made it")
    return value


def _age_text(created_at: float | None) -> str:
    if not created_at:
        return "age unknown"
    mins = (time.time() - created_at) / 60
    return f"{mins:.0f} min ago" if mins < 120 else f"{mins / 60:.1f} h ago"


def authority_limit_h(store: Store, run_key: str) -> tuple[float, str]:
    """How long a STOP verdict of this run authorises a stop: twice its current check interval, at most 2 h."""
    state = ScheduleState.from_dict(store.get_schedule(run_key))
    try:
        interval = float(state.interval or DEFAULT_INTERVAL_MIN)
    except (TypeError, ValueError):
        interval = DEFAULT_INTERVAL_MIN
    minutes = min(AUTHORITY_INTERVALS * interval, MAX_AUTHORITY_MIN)
    return minutes / 60, f"{minutes:g} min: twice the check interval"


StoredJudgment = AssessmentRecord | ReviewRecord


def _recent_stop(rid: str | None, record: StoredJudgment, max_age_h: float, limit_text: str) -> str:
    """Who allows the stop, when ``record`` says STOP and is younger than ``max_age_h``; else StopRefused."""
    is_review = isinstance(record, ReviewRecord)
    kind = "review" if is_review else "assessment"
    said = (record.decision if isinstance(record, ReviewRecord) else record.verdict).upper()
    if said != STOP:
        hint = "a person can override: training-check stop --force" if is_review else \
            "escalate_to_reviewer, or a person runs training-check stop --force"
        raise StopRefused(f"{kind} {rid} {'decided' if is_review else 'says'} {said or '?'}, not STOP: "
                          f"nothing was stopped ({hint})")
    if time.time() - float(record.created_at or 0) > max_age_h * 3600:
        again = "check" if is_review else "assess"
        raise StopRefused(f"{kind} {rid} is {_age_text(record.created_at)} (limit {limit_text}): "
                          f"{again} the run again before stopping it")
    return f"{kind} {rid} (STOP, {_age_text(record.created_at)})"


def latest_judgment(store: Store, run_key: str) -> StoredJudgment | None:
    """The newest assessment (not a replay, not UNREACHABLE) or review of the run: the one that counts now."""
    found: list[tuple[float, int, StoredJudgment]] = []
    for d in store.recent_assessments(run_key, 50):
        a = AssessmentRecord.from_dict(d)
        if not a.is_replay and a.verdict != UNREACHABLE:
            found.append((float(a.created_at or 0), 0, a))
            break
    reviews = store.recent_reviews(run_key, 1)
    if reviews:
        r = ReviewRecord.from_dict(reviews[0])
        found.append((float(r.created_at or 0), 1, r))
    if not found:
        return None
    return max(found, key=lambda t: (t[0], t[1]))[2]


def check_authority(run_key: str, store: Store, *, assessment_id: str | None, review_id: str | None, force: bool,
                    reason: str, max_age_h: float | None = None
                    ) -> tuple[str, AssessmentRecord | None, ReviewRecord | None]:
    """(who allows the stop, the assessment, the review) or StopRefused / BadInput saying why not.

    Only the run's LATEST judgment authorises: the newest assessment (never an ``as_of_step`` replay) or the newest
    review; one superseded by a newer assessment or review does not, and none authorises for longer than twice the
    check interval (2 h at most). ``force`` (a person, through ``training-check stop --force``) needs a reason."""
    assessment: AssessmentRecord | None = None
    review: ReviewRecord | None = None
    latest_text = ""
    if assessment_id is None and review_id is None and not force:
        # No id given: the run's latest judgment is the one that counts (the same checks below refuse it when it
        # is not STOP or too old; replays never count: latest_judgment skips them).
        latest = latest_judgment(store, run_key)
        if latest is None:
            raise StopRefused(f"stop_run needs a recent STOP assessment_id or STOP review_id of this run (its latest "
                              f"judgment), and run {run_key} has none: check it first (assess_run, or training-check "
                              f"check RUN); nothing was stopped (a person can override with training-check stop "
                              f"--force --reason ...)")
        latest_text = "the run's latest judgment: "
        if isinstance(latest, ReviewRecord):
            review, review_id = latest, latest.review_id
        else:
            assessment, assessment_id = latest, latest.assessment_id
    if assessment_id is not None and assessment is None:
        _check_id(assessment_id, "assessment_id")
        assessment = AssessmentRecord.from_dict(stored_assessment(store, assessment_id, run_key, other_run=StopRefused,
                                                                  outcome="nothing was stopped"))
    if review_id is not None:
        _check_id(review_id, "review_id")
        got = store.get_review(review_id)
        if got is None:
            raise BadInput(f"no review {review_id!r} in the store: pass the review_id escalate_to_reviewer returned")
        review = ReviewRecord.from_dict(got)
        if review.run_key != run_key:
            raise StopRefused(f"review {review_id} is of run {review.run_key}, not {run_key}: nothing was stopped")
        if assessment is None and review.assessment_id:
            reviewed = store.get_assessment(review.assessment_id)
            assessment = AssessmentRecord.from_dict(reviewed) if reviewed is not None else None
    if force:
        if not reason.strip():
            raise StopRefused("--force needs a reason: say why the run must stop without a STOP verdict")
        return "force by a person (training-check stop --force)", assessment, review
    if max_age_h is None:
        max_age_h, limit_text = authority_limit_h(store, run_key)
    else:
        limit_text = f"{max_age_h:g} h"
    if assessment is not None and assessment.is_replay and review is None:
        raise StopRefused(f"assessment {assessment_id} is a replay (as_of_step={assessment.as_of_step}): "
                          f"only a check of the run as it is now authorises a stop; nothing was stopped")
    latest = latest_judgment(store, run_key)
    given_id = review_id or assessment_id
    if given_id is not None and latest is not None:
        latest_id = latest.review_id if isinstance(latest, ReviewRecord) else latest.assessment_id
        if latest_id != given_id:
            if review is None and isinstance(latest, ReviewRecord) and latest.assessment_id == assessment_id:
                review, review_id = latest, latest_id  # the assessment was reviewed: the reviewer's decision counts
            else:
                kind = "review" if isinstance(latest, ReviewRecord) else "assessment"
                said = latest.decision if isinstance(latest, ReviewRecord) else latest.verdict
                raise StopRefused(f"{'review' if review_id else 'assessment'} {given_id} is not the run's latest "
                                  f"judgment: {kind} {latest_id} ({said}, {_age_text(latest.created_at)}) came "
                                  f"after it; nothing was stopped (assess the run again)")
    # A review overrides its assessment: the reviewer's decision is the one that counts.
    try:
        if review is not None:
            return latest_text + _recent_stop(review_id, review, max_age_h, limit_text), assessment, review
        if assessment is not None:
            return latest_text + _recent_stop(assessment_id, assessment, max_age_h, limit_text), assessment, review
    except StopRefused as e:
        raise StopRefused(latest_text + e.message) from None
    raise StopRefused("stop_run needs a recent STOP assessment_id or STOP review_id of this run (its latest "
                      "judgment): nothing was stopped (a person can override with training-check stop --force "
                      "--reason ...)")


def prune_authority(run_key: str, store: Store, config: Config, *, prune: bool,
                    max_age_h: float | None = None) -> tuple[str, dict] | None:
    """(who allows the stop, the sweep judgement) when the run's latest sweep comparison says prune, is recent, and
    a person enabled pruning; None when it does not say prune (the STOP rule's refusal stands); StopRefused when
    it does but pruning is not enabled or the comparison is too old."""
    from .sweep.policy import PRUNE

    j = store.latest_sweep_judgement(run_key)
    rel = (j or {}).get("relative") or {}
    if j is None or rel.get("recommend") != PRUNE:
        return None
    jid = str(j.get("judgement_id") or "?")
    if not (prune or config.sweep_allow_prune):
        raise StopRefused(f"run {run_key}'s latest sweep comparison ({jid}) says prune, but pruning is not enabled: "
                          f"nothing was stopped (a person enables it with prune=true on /training-check, or "
                          f"[sweep] allow_prune = true in their own config)")
    if max_age_h is None:
        max_age_h, limit_text = authority_limit_h(store, run_key)
    else:
        limit_text = f"{max_age_h:g} h"
    if time.time() - float(j.get("created_at") or 0) > max_age_h * 3600:
        raise StopRefused(f"sweep comparison {jid} is {_age_text(j.get('created_at'))} (limit {limit_text}): check "
                          f"the sweep again before stopping the run; nothing was stopped")
    who = "prune=true" if prune else "[sweep] allow_prune in the user's config"
    return f"sweep comparison {jid} (prune, {_age_text(j.get('created_at'))}; pruning enabled by {who})", j


# -- what to stop ------------------------------------------------------------------------------------
def parse_target(method: str, target: str | None, ref: RunRef) -> tuple[str, str | None]:
    """(target kind, value) from the ``method`` argument and ``target`` (``pid:123``, ``123``, ``tmux:name``,
    ``wandb``, ...)."""
    if method not in METHOD_CHOICES:
        raise BadInput(f"unknown stop method {str(method)[:40]!r}: use one of {', '.join(METHOD_CHOICES)}")
    if target is not None and not isinstance(target, str):
        raise BadInput("target must be a string such as pid:123 or tmux:train")
    if target is not None:
        target = target.strip()
        if len(target) > 8192:
            raise BadInput("target is too long (over 8192 characters)")
    kind, value = None, target
    if target:
        if target == "wandb":
            kind, value = "wandb", None
        else:
            head, sep, rest = target.partition(":")
            if sep and head in PREFIXED_KINDS:
                kind, value = head, rest
            elif re.fullmatch(r"\d+", target):
                kind = "pid"
    if method != "auto":
        if kind and kind != method:
            raise BadInput(f"method={method!r} does not fit target {str(target)[:60]!r}: pass one or the other")
        kind = method
    if kind is None:
        if target:
            raise BadInput(f"cannot tell what to stop from target {target[:60]!r}: use pid:123, pidfile:/path, "
                           f"cmd:<exact command line>, slurm:<jobid>, tmux:<session> or wandb")
        if ref.kind == "wandb":
            kind = "wandb"
        else:
            raise BadInput(f"say what to stop for {ref.raw!r}: a target pid:123, pidfile:/path, cmd:<exact "
                           f"command line>, slurm:<jobid> or tmux:<session> (or name one for the run once: "
                           f"training-check target RUN pid:N)")
    if kind == "wandb":
        if ref.kind != "wandb":
            raise BadInput(f"{ref.raw!r} is not a W&B run: stop its process instead (target='pid:N', 'tmux:NAME', ...)")
        return kind, None
    if not value:
        raise BadInput(f"target for method {kind!r} is empty: e.g. {kind}:...")
    return kind, value


def _host_for(kind: str, host: str | None, ref: RunRef) -> str | None:
    if kind == "wandb":
        if host:
            raise BadInput("host does not apply to stopping a W&B run through its API")
        return None
    if host is not None and host.strip().lower() in LOCAL_HOSTS:
        return None
    if host is None and ref.kind == "ssh":
        raise BadInput(f"run {ref.raw!r} is on {ref.host}: pass host={ref.host!r} to stop it there over SSH, "
                       f"or host='local' for a process on this machine")
    return host


# -- evidence ---------------------------------------------------------------------------------------
def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def evidence_markdown(report: StopReport, ref: RunRef, assessment: AssessmentRecord | None,
                      review: ReviewRecord | None, when: str) -> str:
    lines = [f"# Stop evidence: {ref.key}", "",
             f"- time: {when}",
             f"- run: `{report.run}`",
             f"- run URL: {(assessment.url if assessment else None) or ref.url or '(none)'}",
             f"- allowed by: {report.allowed_by}",
             f"- reason: {report.reason}",
             f"- method: {report.method}; target: {report.target}; host: {report.host or 'this machine'}"]
    if assessment:
        lines += ["", "## Assessment", "",
                  f"- id: {assessment.assessment_id}; verdict: **{assessment.verdict}**",
                  f"- step: {assessment.step} / {assessment.total_steps}",
                  f"- summary: {assessment.summary}"]
        km = assessment.key_metrics
        if km:
            lines += ["", "### Key metrics", ""] + [f"- {k}: {_fmt(v)}" for k, v in list(km.items())[:40]]
        findings = assessment.findings
        if findings:
            lines += ["", "### Findings", "", "| signal | status | message | steps |", "|---|---|---|---|"]
            for f in findings[:40]:
                if isinstance(f, dict):
                    msg = str(f.get("message", "")).replace("|", "\\|")
                    lines.append(f"| {f.get('signal', '')} | {f.get('status', '')} | {msg} | {f.get('steps', '')} |")
    if review:
        lines += ["", "## Reviewer", "",
                  f"- id: {review.review_id}; model: {review.model}",
                  f"- decision: **{review.decision}**", f"- reason: {review.reason}"]
    lines += ["", "## Plan", ""] + [f"{i + 1}. {s}" for i, s in enumerate(report.plan)]
    return "\n".join(lines) + "\n"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:80] or "run"


def write_private(folder: Path, name: str, text: str) -> Path:
    """Write a new file readable by this user only (0600) in a 0700 folder; a symlink in the way is refused. The text
    is redacted here (``tools/redact.py``), as the outcome appended later is: the evidence file's two writers."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if folder.is_symlink():
        raise OSError(40, "the folder is a symbolic link (refused)")
    os.chmod(folder, 0o700)
    fd = os.open(folder / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(redact(text))
    return folder / name


def sweep_evidence(sweep: dict, store: Store) -> str:
    """The evidence of a prune: the run's comparison, its projection, and the sweep's ranking table."""
    rel = sweep.get("relative") or {}
    proj = rel.get("projected_final") or {}
    stored = store.get_sweep(str(sweep.get("sweep_key") or "")) or {}
    summary = stored.get("summary") or {}
    lines = ["", "## Sweep comparison", "",
             f"- sweep: {sweep.get('sweep_key')}; objective: {summary.get('metric')} ({summary.get('direction')}); "
             f"runs compared: {summary.get('compared')}; leader: {summary.get('leader')}",
             f"- this run: rank {rel.get('rank')} of {rel.get('of')} at step {rel.get('step')}; value "
             f"{_fmt(rel.get('value'))}; median {_fmt(rel.get('median'))}; best {_fmt(rel.get('best'))}; "
             f"noise units behind {rel.get('behind')}",
             f"- projected final at step {proj.get('at_step')}: {_fmt(proj.get('value'))} "
             f"[{_fmt(proj.get('low'))}, {_fmt(proj.get('high'))}]",
             f"- recommendation: **{rel.get('recommend')}** ({rel.get('consecutive')} checks in a row): "
             f"{rel.get('reason')}", "", "### Ranking", ""]
    table = stored.get("table")
    lines += [str(row) for row in table] if isinstance(table, list) else ["(the ranking table was not kept)"]
    return redact("\n".join(lines)) + "\n"


def _write_evidence(report: StopReport, ref: RunRef, assessment: AssessmentRecord | None,
                    review: ReviewRecord | None, store: Store, config: Config, sweep: dict | None = None) -> None:
    now = datetime.now(UTC)
    when = now.isoformat(timespec="seconds")
    folder = Path(config.evidence_dir)
    name = f"{now.strftime('%Y%m%dT%H%M%SZ')}-{_slug(redact(ref.key))}-{os.urandom(3).hex()}.md"
    path = folder / name
    text = evidence_markdown(report, ref, assessment, review, when)
    stored = store.get_assessment(assessment.assessment_id) if assessment and assessment.assessment_id else None
    diagnosis = (stored or {}).get("diagnosis")
    if isinstance(diagnosis, dict) and diagnosis.get("cause"):
        # the probable cause, the events in order and the actions to relaunch with (tools/diagnosis.py)
        lines = ["", "## Diagnosis", "",
                 f"- probable cause: {diagnosis['cause']} (confidence {diagnosis.get('confidence')})"
                 + (f", onset at step {diagnosis['onset_step']}" if diagnosis.get("onset_step") is not None else "")]
        for key, head in (("events", "event"), ("actions", "action"), ("ruled_out", "ruled out")):
            lines += [f"- {head}: {x}" for x in diagnosis.get(key) or [] if isinstance(x, str)]
        text = text.rstrip("\n") + "\n" + "\n".join(lines) + "\n"
    if sweep is not None:
        text = text.rstrip("\n") + "\n" + sweep_evidence(sweep, store)
    try:
        write_private(folder, name, text)
    except OSError as e:
        raise StoreError(f"cannot write the evidence file {path}: {e.strerror}; nothing was stopped") from None
    a = assessment
    record = StopPlanRecord(
        time=when, run=report.run, url=(a.url if a else None) or ref.url, allowed_by=report.allowed_by,
        reason=report.reason, method=report.method, target=report.target, host=report.host,
        plan=tuple(report.plan), assessment_id=a.assessment_id if a else None, verdict=a.verdict if a else None,
        key_metrics=a.key_metrics if a else None, findings=a.findings if a else None,
        review={"review_id": review.review_id, "model": review.model, "decision": review.decision,
                "reason": review.reason} if review else None)
    payload = record.to_dict()
    if sweep is not None:
        payload["sweep"] = {"judgement_id": sweep.get("judgement_id"), "sweep_key": sweep.get("sweep_key"),
                            "relative": sweep.get("relative")}
    report.evidence_id = store.add_evidence(ref.key, str(path), payload)
    report.evidence_path = str(path)


def _record_outcome(report: StopReport, ref: RunRef, store: Store) -> None:
    outcome = ["", "## Outcome", "", f"- stopped: {report.stopped}; final state: {report.final_state}; "
               f"elapsed: {report.elapsed_s}s", ""] + [f"- {a}" for a in report.actions]
    try:
        fd = os.open(report.evidence_path or "", os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW)
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.write(redact("\n".join(outcome) + "\n"))
    except OSError:
        report.actions.append("(could not append the outcome to the evidence file)")
    store.add_evidence(ref.key, report.evidence_path, StopOutcomeRecord(
        plan_evidence_id=report.evidence_id, stopped=report.stopped, final_state=report.final_state,
        actions=tuple(report.actions), elapsed_s=report.elapsed_s, method=report.method, target=report.target,
        host=report.host).to_dict())


# -- the operation -------------------------------------------------------------------------------------
# confirm(question) -> True when a person said yes (MCP elicitation); None when nobody can be asked
Confirm = Callable[[str], bool]


def _bind_target(stopper: Stopper, plan: StopPlan, ref: RunRef, store: Store, *, person: bool,
                 confirm: Confirm | None, dry_run: bool) -> str:
    """Why this target may be stopped for this run (recording its identity), or StopRefused."""
    kind, value = plan.kind, plan.value
    if kind == "wandb" or value is None:
        return f"it is the W&B run {ref.key} itself"
    procs, runner, where = stopper.procs, stopper.runner, stopper.where
    host = stopper.host
    info = plan.process
    extra = None
    fields: dict[str, str] = {}
    if kind == "tmux":
        extra = tmux.session_identity(runner, value)
    elif kind == "slurm":
        fields = slurm.job_fields(runner, value)
        m = re.search(r"\((\d+)\)", fields.get("UserId", ""))
        euid = procs.euid()
        if "UserId" in fields.get(slurm.AMBIGUOUS, "").split(","):
            raise StopRefused(f"cannot tell who owns Slurm job {value} on {where} (its name or paths hold "
                              f"'UserId='): nothing was cancelled")
        if m and int(m.group(1)) != euid:
            raise StopRefused(f"Slurm job {value} on {where} belongs to uid {m.group(1)}, not to this user (uid "
                              f"{euid}): refusing to cancel another user's job")
        extra = fields.get("SubmitTime")
    ident = binding.identity_of(kind, value, host, info)
    if extra:
        ident.start = extra
    before = binding.recorded(store, ref.key, kind, value, host)
    if before is not None and before.same_process(ident) and not before.named_by.startswith("tied to the run"):
        # a person's naming (or yes) stands for the same process; a tie is checked again each time (one recorded
        # under an older, looser rule must not keep a folder-mate or a reader stoppable)
        return f"named for this run {_age_text(before.named_at)} ({before.named_by})"
    tie = binding.target_tie(stopper, plan, ref)
    changed = ""
    if before is not None and not before.same_process(ident):
        changed = (f"{ident.describe()} is not the target named for this run {_age_text(before.named_at)} "
                   f"({before.describe()}): the PID or name was probably reused; ")
    if tie.ok:
        named_by = f"tied to the run: {tie.why}"
    elif person:
        named_by = "named by a person (training-check)"
    else:
        question = (f"{changed}Stop {ident.describe() if ident.pid else f'{kind} {value}'} on {where} for run "
                    f"{ref.key}? It is not tied to the run: {tie.why}.")
        if confirm is not None and not dry_run and confirm(question):
            named_by = "confirmed by the user when asked"
        else:
            target = ident.describe() if ident.pid else f"{kind} {value}"
            raise StopRefused(f"{changed}{target} on {where} cannot be tied to run {ref.key}, nothing was stopped: "
                              f"{tie.why} (a person can name it: training-check target {ref.raw[:200]} "
                              f"{kind}:{value})")
    if not dry_run:
        binding.record(store, ref.key, ident, named_by)
    return named_by


def name_target(run: str, target: str, *, store: Store, config: Config, host: str | None = None,
                method: str = "auto") -> str:
    """A person names the process that stops ``run`` (``training-check target``): its identity is recorded."""
    ref = parse_run_ref(run, entity=config.wandb_entity, project=config.wandb_project)
    kind, value = parse_target(method, target, ref)
    where_host = _host_for(kind, host, ref)
    stopper = make_stopper(kind, where_host, ref, config)
    plan = stopper.plan(value)
    why = _bind_target(stopper, plan, ref, store, person=True, confirm=None, dry_run=False)
    stop_target.remember(store, ref.key, target.strip(), where_host)
    what = plan.target if plan.process is not None else (f"{kind} {plan.value}" if plan.value else ref.key)
    warn = "".join(f" WARNING: {w}" for w in _person_warnings(plan, where_host, ref, store))
    return f"remembered for stop and watch: {what} on {stopper.where} is the target of run {ref.key} ({why}){warn}"


def _person_warnings(plan: StopPlan, host: str | None, ref: RunRef, store: Store) -> list[str]:
    """A target process (and what it started) that writes another run's log, not this run's: a likely typo in a
    person-named or remembered PID."""
    if plan.process is None or host is not None:
        return []
    pid = plan.process.pid
    return stop_target.other_runs_files([pid, *binding.descendants(LocalProcesses(), pid)], ref, store)


def stop_run(run: str, reason: str, *, store: Store, config: Config, assessment_id: str | None = None,
             review_id: str | None = None, method: str = "auto", target: str | None = None, host: str | None = None,
             dry_run: bool = False, force: bool = False, grace_s: float = 30.0, max_age_h: float | None = None,
             kill_after: bool = True, named_by_person: bool = False, confirm: Confirm | None = None,
             prune: bool = False) -> StopReport:
    """Stop a run only with its latest STOP assessment/review (or a person's force + reason), saving evidence first.
    Or, when a person enabled pruning (``prune``: the user's ``prune=true``; or ``[sweep] allow_prune = true`` in the
    user's config), with its latest sweep comparison saying ``prune`` (``prune_authority``): the same age limit,
    binding and evidence (the ranking table and the projections).

    The target must be the run's (see ``stoppers/binding.py``); ``named_by_person`` (the CLI) or a yes to
    ``confirm`` (MCP elicitation) accepts a target that cannot be tied to the run. Never: another user's process,
    a system process, training-check or an ancestor of it. ``grace_s``: how long the run gets to exit on its own
    after the first, gentle request before it is forced (one meaning for every stopper: ``stoppers/base.py``)."""
    if not isinstance(reason, str):
        raise BadInput("reason must be a string")
    reason = " ".join(reason.split())[:MAX_REASON]
    if not isinstance(grace_s, (int, float)) or isinstance(grace_s, bool) or not 0 <= grace_s <= 3600:
        raise BadInput(f"grace_s must be between 0 and 3600 seconds, got {grace_s!r}")
    ref = parse_run_ref(run, entity=config.wandb_entity, project=config.wandb_project)
    chosen = None
    if target is None and method == "auto":
        default = stop_target.default_target(ref, store, host)
        if default.target is None and ref.kind != "wandb":
            raise BadInput(f"say what to stop for {ref.raw!r}: {default.why}; give a target pid:123, "
                           f"pidfile:/path, cmd:<exact command line>, slurm:<jobid> or tmux:<session> (or name one "
                           f"for the run once: training-check target {ref.raw[:200]} pid:N)")
        if default.target is not None:
            target, host, chosen = default.target, default.host, default.short
    kind, value = parse_target(method, target, ref)
    where_host = _host_for(kind, host, ref)
    sweep: dict | None = None
    try:
        allowed_by, assessment, review = check_authority(ref.key, store, assessment_id=assessment_id,
                                                         review_id=review_id, force=bool(force), reason=reason,
                                                         max_age_h=max_age_h)
    except StopRefused:
        if force or assessment_id is not None or review_id is not None:
            raise
        found = prune_authority(ref.key, store, config, prune=bool(prune), max_age_h=max_age_h)
        if found is None:
            raise
        allowed_by, sweep = found
        assessment, review = None, None
        reason = reason or str((sweep.get("relative") or {}).get("reason") or "sweep: prune")[:MAX_REASON]
    if not reason and assessment:
        reason = (assessment.summary or "STOP verdict")[:MAX_REASON]
    stopper = make_stopper(kind, where_host, ref, config, kill_after=kill_after)

    # Look before acting (read-only): the plan names exactly what will be signalled.
    plan = stopper.plan(value, grace_s)
    why_target = _bind_target(stopper, plan, ref, store, person=bool(force or named_by_person), confirm=confirm,
                              dry_run=bool(dry_run))

    if chosen:
        why_target = f"{why_target} (no target given: {chosen})"
    report = StopReport(run=run, run_key=ref.key, method=plan.mechanism, target=plan.target, host=stopper.host,
                        dry_run=bool(dry_run), allowed_by=f"{allowed_by}; target: {why_target}", plan=plan.steps,
                        reason=redact(reason))
    report.warnings = _person_warnings(plan, where_host, ref, store)
    if dry_run:
        report.final_state = "not touched (dry run)"
        return report

    _write_evidence(report, ref, assessment, review, store, config, sweep)  # evidence FIRST
    _apply(report, stopper.execute(plan))
    _record_outcome(report, ref, store)
    if sweep is not None and report.stopped:
        from .sweep.check import mark_stopped

        mark_stopped(store, str(sweep.get("sweep_key") or ""), str(sweep.get("run") or run))
    return report


def _apply(report: StopReport, outcome: StopOutcome) -> None:
    report.stopped = outcome.stopped
    report.final_state = outcome.final_state
    report.actions = list(outcome.actions)
    report.elapsed_s = outcome.elapsed_s
