"""reschedule: the check-interval ladder and the exact CronCreate / CronDelete arguments for the agent.

Ladder 10 -> 20 -> 30 -> 60 minutes (cap), one rung per healthy check; any
anomaly (ESCALATE, STOP, UNREACHABLE, a warn finding, a reviewer WAIT) resets
to 10; a WAIT verdict checks again in 5. After a STOP: delete the job, create
none. Claude Code's recurring CronCreate jobs expire after 7 days, so the job's
age is tracked and the answer says when to renew it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta, timezone

from .config import Config
from .errors import BadInput
from .judge import CONTINUE, STOP, WAIT
from .runref import parse_run_ref
from .store import Store

LADDER_MINUTES = (10, 20, 30, 60)
WAIT_MINUTES = 5
JOB_LIFETIME = timedelta(days=7)
RENEW_MARGIN = timedelta(days=1)


@dataclass
class Schedule:
    run: str
    interval_minutes: int | None
    reason: str
    next_check_at: str | None  # ISO 8601, UTC
    cron: str | None
    cron_delete: dict | None  # arguments for CronDelete, or None
    cron_create: dict | None  # arguments for CronCreate, or None (keep the current job / stop checking)
    renew_by: str | None  # the recurring job expires: renew it before this time
    stopped: bool = False
    assessment_id: str | None = None
    summary: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


def cron_every(minutes: int, start: datetime) -> str:
    """A 5-field cron expression firing every ``minutes`` (a divisor of 60, or 60) from ``start``'s minute."""
    if minutes >= 60:
        return f"{start.minute} * * * *"
    if 60 % minutes:
        raise ValueError(f"interval {minutes} does not divide an hour")
    first = start.minute % minutes
    return ",".join(str(m) for m in range(first, 60, minutes)) + " * * * *"


def _iso(t: datetime) -> str:
    return t.astimezone(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _anomalous(assessment: dict, review: dict | None) -> str | None:
    verdict = assessment.get("verdict")
    if verdict not in (CONTINUE, WAIT):
        return f"the last check said {verdict}"
    reviewed = set(assessment.get("reviewed_concerns") or [])
    warn = [f for f in assessment.get("findings", []) if f.get("status") in ("warn", "critical")
            and (f.get("concern") or f.get("signal")) not in reviewed]
    if warn:
        return f"a {warn[0].get('signal')} warning"
    if review and review.get("decision") == "WAIT":
        return "the reviewer said WAIT"
    return None


def reschedule(run: str, *, store: Store, config: Config, assessment_id: str | None = None,
               current_job_id: str | None = None, now: datetime | None = None) -> Schedule:
    """Move the run one rung up the ladder on a healthy check, back to the bottom on an anomaly; return the cron."""
    now = now or datetime.now(timezone.utc)
    ref = parse_run_ref(run, entity=config.wandb_entity, project=config.wandb_project)
    key = ref.key
    if current_job_id is not None and (not isinstance(current_job_id, str) or not current_job_id.strip()
                                       or len(current_job_id) > 200 or any(ord(c) < 32 for c in current_job_id)):
        raise BadInput("current_job_id must be the id CronCreate returned (a short string without control characters)")
    if assessment_id:
        assessment = store.get_assessment(assessment_id)
        if assessment is None:
            raise BadInput(f"unknown assessment_id {assessment_id!r}: pass the id assess_run returned")
        if assessment.get("run_key") != key:
            raise BadInput(f"assessment {assessment_id} is of run {assessment.get('run')!r}, not {run!r}")
    else:
        recent = store.recent_assessments(key, 1)
        assessment = recent[0] if recent else None
    state = store.get_schedule(key) or {}
    known_job = state.get("job_id")
    if current_job_id and state.get("awaiting_job_id"):
        known_job = current_job_id  # the id CronCreate returned for the job we asked for last time
    job_id = current_job_id or known_job
    prompt = f"/training-check {run}"
    aid = assessment.get("assessment_id") if assessment else None

    if assessment and assessment.get("verdict") == STOP or state.get("stopped") and aid == state.get("assessment_id"):
        store.put_schedule(key, {**state, "stopped": True, "assessment_id": aid, "job_id": None})
        return Schedule(run, None, "the run was judged STOP: stop checking it", None, None,
                        {"id": job_id} if job_id else None, None, None, True, aid,
                        "STOP: delete the check job" + (f" {job_id}" if job_id else "") + " and create none.")

    if assessment is None:
        rung, minutes, reason = 0, LADDER_MINUTES[0], "no assessment yet: first check in 10 minutes"
    elif aid == state.get("assessment_id") and state.get("interval") is not None:
        rung, minutes, reason = state.get("rung", 0), state["interval"], "already rescheduled for this assessment"
    else:
        reviews = [r for r in store.recent_reviews(key, 5) if r.get("assessment_id") == aid]
        anomaly = _anomalous(assessment, reviews[0] if reviews else None)
        if assessment.get("verdict") == WAIT:
            rung, minutes, reason = -1, WAIT_MINUTES, "too little data yet: look again soon"
        elif anomaly:
            rung, minutes, reason = 0, LADDER_MINUTES[0], f"{anomaly}: back to every {LADDER_MINUTES[0]} minutes"
        else:
            rung = min(int(state.get("rung", -1)) + 1, len(LADDER_MINUTES) - 1)
            minutes = LADDER_MINUTES[rung]
            reason = "healthy: " + ("at the 60-minute cap" if rung == len(LADDER_MINUTES) - 1 else f"up one rung to {minutes} minutes")

    cron = state.get("cron") if state.get("interval") == minutes and state.get("cron") else cron_every(minutes, now + timedelta(minutes=minutes))
    created = datetime.fromisoformat(state["job_created_at"]) if state.get("job_created_at") else None
    expiring = created is not None and now >= created + JOB_LIFETIME - RENEW_MARGIN
    keep = bool(job_id) and job_id == known_job and cron == state.get("cron") and not expiring
    if keep:
        cron_delete, cron_create = None, None
        note = f"keep job {job_id}"
    else:
        cron_delete = {"id": job_id} if job_id else None
        cron_create = {"cron": cron, "prompt": prompt, "recurring": True, "durable": True}
        created = now
        note = ("renew the job (recurring jobs expire after 7 days): " if expiring else "") + \
               (f"delete job {job_id}, then create the new one" if job_id else "create the check job")
    renew_by = _iso(created + JOB_LIFETIME - RENEW_MARGIN) if created else None
    next_at = now + timedelta(minutes=minutes)
    store.put_schedule(key, {"rung": rung, "interval": minutes, "cron": cron, "assessment_id": aid,
                             "job_id": job_id if keep else None,  # a new job's id comes back as current_job_id
                             "awaiting_job_id": cron_create is not None,
                             "job_created_at": created.isoformat() if created else None, "stopped": False,
                             "updated_at": now.isoformat()})
    return Schedule(run, minutes, reason, _iso(next_at), cron, cron_delete, cron_create, renew_by, False, aid,
                    f"Next check in {minutes} min ({reason}); {note}.")
