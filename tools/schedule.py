"""reschedule: the check-interval ladder and the exact CronDelete / CronCreate calls that leave one job per run.

Ladder 10 -> 20 -> 30 -> 60 minutes (cap), one rung per healthy check; any
anomaly (ESCALATE, UNREACHABLE, a warn finding, a reviewer WAIT) resets to 10;
a WAIT verdict checks again in 5. The run is *stopped* — delete every check job
of it, create none — when the assessment said STOP, a review of it said STOP,
or a stop_run succeeded after it (or with no newer data since).

Jobs: every check job of a run has the prompt ``job_prompt``: ``/training-check
#<mark> <run>`` plus the ``target=``/``host=``/``durable=`` arguments the check was
given, where the mark is 8 hex digits of the run's store key (CronList shows a
prompt cut short; the mark, first, survives the cut). The agent passes what
CronList listed as ``jobs``: each line as it reads (``{"line": ...}``), in the
format of either Claude Code generation (``<id> — <cron> (recurring)
[session-only]: <prompt>``, and since 2.1.332 ``..., next run Dec 5 12:24am:
<prompt>``), or as fields; the answer names exactly which ids to delete (every
job of this run, except the one kept) and whether to create one. A job is kept
when its prompt, interval and durability are what this check wants and it is not
near the expiry of recurring jobs: the lifetime the client states
(``job_lifetime_days``: CronCreate's "auto-expire after N days", 7 in Claude Code
2.1.197, 30 in 2.1.332), 7 days when it is not given (a job first listed now is
the one the last answer asked for, with that answer's cron). Cron minutes avoid
:00 and :30 (Claude Code's CronCreate asks for off-minute schedules) and jobs are
session-only unless ``durable`` is asked.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from .config import Config
from .errors import BadInput, TrainingCheckError
from .judge import CONTINUE, STOP, WAIT
from .records import (
    STOP_OUTCOME,
    STOP_PLAN,
    AssessmentRecord,
    ReviewRecord,
    ScheduleState,
    StopOutcomeRecord,
    StopPlanRecord,
    stored_assessment,
)
from .runref import parse_run_ref
from .store import Store

LADDER_MINUTES = (10, 20, 30, 60)
WAIT_MINUTES = 5
DEFAULT_LIFETIME_DAYS = 7  # the shortest lifetime of a recurring job a Claude Code release states (2.1.197)
MAX_LIFETIME_DAYS = 3650
RENEW_MARGIN = timedelta(days=1)
COMMAND = "/training-check"
AVOID_MINUTES = (0, 30)
MAX_JOBS = 200
_ARG_SPLIT = re.compile(r"\s+(?=(?:target|host|durable|prune)=)")
_TAG = re.compile(r"^#([0-9a-f]{8})(?:\s+|$)")
SHOWN_PROMPT = 80  # CronList shows a job's prompt cut to 80 characters (ending in an ellipsis)


def run_tag(key: str) -> str:
    """The mark of a run's check jobs (8 hex digits of its store key), first in the job's prompt so that
    CronList's cut-short prompt still shows it."""
    return hashlib.sha256(key.encode()).hexdigest()[:8]


@dataclass
class CheckArguments:
    """The arguments of one ``/training-check`` command: the run, and what trains it."""

    run: str
    target: str | None = None
    host: str | None = None
    durable: bool = False
    tag: str | None = None  # the check job's mark, when a job started the check
    prune: bool = False  # a sweep check whose prune advice the user allowed stop_run to act on

    def prompt(self) -> str:
        """The prompt of a check job for these arguments (what CronCreate gets and CronList shows)."""
        parts = [COMMAND] + ([f"#{self.tag}"] if self.tag else []) + [self.run]
        if self.target:
            parts.append(f"target={self.target}")
        if self.host:
            parts.append(f"host={self.host}")
        if self.durable:
            parts.append("durable=true")
        if self.prune:
            parts.append("prune=true")
        return " ".join(parts)


