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
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from .config import Config
from .errors import BadInput, StopRefused, StoreError
from .runref import RunRef, parse_run_ref
from .stoppers import signals, slurm, tmux
from .stoppers import wandb as wandb_stopper
from .stoppers.outcome import StopOutcome, local_runner, remote_runner
from .stoppers.processes import LocalProcesses, RemoteProcesses
from .store import Store

METHODS = ("auto", "wandb", "pid", "pidfile", "cmd", "slurm", "tmux")
PREFIXES = ("pid", "pidfile", "cmd", "slurm", "tmux")
LOCAL_HOSTS = ("local",)
SECRET_ENV = ("OPENAI_API_KEY", "WANDB_API_KEY", "ANTHROPIC_API_KEY", "HF_TOKEN", "SSH_PASSPHRASE")
MAX_REASON = 4000


@dataclass
class StopReport:
    """What stop_run did (or, for a dry run, would do)."""

    run: str
    run_key: str
    method: str  # signal-by pid/pidfile/cmd, slurm, tmux, wandb
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

    @property
    def summary(self) -> str:
        where = f" on {self.host}" if self.host else ""
        if self.dry_run:
            return (f"Dry run: would stop {self.target}{where} by {self.method} ({'; '.join(self.plan[:1])}); "
                    f"allowed by {self.allowed_by}; nothing was touched.")
        state = "stopped" if self.stopped else "NOT confirmed stopped"
        return (f"{self.target}{where} {state} ({self.final_state}) in {self.elapsed_s or 0:.1f}s by {self.method}; "
                f"evidence in {self.evidence_path}.")

    def to_dict(self) -> dict:
        d = asdict(self)
        d["summary"] = self.summary
        return d


# -- the guard -----------------------------------------------------------------------------------
def _check_id(value, what: str) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_\-]{1,100}", value):
        raise BadInput(f"bad {what} {str(value)[:60]!r}: pass the id returned by the tool that made it")
    return value


def _age_text(created_at: float | None) -> str:
    if not created_at:
        return "age unknown"
    mins = (time.time() - created_at) / 60
    return f"{mins:.0f} min ago" if mins < 120 else f"{mins / 60:.1f} h ago"


def _recent_stop(kind: str, rid: str | None, record: dict, field: str, again: str, max_age_h: float) -> str:
    """Who allows the stop, when ``record`` says STOP and is younger than ``max_age_h``; else StopRefused."""
    said = str(record.get(field, "")).upper()
    if said != "STOP":
        hint = "use force=True with a reason to override" if kind == "review" else \
            "escalate_to_reviewer, or force=True with a reason"
        raise StopRefused(f"{kind} {rid} {'decided' if kind == 'review' else 'says'} {said or '?'}, not STOP: "
                          f"nothing was stopped ({hint})")
    if time.time() - float(record.get("created_at") or 0) > max_age_h * 3600:
        raise StopRefused(f"{kind} {rid} is {_age_text(record.get('created_at'))} (limit {max_age_h:g} h): "
                          f"{again} the run again before stopping it")
    return f"{kind} {rid} (STOP, {_age_text(record.get('created_at'))})"


def check_authority(run_key: str, store: Store, *, assessment_id: str | None, review_id: str | None, force: bool,
                    reason: str, max_age_h: float) -> tuple[str, dict | None, dict | None]:
    """(who allows the stop, the assessment, the review) or StopRefused / BadInput saying why not."""
    assessment = review = None
    if assessment_id is not None:
        _check_id(assessment_id, "assessment_id")
        assessment = store.get_assessment(assessment_id)
        if assessment is None:
            raise BadInput(f"no assessment {assessment_id!r} in the store: pass the assessment_id assess_run returned")
        if assessment.get("run_key") != run_key:
            raise StopRefused(f"assessment {assessment_id} is of run {assessment.get('run_key')}, not {run_key}: "
                              f"nothing was stopped")
    if review_id is not None:
        _check_id(review_id, "review_id")
        review = store.get_review(review_id)
        if review is None:
            raise BadInput(f"no review {review_id!r} in the store: pass the review_id escalate_to_reviewer returned")
        if review.get("run_key") != run_key:
            raise StopRefused(f"review {review_id} is of run {review.get('run_key')}, not {run_key}: nothing was stopped")
        if assessment is None and review.get("assessment_id"):
            assessment = store.get_assessment(review["assessment_id"])
    if force:
        if not reason.strip():
            raise StopRefused("force=True needs a reason: say why the run must stop without a STOP verdict")
        return "force (no STOP verdict required)", assessment, review
    # A review overrides its assessment: the reviewer's decision is the one that counts.
    if review is not None:
        return _recent_stop("review", review_id, review, "decision", "check", max_age_h), assessment, review
    if assessment is not None:
        return _recent_stop("assessment", assessment_id, assessment, "verdict", "assess", max_age_h), assessment, review
    raise StopRefused("stop_run needs a recent STOP assessment_id or STOP review_id of this run, or force=True "
                      "with a reason: nothing was stopped")


