"""Stop a process by signal: SIGINT, then SIGTERM, then SIGKILL after the grace period; confirm it is gone.

Targets: a PID, a pidfile, or the process whose command line is EXACTLY the one given (argv equality or
the full space-joined command line, never a substring). Works on this machine or over SSH through a
process table (processes.py). Refused: a PID that does not exist, a zombie, a kernel thread, a process
of another user (any uid but our own: as root, that means every non-root process too), and always PID 1,
this process and every one of its ancestors.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..errors import BadInput, StopRefused
from .base import DEFAULT_GRACE_S, StopPlan
from .outcome import Clock, Runner, StopOutcome
from .processes import LocalProcesses, ProcInfo, RemoteProcesses, check_cmdline, check_path, parse_pid

KILL_WAIT_S = 10.0
POLL_S = 0.05


@dataclass
class SignalPlan:
    """A checked, not yet executed, signal stop."""

    info: ProcInfo
    how_found: str  # "pid 123" / "pidfile /run/train.pid" / "exact command line"
    grace_s: float
    host: str | None

    @property
    def target(self) -> str:
        return f"pid {self.info.pid} ({self.info.short()})"

    def steps(self) -> list[str]:
        half = self.grace_s / 2
        where = self.host or "this machine"
        return [f"SIGINT to PID {self.info.pid} on {where} ({self.info.short()}), found by {self.how_found}",
                f"if still running after {half:g}s: SIGTERM",
                f"if still running after {self.grace_s:g}s: SIGKILL",
                "confirm the process is gone"]


def check_process(procs, pid: int) -> ProcInfo:
    """The process to stop, or StopRefused saying why it may not be stopped."""
    where = procs.label
    if pid in procs.protected():
        raise StopRefused(f"refusing to signal PID {pid} on {where}: it is init, training-check itself or one of "
                          f"the processes that started it")
    info = procs.info(pid)
    if info is None:
        raise StopRefused(f"no process with PID {pid} on {where}: it has exited or the PID is wrong; "
                          f"nothing was signalled")
    if info.zombie:
        raise StopRefused(f"PID {pid} on {where} has already exited (zombie); nothing to stop")
    if info.uid is None:
        raise StopRefused(f"cannot inspect PID {pid} on {where} (permission denied): it belongs to another user")
    if not info.argv or info.ppid == 2:
        raise StopRefused(f"refusing to signal PID {pid} on {where}: it is a kernel thread")
    euid = procs.euid()
    if info.uid != euid:
        raise StopRefused(f"PID {pid} on {where} belongs to uid {info.uid}, not to this user (uid {euid}): "
                          f"refusing to signal another user's process")
    return info


def plan_pid(procs, pid, grace_s: float = DEFAULT_GRACE_S) -> SignalPlan:
    pid = parse_pid(pid)
    return SignalPlan(check_process(procs, pid), f"pid {pid}", grace_s, procs.host)


def plan_pidfile(procs, path: str, grace_s: float = DEFAULT_GRACE_S) -> SignalPlan:
    path = check_path(path, "pidfile")
    text = procs.read_pidfile(path).strip()
    if not text.isdigit():
        # never quote what the file holds: it may be any file the caller can name (/etc/shadow, a .env)
        raise StopRefused(f"pidfile {path} does not hold a PID (a single number); nothing was signalled")
    pid = parse_pid(text)
    return SignalPlan(check_process(procs, pid), f"pidfile {path}", grace_s, procs.host)


def plan_cmdline(procs, cmd: str, grace_s: float = DEFAULT_GRACE_S) -> SignalPlan:
    cmd = check_cmdline(cmd)
    found = procs.find_exact(cmd)
    if not found:
        raise StopRefused(f"no process on {procs.label} has exactly the command line {cmd[:120]!r} "
                          f"(exact match, not substring); nothing was signalled")
    if len(found) > 1:
        pids = ", ".join(str(p.pid) for p in found[:10])
        raise StopRefused(f"{len(found)} processes on {procs.label} have exactly that command line (PIDs {pids}): "
                          f"pass target='pid:N' for the one to stop")
    return SignalPlan(check_process(procs, found[0].pid), "exact command line", grace_s, procs.host)


def _same(procs, info: ProcInfo) -> bool:
    """Is the original process still there (not exited, not a zombie, PID not reused)?"""
    now = procs.info(info.pid)
    return now is not None and not now.zombie and now.start == info.start


def _wait_gone(procs, info: ProcInfo, timeout_s: float, poll_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while True:
        if not _same(procs, info):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(poll_s)


def execute(procs, plan: SignalPlan, *, kill_after: bool = True, kill_wait_s: float = KILL_WAIT_S,
            poll_s: float = POLL_S) -> StopOutcome:
    """Run the plan: SIGINT, SIGTERM at grace/2, SIGKILL at grace; report each action and the final state."""
    clock = Clock()
    info = plan.info
    out = StopOutcome("signal", plan.target, procs.host, False, "still running")
    half = plan.grace_s / 2
    steps = [("INT", half), ("TERM", half)] + ([("KILL", kill_wait_s)] if kill_after else [])
    for sig, wait_s in steps:
        if not _same(procs, info):
            break
        if procs.send(info.pid, sig, info.start) == "gone":
            out.actions.append(clock.stamp(f"PID {info.pid} exited before SIG{sig}"))
            break
        out.actions.append(clock.stamp(f"sent SIG{sig} to PID {info.pid}"))
        if _wait_gone(procs, info, wait_s, poll_s):
            out.signal_used = sig
            break
    out.elapsed_s = round(clock.since(), 3)
    if not _same(procs, info):
        out.stopped, out.final_state = True, "gone"
        out.actions.append(clock.stamp(f"confirmed: PID {info.pid} is gone"))
    else:
        out.actions.append(clock.stamp(f"PID {info.pid} is STILL RUNNING"
                                       + (" after SIGKILL (uninterruptible sleep?)" if kill_after else "")))
    return out


PLANNERS = {"pid": plan_pid, "pidfile": plan_pidfile, "cmd": plan_cmdline}


class ProcessStopper:
    """The ``Stopper`` for a process named by PID, pidfile or exact command line (``kind``), here or over SSH."""

    def __init__(self, kind: str, procs: LocalProcesses | RemoteProcesses, runner: Runner, where: str,
                 host: str | None, *, kill_after: bool = True):
        self.kind, self.procs, self.runner, self.where, self.host = kind, procs, runner, where, host
        self.kill_after = kill_after

    def plan(self, value: str | None, grace_s: float = DEFAULT_GRACE_S) -> StopPlan:
        if value is None:
            raise BadInput(f"target for method {self.kind!r} is empty: e.g. {self.kind}:...")
        sig = PLANNERS[self.kind](self.procs, value, grace_s)
        return StopPlan(self.kind, value, sig.target, f"signal ({self.kind})", sig.steps(), grace_s, sig.how_found,
                        process=sig.info)

    def execute(self, plan: StopPlan) -> StopOutcome:
        assert plan.process is not None
        return execute(self.procs, SignalPlan(plan.process, plan.checked, plan.grace_s, self.procs.host),
                       kill_after=self.kill_after)