def split_arguments(arguments: str) -> CheckArguments:
    """``[#tag] <run> [target=...] [host=...] [durable=true]`` -> its parts (a ``cmd:`` target may hold spaces)."""
    if not isinstance(arguments, str) or not arguments.strip():
        raise BadInput("the check's arguments are empty: pass the run (and optionally target=/host=)")
    text = arguments.strip()
    tag = _TAG.match(text)
    if tag:
        text = text[tag.end():]
    pieces = _ARG_SPLIT.split(text)
    out = CheckArguments(pieces[0].strip(), tag=tag.group(1) if tag else None)
    for piece in pieces[1:]:
        name, _, value = piece.partition("=")
        value = value.strip()
        if name in ("durable", "prune"):
            setattr(out, name, value.lower() in ("1", "true", "yes"))
        elif value:
            setattr(out, name, value)
    return out


def job_run(prompt: Any) -> str | None:
    """The run part of a check job's prompt, or None when the prompt is not a /training-check command."""
    if not isinstance(prompt, str):
        return None
    text = prompt.strip()
    if not text.startswith(COMMAND + " "):
        return None
    try:
        return split_arguments(text[len(COMMAND) + 1:]).run or None
    except BadInput:
        return None


@dataclass
class Schedule:
    """What to do with the run's check jobs after this check."""

    run: str
    interval_minutes: int | None
    reason: str
    next_check_at: str | None  # ISO 8601, UTC
    cron: str | None
    job_prompt: str  # the exact prompt of a check job of this run
    cron_delete: list[dict] = field(default_factory=list)  # CronDelete arguments, one call each
    cron_create: dict | None = None  # CronCreate arguments, or None (a job is kept / stop checking)
    keep_job_id: str | None = None  # the job that goes on checking this run
    renew_by: str | None = None  # the recurring job expires: renew it before this time
    stopped: bool = False
    assessment_id: str | None = None
    summary: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


def cron_every(minutes: int, start: datetime) -> str:
    """A 5-field cron firing every ``minutes`` (a divisor of 60, or 60) near ``start``'s minute, never at :00/:30."""
    if minutes >= 60:
        minute = start.minute
        while minute in AVOID_MINUTES:
            minute = (minute + 1) % 60
        return f"{minute} * * * *"
    if 60 % minutes:
        raise ValueError(f"interval {minutes} does not divide an hour")
    first = start.minute % minutes
    while any(m in AVOID_MINUTES for m in range(first, 60, minutes)):
        first = (first + 1) % minutes
    return ",".join(str(m) for m in range(first, 60, minutes)) + " * * * *"


def cron_interval(expr: Any) -> int | None:
    """The interval in minutes of an expression ``cron_every`` makes, or None for any other expression."""
    if not isinstance(expr, str):
        return None
    fields = expr.split()
    if len(fields) != 5 or fields[1:] != ["*"] * 4:
        return None
    try:
        mins = [int(m) for m in fields[0].split(",")]
    except ValueError:
        return None
    if not all(0 <= m < 60 for m in mins) or any(m in AVOID_MINUTES for m in mins):
        return None
    if len(mins) == 1:
        return 60
    steps = {b - a for a, b in itertools.pairwise(mins)}
    if len(steps) != 1 or steps.pop() * len(mins) != 60:
        return None
    return 60 // len(mins)


def _iso(t: datetime) -> str:
    return t.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _anomalous(assessment: AssessmentRecord, review: ReviewRecord | None) -> str | None:
    verdict = assessment.verdict
    if verdict not in (CONTINUE, WAIT):
        return f"the last check said {verdict}"
    warn = assessment.unreviewed_warnings()
    if warn:
        return f"a {warn[0].get('signal')} warning"
    if review and review.decision == WAIT:
        return "the reviewer said WAIT"
    return None