# -- what to stop ------------------------------------------------------------------------------------
def parse_target(method: str, target: str | None, ref: RunRef) -> tuple[str, str | None]:
    """(method, value) from ``method`` and ``target`` (``pid:123``, ``123``, ``tmux:name``, ``wandb``, ...)."""
    if method not in METHODS:
        raise BadInput(f"unknown stop method {str(method)[:40]!r}: use one of {', '.join(METHODS)}")
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
            if sep and head in PREFIXES:
                kind, value = head, rest
            elif re.fullmatch(r"\d+", target):
                kind = "pid"
    if method != "auto":
        if kind and kind != method:
            raise BadInput(f"method={method!r} does not fit target {target[:60]!r}: pass one or the other")
        kind = method
    if kind is None:
        if target:
            raise BadInput(f"cannot tell what to stop from target {target[:60]!r}: use pid:123, pidfile:/path, "
                           f"cmd:<exact command line>, slurm:<jobid>, tmux:<session> or wandb")
        if ref.kind == "wandb":
            kind = "wandb"
        else:
            raise BadInput(f"say what to stop for {ref.raw!r}: target='pid:123', 'pidfile:/path', 'cmd:<exact "
                           f"command line>', 'slurm:<jobid>' or 'tmux:<session>'")
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
def _redact(text: str) -> str:
    for var in SECRET_ENV:
        secret = os.environ.get(var)
        if secret and len(secret) >= 6:
            text = text.replace(secret, "[redacted]")
    return text


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def evidence_markdown(report: StopReport, ref: RunRef, assessment: dict | None, review: dict | None,
                      when: str) -> str:
    a = assessment or {}
    lines = [f"# Stop evidence: {ref.key}", "",
             f"- time: {when}",
             f"- run: `{report.run}`",
             f"- run URL: {a.get('url') or ref.url or '(none)'}",
             f"- allowed by: {report.allowed_by}",
             f"- reason: {report.reason}",
             f"- method: {report.method}; target: {report.target}; host: {report.host or 'this machine'}"]
    if assessment:
        prog = a.get("progress") or {}
        lines += ["", "## Assessment", "",
                  f"- id: {a.get('assessment_id')}; verdict: **{a.get('verdict')}**",
                  f"- step: {prog.get('step', '?')} / {prog.get('total_steps', '?')}",
                  f"- summary: {a.get('summary', '')}"]
        km = a.get("key_metrics") or {}
        if km:
            lines += ["", "### Key metrics", ""] + [f"- {k}: {_fmt(v)}" for k, v in list(km.items())[:40]]
        findings = a.get("findings") or []
        if findings:
            lines += ["", "### Findings", "", "| signal | status | message | steps |", "|---|---|---|---|"]
            for f in findings[:40]:
                if isinstance(f, dict):
                    msg = str(f.get("message", "")).replace("|", "\\|")
                    lines.append(f"| {f.get('signal', '')} | {f.get('status', '')} | {msg} | {f.get('steps', '')} |")
    if review:
        lines += ["", "## Reviewer", "",
                  f"- id: {review.get('review_id')}; model: {review.get('model')}",
                  f"- decision: **{review.get('decision')}**", f"- reason: {review.get('reason')}"]
    lines += ["", "## Plan", ""] + [f"{i + 1}. {s}" for i, s in enumerate(report.plan)]
    return _redact("\n".join(lines) + "\n")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:80] or "run"


def _write_evidence(report: StopReport, ref: RunRef, assessment, review, store: Store, config: Config) -> None:
    now = datetime.now(timezone.utc)
    when = now.isoformat(timespec="seconds")
    folder = Path(config.evidence_dir)
    name = f"{now.strftime('%Y%m%dT%H%M%SZ')}-{_slug(ref.key)}-{os.urandom(3).hex()}.md"
    path = folder / name
    text = evidence_markdown(report, ref, assessment, review, when)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise StoreError(f"cannot write the evidence file {path}: {e.strerror}; nothing was stopped") from None
    payload = {"kind": "stop_plan", "time": when, "run": report.run, "url": (assessment or {}).get("url") or ref.url,
               "allowed_by": report.allowed_by, "reason": _redact(report.reason), "method": report.method,
               "target": report.target, "host": report.host, "plan": report.plan,
               "assessment_id": (assessment or {}).get("assessment_id"),
               "verdict": (assessment or {}).get("verdict"),
               "key_metrics": (assessment or {}).get("key_metrics"), "findings": (assessment or {}).get("findings"),
               "review": {k: (review or {}).get(k) for k in ("review_id", "model", "decision", "reason")} if review else None}
    report.evidence_id = store.add_evidence(ref.key, str(path), payload)
    report.evidence_path = str(path)


