"""The agent-less watcher: the same check as the slash command, on the same ladder, for people without an agent.

Each due run is assessed; an ESCALATE goes to the reviewer when one is
configured; a STOP (verdict or review) stops the run only when stopping was
allowed; ``reschedule`` paces the next check. Anomalies are notified (the
caller's ``notify`` — stdout, a webhook). The watcher's own state (next due
time, last verdict) lives in the store under ``watch:<run key>``, so a
restarted watcher resumes where it left off. A run that vanishes is reported
once and dropped; the others go on. After a STOP (verdict or review, stopped
or not) the run is not checked again, also by a restarted watcher, until a
newer check of it (``training-check check RUN``) says something else.

Stopping goes through stop_run's own guard for each run: the target must be
tied to that run (it writes the run's log) or named for it by a person
(``training-check target RUN TARGET``, which ``prepare_stop`` does for the one
run of ``watch RUN --stop-target T``). Without a target, stop_run's default is
used: the remembered target, else the process that writes the run's log.
"""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from .config import Config
from .errors import BadInput, RunNotFound, SourceUnreachable, TrainingCheckError
from .findings import WARN
from .judge import ESCALATE, STOP, UNREACHABLE
from .redact import redact_json
from .runref import parse_run_ref
from .sources.base import Progress
from .stop_target import default_target, remembered
from .store import Store

ANOMALIES = (STOP, ESCALATE, UNREACHABLE)
DEFAULT_INTERVAL_S = 600.0  # when reschedule gives no interval: the ladder's first rung (10 min)
RETRY_ERROR_S = 300.0  # a failed check is retried after 5 minutes
WEBHOOK_TIMEOUT_S = 10.0
STATE_PREFIX = "watch:"
ERROR, VANISHED, STOPPED = "ERROR", "VANISHED", "STOPPED"  # the watcher's own states, beside the verdicts
WORST_FIRST = (STOP, STOPPED, ESCALATE, UNREACHABLE, ERROR, VANISHED, "WAIT", "CONTINUE")


@dataclass
class WatchEvent:
    """What one check of one run found and did."""

    run: str
    verdict: str  # CONTINUE / WAIT / ESCALATE / STOP / UNREACHABLE / ERROR / VANISHED
    line: str  # one human line
    anomaly: bool
    assessment_id: str | None = None
    review: dict | None = None
    stop: dict | None = None
    next_check_at: float | None = None
    notes: list[str] = field(default_factory=list)
    at: float = field(default_factory=time.time)

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v not in (None, [], {})}


def reviewer_configured(config: Config, env: Mapping[str, str] | None = None) -> bool:
    """True when a reviewer backend is set up (an OpenAI key, or the codex backend)."""
    source: Mapping[str, str] = os.environ if env is None else env
    backend = source.get("REVIEWER_BACKEND") or config.reviewer.get("backend")
    return bool(source.get("OPENAI_API_KEY")) or backend == "codex"


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _as_dict(obj: Any) -> dict:
    if obj is None:
        return {}
    if isinstance(obj, dict):
        return obj
    return obj.to_dict() if hasattr(obj, "to_dict") else asdict(obj)


def next_due(schedule: dict, now: float) -> float:
    """The epoch time of the next check from a reschedule answer (next check time, else its interval)."""
    for key in ("next_check_at", "next_check", "next_check_time", "next_at"):
        v = schedule.get(key)
        if isinstance(v, (int, float)) and v > 0:
            return float(v)
        if isinstance(v, str):
            try:
                return datetime.fromisoformat(v.replace("Z", "+00:00")).timestamp()
            except ValueError:
                pass
    for key, scale in (("interval_minutes", 60.0), ("interval_min", 60.0), ("interval_s", 1.0),
                       ("interval_seconds", 1.0)):
        v = schedule.get(key)
        if isinstance(v, (int, float)) and v > 0:
            return now + float(v) * scale
    return now + DEFAULT_INTERVAL_S