def stop_in_force(key: str, assessment: AssessmentRecord | None, review: ReviewRecord | None,
                  store: Store) -> str | None:
    """Why checking this run is over (a STOP verdict or review, a successful stop), or None."""
    if assessment and assessment.verdict == STOP:
        return "the check said STOP"
    if review and review.decision == STOP:
        return "the reviewer said STOP"
    records = store.evidence_for(key, 50)
    plans = {p.evidence_id: p for p in (StopPlanRecord.from_dict(r) for r in records if r.get("kind") == STOP_PLAN)}
    for outcome in (StopOutcomeRecord.from_dict(r) for r in records if r.get("kind") == STOP_OUTCOME):  # newest first
        if not outcome.stopped:
            continue
        when = datetime.fromtimestamp(outcome.created_at or 0, UTC)
        said = f"the run was stopped at {_iso(when)}"
        if assessment is None or (outcome.created_at or 0) >= (assessment.created_at or 0):
            return said
        plan = plans.get(outcome.plan_evidence_id)
        acted_on = store.get_assessment(plan.assessment_id) if plan and plan.assessment_id else None
        stopped_at = AssessmentRecord.from_dict(acted_on).last_step if acted_on else None
        now_at = assessment.last_step
        if stopped_at is not None and (now_at is None or now_at <= stopped_at):
            return said + " and there is no newer data since"
        return None  # the newest successful stop is older than this assessment's new data: checking resumed
    return None


_KINDS = (" (recurring)", " (one-shot)")
_SESSION_ONLY = " [session-only]"
_NEXT_RUN = ", next run "
MAX_LINE = 4000


def parse_cron_line(line: str) -> dict | None:
    """One line of Claude Code's CronList answer -> {id, cron, prompt, recurring, session_only}, or None when the
    line is not a job. Both formats: ``<id> — <cron> (recurring) [session-only]: <prompt>`` (2.1.197) and
    ``<id> — <cron> (recurring) [session-only], next run Dec 5 12:24am: <prompt>`` (2.1.332); the prompt may be
    cut short with an ellipsis. Plain string searches, no regular expression."""
    text = line.strip()[:MAX_LINE]
    job_id, dash, rest = text.partition(" \u2014 ")
    if not dash or not job_id or " " in job_id:
        return None
    found = [(rest.find(k), k) for k in _KINDS if rest.find(k) > 0]
    if not found:
        return None
    at, kind = min(found)
    cron, tail = rest[:at].strip(), rest[at + len(kind):]
    session_only = tail.startswith(_SESSION_ONLY)
    if session_only:
        tail = tail[len(_SESSION_ONLY):]
    if tail.startswith(_NEXT_RUN):
        end = tail.find(": ", len(_NEXT_RUN))  # the time (e.g. 12:24am) has no space after its colon
        tail = tail[end:] if end >= 0 else ""
    if not tail.startswith(":"):
        return None
    return {"id": job_id, "cron": cron, "prompt": tail[1:].strip(), "recurring": kind == _KINDS[0],
            "session_only": session_only}


def _job(entry: Any) -> dict:
    """A listed job as fields: ``{"line": <CronList's line>}`` parsed, or the fields given (a ``schedule`` holding
    the rest of a line is read as one)."""
    if isinstance(entry, str):
        entry = {"line": entry}
    if not isinstance(entry, dict):
        raise BadInput('each entry of jobs is one CronList line, {"line": "<the line as shown>"}')
    if isinstance(entry.get("line"), str):
        parsed = parse_cron_line(entry["line"])
        if parsed is None:
            raise BadInput(f"jobs: {entry['line'][:120]!r} is not a CronList line (<id> — <cron> (recurring) ...: "
                           f"<prompt>): pass each job line CronList printed, as it reads")
        return parsed
    schedule = entry.get("schedule")
    if isinstance(schedule, str) and any(k in schedule for k in _KINDS) and isinstance(entry.get("id"), str):
        parsed = parse_cron_line(f"{entry['id']} \u2014 {schedule}: {entry.get('prompt') or ''}")
        if parsed is not None:
            return {**entry, **parsed}
    if "cron" not in entry and cron_interval(schedule) is not None:
        return {**entry, "cron": schedule}
    return entry


def _jobs(jobs: Any) -> list[dict]:
    """CronList's jobs, validated: a list of lines or of {id, cron, prompt, ...}."""
    if jobs is None:
        return []
    if isinstance(jobs, dict) and isinstance(jobs.get("jobs"), list):
        jobs = jobs["jobs"]  # CronList's whole answer
    if isinstance(jobs, str):
        jobs = [line for line in jobs.splitlines()[: MAX_JOBS + 1] if parse_cron_line(line)]  # its text
    if not isinstance(jobs, list) or len(jobs) > MAX_JOBS:
        raise BadInput(f'jobs must be the jobs CronList listed (at most {MAX_JOBS}), each {{"line": "<its line>"}}')
    out = []
    for j in map(_job, jobs):
        if not _valid_id(j.get("id")):
            raise BadInput("each entry of jobs needs the id CronList showed (a short string without control "
                           "characters), with its cron and prompt")
        out.append(j)
    return out