def _record_outcome(report: StopReport, ref: RunRef, store: Store) -> None:
    outcome = ["", "## Outcome", "", f"- stopped: {report.stopped}; final state: {report.final_state}; "
               f"elapsed: {report.elapsed_s}s", ""] + [f"- {a}" for a in report.actions]
    try:
        with open(report.evidence_path, "a", encoding="utf-8") as f:
            f.write(_redact("\n".join(outcome) + "\n"))
    except OSError:
        report.actions.append("(could not append the outcome to the evidence file)")
    store.add_evidence(ref.key, report.evidence_path, {
        "kind": "stop_outcome", "plan_evidence_id": report.evidence_id, "stopped": report.stopped,
        "final_state": report.final_state, "actions": report.actions, "elapsed_s": report.elapsed_s,
        "method": report.method, "target": report.target, "host": report.host})


# -- the operation -------------------------------------------------------------------------------------
def stop_run(run: str, reason: str, *, store: Store, config: Config, assessment_id: str | None = None,
             review_id: str | None = None, method: str = "auto", target: str | None = None, host: str | None = None,
             dry_run: bool = False, force: bool = False, grace_s: float = 30.0, max_age_h: float = 24.0,
             kill_after: bool = True) -> StopReport:
    """Stop a run only with a recent STOP assessment/review of it (or force + reason), saving evidence first."""
    if not isinstance(reason, str):
        raise BadInput("reason must be a string")
    reason = " ".join(reason.split())[:MAX_REASON]
    if not isinstance(grace_s, (int, float)) or isinstance(grace_s, bool) or not 0 <= grace_s <= 3600:
        raise BadInput(f"grace_s must be between 0 and 3600 seconds, got {grace_s!r}")
    ref = parse_run_ref(run, entity=config.wandb_entity, project=config.wandb_project)
    kind, value = parse_target(method, target, ref)
    where_host = _host_for(kind, host, ref)
    allowed_by, assessment, review = check_authority(ref.key, store, assessment_id=assessment_id,
                                                     review_id=review_id, force=bool(force), reason=reason,
                                                     max_age_h=max_age_h)
    if not reason and assessment:
        reason = str(assessment.get("summary") or "STOP verdict")[:MAX_REASON]

    if where_host:
        from .sources.ssh import parse_host_spec, resolve_target

        user, h, port = parse_host_spec(where_host)
        ssh_target = resolve_target(h, user=user, port=port)
        runner = remote_runner(ssh_target, config.ssh_accept_unknown_hosts)
        where = ssh_target.label
        procs = RemoteProcesses(runner, where)
    else:
        runner, where, procs = local_runner, "this machine", LocalProcesses()

    # Look before acting (read-only): the plan names exactly what will be signalled.
    if kind in ("pid", "pidfile", "cmd"):
        planner = {"pid": signals.plan_pid, "pidfile": signals.plan_pidfile, "cmd": signals.plan_cmdline}[kind]
        sig_plan = planner(procs, value, grace_s)
        target_text, steps, method_text = sig_plan.target, sig_plan.steps(), f"signal ({kind})"
    elif kind == "slurm":
        value, steps = slurm.plan(runner, value, where)
        target_text, method_text = f"slurm job {value}", "slurm"
    elif kind == "tmux":
        value, steps = tmux.plan(runner, value, where)
        target_text, method_text = f"tmux session {value}", "tmux"
    else:
        steps = wandb_stopper.plan(ref)
        target_text, method_text = f"W&B run {ref.key}", "wandb"

    report = StopReport(run=run, run_key=ref.key, method=method_text, target=target_text,
                        host=where if where_host else None, dry_run=bool(dry_run), allowed_by=allowed_by,
                        plan=steps, reason=_redact(reason))
    if dry_run:
        report.final_state = "not touched (dry run)"
        return report

    _write_evidence(report, ref, assessment, review, store, config)  # evidence FIRST
    if kind in ("pid", "pidfile", "cmd"):
        outcome = signals.execute(procs, sig_plan, kill_after=kill_after)
    elif kind == "slurm":
        outcome = slurm.execute(runner, value, where, report.host, grace_s=grace_s)
    elif kind == "tmux":
        outcome = tmux.execute(runner, value, where, report.host, grace_s=grace_s)
    else:
        outcome = wandb_stopper.execute(ref, config)
    _apply(report, outcome)
    _record_outcome(report, ref, store)
    return report


def _apply(report: StopReport, outcome: StopOutcome) -> None:
    report.stopped = outcome.stopped
    report.final_state = outcome.final_state
    report.actions = list(outcome.actions)
    report.elapsed_s = outcome.elapsed_s
