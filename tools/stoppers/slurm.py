"""Stop a Slurm job with ``scancel <jobid>`` (argv, no shell) and confirm its state with ``scontrol``.

Slurm's own cancel is already graceful: SIGTERM to every step, SIGKILL after the cluster's KillWait.
Job ids are validated (``^\\d+(_\\d+)?$``: a job or an array task) before anything runs.
"""

from __future__ import annotations

import re
import time

from ..errors import BadInput, StopRefused
from .base import DEFAULT_GRACE_S, StopPlan
from .outcome import Clock, Runner, StopOutcome
from .processes import LocalProcesses, RemoteProcesses

JOB_ID = re.compile(r"^\d{1,12}(_\d{1,9})?$")
ACTIVE = {"PENDING", "RUNNING", "SUSPENDED", "COMPLETING", "CONFIGURING", "REQUEUED", "RESIZING", "SIGNALING",
          "STAGE_OUT", "STOPPED", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD"}
POLL_S = 0.5
SLURM_CONFIRM_S = 10.0  # after the grace period, how much longer the job is watched for its end


def check_job_id(job) -> str:
    """A Slurm job id (``123`` or array task ``123_4``); anything else is refused."""
    text = str(job).strip() if isinstance(job, (str, int)) and not isinstance(job, bool) else ""
    if not JOB_ID.match(text):
        raise BadInput(f"bad Slurm job id {str(job)[:60]!r}: pass digits, or digits_digits for an array task")
    return text


def job_state(run: Runner, job: str, where: str, timeout_s: float = 20.0) -> str | None:
    """The job's state (RUNNING, CANCELLED, ...), or None when Slurm no longer knows it."""
    rc, out, err = run(["scontrol", "show", "job", "-o", job], timeout_s)
    if rc == 127:
        raise StopRefused(f"scontrol is not installed on {where}: is this a Slurm host?")
    if rc != 0:
        if "invalid job id" in (err + out).lower():
            return None
        raise StopRefused(f"scontrol show job {job} failed on {where}: {(err or out).strip()[:200]}")
    m = re.search(r"\bJobState=(\S+)", out)
    return m.group(1) if m else None


AMBIGUOUS = "?ambiguous"  # the key listing fields that appear more than once (a job name or path holding "X=...")


def job_fields(run: Runner, job: str, timeout_s: float = 20.0) -> dict[str, str]:
    """``scontrol show job -o`` as a dict (UserId, WorkDir, StdOut, Command, SubmitTime, ...); {} when unknown.

    A job's name, comment or paths may hold text such as `` StdOut=/other/run.log``: a field seen more than once
    is ambiguous, listed (comma-separated) under ``AMBIGUOUS`` and never to be trusted."""
    rc, out, _ = run(["scontrol", "show", "job", "-o", job], timeout_s)
    if rc != 0:
        return {}
    fields: dict[str, str] = {}
    seen_twice: set[str] = set()
    for m in re.finditer(r"(?:^|\s)([A-Za-z:/]+)=(\S*)", out):
        if m.group(1) in fields:
            seen_twice.add(m.group(1))
        fields.setdefault(m.group(1), m.group(2))
    if seen_twice:
        fields[AMBIGUOUS] = ",".join(sorted(seen_twice))
    return fields


def job_pids(run: Runner, job: str, timeout_s: float = 20.0) -> list[int]:
    """The PIDs of the job's processes on this node (``scontrol listpids``: every step, the batch script too)."""
    rc, out, _ = run(["scontrol", "listpids", check_job_id(job)], timeout_s)
    if rc != 0:
        return []
    pids = []
    for line in out.splitlines()[1:]:
        first = line.split(maxsplit=1)[0] if line.strip() else ""
        if first.isdigit() and int(first) > 1:
            pids.append(int(first))
    return pids[:4096]


def plan(run: Runner, job, where: str) -> tuple[str, list[str]]:
    """(job id, the steps) after checking the job exists and is active."""
    job, _state, steps = _checked(run, job, where)
    return job, steps


def _checked(run: Runner, job, where: str) -> tuple[str, str, list[str]]:
    job = check_job_id(job)
    state = job_state(run, job, where)
    if state is None:
        raise StopRefused(f"Slurm does not know job {job} on {where}: check the job id; nothing was cancelled")
    if state not in ACTIVE:
        raise StopRefused(f"Slurm job {job} on {where} is already {state}; nothing to cancel")
    return job, state, [f"scancel {job} on {where} (job is {state}; Slurm sends SIGTERM, SIGKILL after KillWait)",
                        "confirm the job state is CANCELLED (or gone)"]


def execute(run: Runner, job: str, where: str, host: str | None, *, grace_s: float = 30.0,
            poll_s: float = POLL_S) -> StopOutcome:
    clock = Clock()
    out = StopOutcome("slurm", f"slurm job {job}", host, False, "unknown")
    rc, _, err = run(["scancel", job], 30.0)
    if rc != 0:
        out.actions.append(clock.stamp(f"scancel {job} failed: {err.strip()[:200] or f'exit {rc}'}"))
        out.final_state = job_state(run, job, where) or "unknown"
        out.elapsed_s = round(clock.since(), 3)
        return out
    out.actions.append(clock.stamp(f"scancel {job}"))
    deadline = time.monotonic() + grace_s + SLURM_CONFIRM_S
    state = job_state(run, job, where)
    while state in ACTIVE and time.monotonic() < deadline:
        time.sleep(poll_s)
        state = job_state(run, job, where)
    out.final_state = state or "gone"
    out.stopped = state not in ACTIVE
    out.elapsed_s = round(clock.since(), 3)
    out.actions.append(clock.stamp(f"job {job} is {out.final_state}" + ("" if out.stopped else " (STILL ACTIVE)")))
    return out


class SlurmStopper:
    """The ``Stopper`` for a Slurm job: ``scancel``, then watch its state."""

    kind = "slurm"

    def __init__(self, procs: LocalProcesses | RemoteProcesses, runner: Runner, where: str, host: str | None):
        self.procs, self.runner, self.where, self.host = procs, runner, where, host

    def plan(self, value: str | None, grace_s: float = DEFAULT_GRACE_S) -> StopPlan:
        job, state, steps = _checked(self.runner, value, self.where)
        return StopPlan("slurm", job, f"slurm job {job}", "slurm", steps, grace_s, f"job {job} is {state}")

    def execute(self, plan: StopPlan) -> StopOutcome:
        return execute(self.runner, str(plan.value), self.where, self.host, grace_s=plan.grace_s)