def _lifetime(days: Any) -> int | None:
    if days is None:
        return None
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_LIFETIME_DAYS:
        raise BadInput(f"job_lifetime_days must be the whole number of days after which the client says recurring "
                       f"jobs auto-expire (1 to {MAX_LIFETIME_DAYS}; e.g. 30 for Claude Code 2.1.332)")
    return days


def _valid_id(job_id: Any) -> bool:
    return (isinstance(job_id, str) and bool(job_id.strip()) and len(job_id) <= 200
            and not any(ord(c) < 32 for c in job_id))


_CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


def _check_target_host(run: str, target: str | None, host: str | None) -> tuple[str | None, str | None]:
    """``target`` and ``host`` checked the way ``stop_run`` checks them (they ride in every later check's prompt):
    one line each, no ``target=``/``host=``/``durable=`` text smuggled into the run or the target, a target
    ``stop_run`` accepts (``pid:N``, ``pidfile:/abs``, ``cmd:...``, ``tmux:name``, ``slurm:job``, ``wandb``) and a
    host ``user@host[:port]``, an ssh alias or ``local``."""
    from .runref import parse_run_ref as _ref
    from .sources.ssh import parse_host_spec
    from .stop_run import parse_target
    from .stoppers import processes, slurm, tmux

    for name, value in (("run", run), ("target", target), ("host", host)):
        if value is None:
            continue
        if not isinstance(value, str):
            raise BadInput(f"{name} must be a string")
        if _CONTROL_CHARS.search(value):
            raise BadInput(f"bad {name} {value[:60]!r}: one line without control characters (newlines ride into "
                           f"every later check's prompt)")
        if _ARG_SPLIT.search(" " + value.strip() if name != "run" else value):
            raise BadInput(f"bad {name} {value[:60]!r}: it holds target=/host=/durable= text; pass each argument "
                           f"on its own")
    if target is not None and target.strip():
        kind, value = parse_target("auto", target, _ref(run))
        checks: dict[str, Callable[[Any], object]] = {
            "pid": processes.parse_pid, "pidfile": processes.check_path, "cmd": processes.check_cmdline,
            "tmux": tmux.check_session_name, "slurm": slurm.check_job_id}
        if kind in checks:
            checks[kind](value)
        target = target.strip()
    if host is not None and host.strip():
        host = host.strip()
        if host.lower() != "local":
            if any(c.isspace() for c in host):
                raise BadInput(f"bad host {host[:60]!r}: pass user@host[:port] or an alias from ~/.ssh/config")
            parse_host_spec(host)
    return target or None, host or None