def post_webhook(url: str, event: WatchEvent, timeout_s: float = WEBHOOK_TIMEOUT_S) -> None:
    """POST the event as JSON with a Slack-style ``text`` field; raises SourceUnreachable on failure."""
    if not url.startswith(("http://", "https://")):
        raise BadInput(f"webhook URL must start with http:// or https://, got {url[:40]!r}")
    body = redact_json(json.dumps({"text": f"training-check: {event.line}", "event": event.to_dict()})).encode()
    req = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout_s) as resp:
            resp.read(1024)
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", None) or getattr(e, "code", None) or e
        raise SourceUnreachable(f"webhook {url.split('?')[0]} failed: {reason}") from None


class Watcher:
    """Checks each due run once per ``check_due`` call; ``run`` loops until ``stop_event`` is set."""

    def __init__(self, runs: list[str], *, store: Store, config: Config,
                 notify: Callable[[WatchEvent], None] = lambda e: None, allow_stop: bool = False,
                 stop_target: str | None = None, stop_host: str | None = None, use_reviewer: bool | None = None,
                 fallback_log: str | None = None, progress: Callable[[str], Progress | None] | None = None,
                 clock: Callable[[], float] = time.time, every_s: float | None = None):
        if not runs:
            raise BadInput("watch needs at least one run")
        if every_s is not None and not (isinstance(every_s, (int, float)) and 1.0 <= every_s <= 7 * 86400):
            raise BadInput(f"the check interval must be between 1 second and 7 days, got {every_s!r} s")
        self.every_s = every_s
        self.store, self.config, self.notify = store, config, notify
        self.allow_stop, self.stop_target, self.stop_host = allow_stop, stop_target, stop_host
        self.use_reviewer = reviewer_configured(config) if use_reviewer is None else use_reviewer
        self.fallback_log, self.progress, self.clock = fallback_log, progress, clock
        self.keys = {r: parse_run_ref(r, entity=config.wandb_entity, project=config.wandb_project).key for r in runs}
        self.vanished = [r for r in runs if self.state(r).get("vanished")]
        self.halted = [r for r in runs if r not in self.vanished and self._still_halted(r)]
        self.active = [r for r in runs if r not in self.vanished and r not in self.halted]

    # -- state in the store ----------------------------------------------------------------------------
    def state(self, run: str) -> dict:
        return self.store.get_schedule(STATE_PREFIX + self.keys[run]) or {}

    def _save(self, run: str, **changes: Any) -> None:
        self.store.put_schedule(STATE_PREFIX + self.keys[run], {**self.state(run), "run": run, **changes,
                                                               "updated_at": self.clock()})

    def due_at(self, run: str) -> float:
        st = self.state(run)
        due = float(st.get("next_check_at") or 0.0)
        if self.every_s and st.get("updated_at"):
            due = min(due, float(st["updated_at"]) + self.every_s)  # --every: never later than that
        return due

    def due_times(self) -> dict[str, float]:
        """When each active run is checked next (epoch seconds)."""
        return {r: self.due_at(r) for r in self.active}

    def _still_halted(self, run: str) -> bool:
        """A run a STOP halted stays halted until a newer check of it (by anyone) says something else."""
        st = self.state(run)
        if not st.get("halted"):
            return False
        from .stop_run import latest_judgment

        latest = latest_judgment(self.store, self.keys[run])
        said = getattr(latest, "verdict", None) or getattr(latest, "decision", None)
        if latest is not None and float(latest.created_at or 0) > float(st.get("updated_at") or 0) and said != STOP:
            self._save(run, halted=False)
            return False
        return True

    def last_verdicts(self) -> dict[str, str]:
        """The latest verdict the watcher knows for each watched run (VANISHED / STOPPED included)."""
        return {r: str(self.state(r).get("last_verdict") or "") for r in self.keys}

    def worst(self) -> str | None:
        """The worst of the last verdicts (STOP first), None when no run was ever checked."""
        known = [v for v in self.last_verdicts().values() if v]
        rank = {v: i for i, v in enumerate(WORST_FIRST)}
        return min(known, key=lambda v: rank.get(v, len(WORST_FIRST) - 2), default=None)

    def prepare_stop(self) -> list[str]:
        """Before the first check, when stopping is allowed: what a STOP will stop for each run, in a person's
        words. The one run of ``watch RUN --stop-target T`` gets T named for it (as ``training-check target``)."""
        if not self.allow_stop:
            return []
        from .stop_run import name_target

        runs = list(self.keys)
        if self.stop_target and len(runs) == 1:
            named = remembered(self.store, self.keys[runs[0]])
            if named is not None and named.target == self.stop_target.strip():
                # named before (an earlier watch, or training-check target): not named again, so a PID reused
                # since by another program is refused by stop_run's guard, not blessed by a cron'd restart
                return [f"{runs[0]}: a STOP stops {named.target}, named for this run before"]
            return [name_target(runs[0], self.stop_target, store=self.store, config=self.config,
                                host=self.stop_host)]
        if self.stop_target:
            return [f"--stop-target {self.stop_target} is stopped for a run only when it writes that run's log "
                    f"or was named for it (training-check target RUN {self.stop_target})"]
        lines = []
        for run in runs:
            ref = parse_run_ref(run, entity=self.config.wandb_entity, project=self.config.wandb_project)
            d = default_target(ref, self.store, self.stop_host)
            if d.target or ref.kind == "wandb":
                lines.append(f"{run}: a STOP stops {d.target or 'the W&B run'} ({d.why})")
            else:
                lines.append(f"{run}: nothing to stop yet: {d.why}; a STOP looks again, or pass --stop-target "
                             f"pid:N (or name it: training-check target {run} pid:N)")
        return lines

    def next_wakeup(self) -> float | None:
        return min((self.due_at(r) for r in self.active), default=None)

    # -- checking --------------------------------------------------------------------------------------
    def check_due(self) -> list[WatchEvent]:
        """Check every active run whose time has come; returns what happened, in run order."""
        now = self.clock()
        events = []
        for run in list(self.active):
            if self.due_at(run) <= now:
                events.append(self.check(run))
        return events

    def check(self, run: str) -> WatchEvent:
        """One whole check of one run; never raises for a run's own failure."""
        from .assess import assess_run

        prev = self.state(run).get("last_verdict")
        try:
            progress = self.progress(run) if self.progress else None
            a = assess_run(run, store=self.store, config=self.config, fallback_log=self.fallback_log,
                           progress=progress)
        except RunNotFound as e:
            return self._vanish(run, e.message)
        except SourceUnreachable as e:
            return self._finish(run, WatchEvent(run, UNREACHABLE, f"UNREACHABLE {run}: {e.message}", True),
                                prev, retry_s=RETRY_ERROR_S)
        except TrainingCheckError as e:
            return self._finish(run, WatchEvent(run, ERROR, f"ERROR {run}: {e.message}", True), prev,
                                retry_s=RETRY_ERROR_S)
        verdict = str(_get(a, "verdict"))
        aid = _get(a, "assessment_id")
        event = WatchEvent(run, verdict, f"{verdict} {run}: {_get(a, 'summary') or ''}".strip(),
                           verdict in ANOMALIES or any(_get(f, "status") == WARN for f in _get(a, "findings") or []),
                           assessment_id=aid)
        if _get(a, "fallback_reason"):
            event.notes.append(f"read the fallback log because: {_get(a, 'fallback_reason')}")
        review_id = None
        decision = verdict
        if verdict == ESCALATE:
            if self.use_reviewer:
                decision, review_id = self._review(run, a, event)
            else:
                event.notes.append("no reviewer configured: a person should look (set OPENAI_API_KEY or "
                                   "REVIEWER_BACKEND=codex)")
        if decision == STOP:
            self._stop(run, aid, review_id, a, event)
        return self._reschedule(run, aid, event, prev, halt=decision == STOP)

    def _review(self, run: str, a: Any, event: WatchEvent) -> tuple[str, str | None]:
        from .reviewer import escalate_to_reviewer

        concern = _get(a, "concern") or _get(a, "summary") or "the assessment was ambiguous"
        try:
            r = escalate_to_reviewer(store=self.store, config=self.config, concern=str(concern),
                                     assessment_id=_get(a, "assessment_id"), run=run)
        except TrainingCheckError as e:
            event.notes.append(f"reviewer failed: {e.message}")
            return ESCALATE, None
        event.review = {"review_id": _get(r, "review_id"), "decision": _get(r, "decision"),
                        "reason": _get(r, "reason")}
        event.line += f" | reviewer: {_get(r, 'decision')} ({_get(r, 'reason')})"
        return str(_get(r, "decision")), _get(r, "review_id")

    def _stop(self, run: str, aid: str | None, review_id: str | None, a: Any, event: WatchEvent) -> None:
        event.anomaly = True
        if not self.allow_stop:
            event.notes.append("would stop this run: pass --allow-stop to let the watcher stop it")
            return
        from .stop_run import stop_run

        reason = f"training-check watch: {_get(a, 'summary') or 'STOP verdict'}"
        if not self.stop_target:
            ref = parse_run_ref(run, entity=self.config.wandb_entity, project=self.config.wandb_project)
            d = default_target(ref, self.store, self.stop_host)
            if d.target is None and ref.kind != "wandb":
                event.notes.append(f"not stopped: {d.why}; stop it yourself (training-check stop {run} --reason "
                                   f"WHY --target pid:N), or pass --stop-target pid:N next time")
                return
        try:  # stop_run's own guard, for this run: the target must be tied to it or named for it by a person
            s = stop_run(run, reason, store=self.store, config=self.config,
                         assessment_id=None if review_id else aid, review_id=review_id,
                         target=self.stop_target, host=self.stop_host)
        except TrainingCheckError as e:
            event.notes.append(f"stop failed: {e.message}")
            return
        event.stop = _as_dict(s)
        event.line += f" | stopped: {_get(s, 'summary') or 'done'}"

    def _reschedule(self, run: str, aid: str | None, event: WatchEvent, prev: str | None,
                    halt: bool = False) -> WatchEvent:
        from .schedule import reschedule

        now = self.clock()
        try:
            sched = _as_dict(reschedule(run, store=self.store, config=self.config, assessment_id=aid))
            due = next_due(sched, now)
        except TrainingCheckError as e:
            event.notes.append(f"reschedule failed: {e.message}")
            due = now + DEFAULT_INTERVAL_S
        if self.every_s:
            due = now + self.every_s
        if halt:  # a STOP: no more checks of this run (stopped or not), also after a restart
            self._save(run, next_check_at=None, last_verdict=STOPPED if event.stop else STOP,
                       last_assessment_id=aid, stopped=bool(event.stop), halted=True)
            self.active.remove(run)
            self.halted.append(run)
            event.next_check_at = None
            event.notes.append(f"no more checks of this run (training-check check {run} looks again)")
        else:
            self._save(run, next_check_at=due, last_verdict=event.verdict, last_assessment_id=aid)
            event.next_check_at = due
        if not event.anomaly and prev in (*ANOMALIES, ERROR):
            event.anomaly = True  # a recovery is worth a notification too
            event.notes.append(f"recovered (was {prev})")
        self._emit(event)
        return event

    def _finish(self, run: str, event: WatchEvent, prev: str | None, retry_s: float) -> WatchEvent:
        event.next_check_at = self.clock() + retry_s
        self._save(run, next_check_at=event.next_check_at, last_verdict=event.verdict)
        if prev == event.verdict:
            event.anomaly = False  # already told: say it once, not every retry
        self._emit(event)
        return event

    def _vanish(self, run: str, message: str) -> WatchEvent:
        self._save(run, vanished=True, last_verdict=VANISHED)
        self.active.remove(run)
        self.vanished.append(run)
        rest = len(self.active)
        event = WatchEvent(run, VANISHED, f"VANISHED {run}: {message}; still watching {rest} other run"
                                            f"{'' if rest == 1 else 's'}", True)
        self._emit(event)
        return event

    def _emit(self, event: WatchEvent) -> None:
        try:
            self.notify(event)
        except Exception as e:  # a broken notifier must not stop the watch
            event.notes.append(f"notification failed: {e}")

    # -- the loop --------------------------------------------------------------------------------------
    def run(self, stop_event: threading.Event, max_sleep_s: float = 60.0,
            waiting: Callable[[dict[str, float]], None] | None = None) -> None:
        """Check due runs until ``stop_event`` is set or no run is left; ``waiting`` hears each new set of due
        times (run -> epoch seconds) before the watcher sleeps."""
        told: dict[str, float] | None = None
        while not stop_event.is_set() and self.active:
            self.check_due()
            wake = self.next_wakeup()
            if wake is None:
                break
            due = self.due_times()
            if waiting is not None and due != told:
                told = due
                waiting(due)
            stop_event.wait(max(0.5, min(max_sleep_s, wake - self.clock())))