def reschedule(run: str, *, store: Store, config: Config, assessment_id: str | None = None,
               current_job_id: str | None = None, jobs: list | None = None, target: str | None = None,
               host: str | None = None, durable: bool = False, job_lifetime_days: int | None = None,
               now: datetime | None = None, sweep: bool = False, prune: bool = False) -> Schedule:
    """Pace the next check and say exactly which check jobs of this run to delete and whether to create one.
    ``sweep``: ``run`` is a sweep check's run part (runs apart by spaces, or ``project=entity/project``): one job
    for the whole sweep, paced by its last ``assess_runs`` check (any run not CONTINUE, or runs to prune, is an
    anomaly); ``prune``: the user allowed acting on the sweep's prune advice (it rides in the job's prompt)."""
    now = now or datetime.now(UTC)
    stated_days = _lifetime(job_lifetime_days)
    if sweep:
        from .sweep.check import sweep_assessment
        from .sweep.collect import sweep_arguments, sweep_key

        if target or host:
            raise BadInput("a sweep check takes no target/host: stop_run names each run's target")
        if not isinstance(run, str) or not run.strip() or any(c in run for c in "\r\n\x00"):
            raise BadInput("run must be the sweep's run references (apart by spaces) or project=entity/project")
        names, project = sweep_arguments(run)
        key = sweep_key(names, project, config)
    else:
        key = parse_run_ref(run, entity=config.wandb_entity, project=config.wandb_project).key
    if current_job_id is not None and not _valid_id(current_job_id):
        raise BadInput("current_job_id must be the id CronCreate returned (a short string without control characters)")
    listed = _jobs(jobs)
    if not sweep:
        target, host = _check_target_host(run, target, host)
    args = CheckArguments(" ".join(run.split()) if sweep else run.strip(), target or None, host or None,
                          bool(durable), run_tag(key), bool(prune) and sweep)
    prompt = args.prompt()
    assessment: AssessmentRecord | None = None
    if sweep:
        found = sweep_assessment(store, key)
        assessment = AssessmentRecord.from_dict(found) if found else None
    elif assessment_id:
        assessment = AssessmentRecord.from_dict(stored_assessment(store, assessment_id, key))
    else:
        recent = store.recent_assessments(key, 1)
        assessment = AssessmentRecord.from_dict(recent[0]) if recent else None
    aid = assessment.assessment_id if assessment else None
    reviews = [] if sweep else [r for r in map(ReviewRecord.from_dict, store.recent_reviews(key, 10))
                                if aid and r.assessment_id == aid]
    review = reviews[0] if reviews else None
    state = ScheduleState.from_dict(store.get_schedule(key))

    tag = run_tag(key)
    mine = [j for j in listed if _same_run(j.get("prompt"), key, tag, config)]
    ids = [j["id"] for j in mine]
    if not listed and current_job_id:
        ids = [current_job_id]  # no CronList given: the job that started this check is the one we know of
        mine = [{"id": current_job_id, "prompt": prompt}]
    elif current_job_id and current_job_id not in ids and state.awaiting_job_id:
        ids.append(current_job_id)
        mine.append({"id": current_job_id, "prompt": prompt})

    stopped = None if sweep else stop_in_force(key, assessment, review, store)
    if stopped:
        store.put_schedule(key, replace(state, stopped=True, assessment_id=aid, interval=None, awaiting_job_id=False,
                                        jobs_known={}, updated_at=now.isoformat()).to_dict())
        n = len(ids)
        return Schedule(run, None, f"{stopped}: stop checking it", None, None, prompt,
                        [{"id": i} for i in ids], None, None, None, True, aid,
                        f"STOP ({stopped}): delete {n} check job{'s' if n != 1 else ''} of this run"
                        + (f" ({', '.join(ids)})" if ids else "") + " and create none.")

    if assessment is None:
        rung, minutes, reason = 0, LADDER_MINUTES[0], "no assessment yet: first check in 10 minutes"
    elif aid == state.assessment_id and state.interval is not None:
        rung = 0 if state.rung is None else state.rung
        minutes, reason = state.interval, "already rescheduled for this assessment"
    else:
        anomaly = _anomalous(assessment, review)
        if assessment.verdict == WAIT:
            rung, minutes, reason = -1, WAIT_MINUTES, "too little data yet: look again soon"
        elif anomaly:
            rung, minutes, reason = 0, LADDER_MINUTES[0], f"{anomaly}: back to every {LADDER_MINUTES[0]} minutes"
        else:
            rung = min(int(-1 if state.rung is None else state.rung) + 1, len(LADDER_MINUTES) - 1)
            minutes = LADDER_MINUTES[rung]
            reason = "healthy: " + ("at the 60-minute cap" if rung == len(LADDER_MINUTES) - 1
                                    else f"up one rung to {minutes} minutes")

    # What each job is (CronList shows a schedule in words and a cut prompt): a job first seen now is the one the
    # last answer asked to create, with that answer's cron. When it started counts for the expiry, after the lifetime
    # the client states (else the one recorded for the job, else the shortest known).
    known: dict[str, dict] = {i: dict(v) for i, v in state.jobs_known.items() if i in ids}
    for j in mine:
        if j["id"] not in known:
            asked = state.awaiting_job_id and state.create_asked_at
            known[j["id"]] = {"cron": j.get("cron") if cron_interval(j.get("cron")) else state.asked_cron,
                              "since": asked or now.isoformat()}
        if stated_days:
            known[j["id"]]["lifetime_days"] = stated_days

    def lifetime(job_id: str | None) -> timedelta:
        return timedelta(days=(job_id and known[job_id].get("lifetime_days")) or stated_days or DEFAULT_LIFETIME_DAYS)

    def expiring(job_id: str) -> bool:
        return now >= datetime.fromisoformat(known[job_id]["since"]) + lifetime(job_id) - RENEW_MARGIN

    candidates = [j for j in mine if _shows(j.get("prompt"), prompt)
                  and cron_interval(known[j["id"]]["cron"]) == minutes and j.get("recurring", True) is not False
                  and _durable(j) in (None, bool(durable)) and not expiring(j["id"])]
    keep = next((j for j in candidates if j["id"] == current_job_id), candidates[0]) if candidates else None
    renewing = keep is None and any(expiring(i) for i in ids)

    if keep is not None:
        cron = known[keep["id"]]["cron"]
        cron_create = None
        created = datetime.fromisoformat(known[keep["id"]]["since"])
    else:
        cron = state.cron if state.interval == minutes and cron_interval(state.cron) == minutes \
            else cron_every(minutes, now + timedelta(minutes=minutes))
        cron_create = {"cron": cron, "prompt": prompt, "recurring": True, "durable": bool(durable)}
        created = now
    delete = [i for i in ids if keep is None or i != keep["id"]]
    if keep is not None:
        note = f"keep job {keep['id']}"
    else:
        days = max((lifetime(i).days for i in ids if expiring(i)), default=0)
        note = (f"renew the job (recurring jobs expire after {days} days): " if renewing else "") \
            + "create the check job"
    if delete:
        note = f"delete job{'s' if len(delete) > 1 else ''} {', '.join(delete)}; " + note
    renew_by = _iso(created + lifetime(keep["id"] if keep else None) - RENEW_MARGIN)
    store.put_schedule(key, ScheduleState(
        rung=rung, interval=minutes, cron=cron, assessment_id=aid, awaiting_job_id=cron_create is not None,
        create_asked_at=now.isoformat() if cron_create else state.create_asked_at,
        asked_cron=cron if cron_create else state.asked_cron,
        jobs_known={keep["id"]: known[keep["id"]]} if keep else {}, stopped=False,
        updated_at=now.isoformat()).to_dict())
    return Schedule(run, minutes, reason, _iso(now + timedelta(minutes=minutes)), cron, prompt,
                    [{"id": i} for i in delete], cron_create, keep["id"] if keep else None, renew_by, False, aid,
                    f"Next check in {minutes} min ({reason}); {note}.")


def _same_run(prompt: Any, key: str, tag: str, config: Config) -> bool:
    """Does a job with this prompt (as CronList shows it: maybe cut short) check the run whose store key is ``key``?"""
    if not isinstance(prompt, str):
        return False
    text = prompt.strip()
    marked = re.match(rf"^{re.escape(COMMAND)}\s+#([0-9a-f]{{8}})\b", text)
    if marked:
        return marked.group(1) == tag
    if _cut(text) != text:
        return False  # an unmarked prompt cut short: which run it checks cannot be told
    run = job_run(text)
    if run is None:
        return False
    try:
        return parse_run_ref(run, entity=config.wandb_entity, project=config.wandb_project).key == key
    except TrainingCheckError:
        return False


def _cut(text: str) -> str:
    """A prompt without the ellipsis CronList puts on one it cut short."""
    for end in ("\u2026", "..."):
        if text.endswith(end):
            return text[: -len(end)].rstrip()
    return text


def _shows(shown: Any, prompt: str) -> bool:
    """Is ``shown`` (CronList's view of a job's prompt) this prompt, whole or cut short?"""
    if not isinstance(shown, str):
        return False
    text = shown.strip()
    cut = _cut(text)
    return text == prompt or (cut != text and prompt.startswith(cut) and len(cut) >= SHOWN_PROMPT // 2)


def _durable(job: dict) -> bool | None:
    """A listed job's durability: CronList marks session-only jobs; None when the listing does not say."""
    if job.get("session_only") is True or job.get("durable") is False:
        return False
    if job.get("durable") is True or job.get("session_only") is False:
        return True
    return None
