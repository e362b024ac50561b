"""Stop a tmux session: Ctrl-C to every pane first, ``tmux kill-session -t =<name>`` after the grace period.

``=name`` is tmux's exact-match target syntax (a bare name would also match a prefix). Names are
validated first: letters, digits and ``_ - + @ % ,`` only, not starting with ``-``.
"""

from __future__ import annotations

import re
import time

from ..errors import BadInput, StopRefused
from .base import DEFAULT_GRACE_S, StopPlan
from .outcome import Clock, Runner, StopOutcome
from .processes import LocalProcesses, RemoteProcesses

NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_+@%,\-]{0,199}$")
SHELLS = {"bash", "sh", "zsh", "fish", "dash", "ksh", "tcsh", "csh"}
POLL_S = 0.1


def check_session_name(name) -> str:
    """A tmux session name safe to target exactly; anything else is refused."""
    if not isinstance(name, str) or not NAME.match(name):
        raise BadInput(f"bad tmux session name {str(name)[:60]!r}: letters, digits and _-+@%, only, "
                       f"not starting with '-' (no ':' or '.')")
    return name


def _exists(run: Runner, name: str, where: str) -> bool:
    rc, _, err = run(["tmux", "has-session", "-t", f"={name}"], 20.0)
    if rc == 127:
        raise StopRefused(f"tmux is not installed on {where}")
    return rc == 0


def _panes(run: Runner, name: str) -> list[tuple[str, str]]:
    """(pane id, current command) of every pane in the session."""
    rc, out, _ = run(["tmux", "list-panes", "-s", "-t", f"={name}", "-F", "#{pane_id} #{pane_current_command}"], 20.0)
    if rc != 0:
        return []
    panes = []
    for line in out.splitlines():
        pane, _, cmd = line.partition(" ")
        if pane.startswith("%"):
            panes.append((pane, cmd.strip()))
    return panes


def pane_pids(run: Runner, name: str) -> list[int]:
    """The PIDs of the programs the session's panes started (their shells or commands)."""
    rc, out, _ = run(["tmux", "list-panes", "-s", "-t", f"={name}", "-F", "#{pane_pid}"], 20.0)
    return [int(x) for x in out.split() if x.isdigit()] if rc == 0 else []


def session_identity(run: Runner, name: str) -> str | None:
    """The session's id and creation time: a new session of the same name is a different one."""
    rc, out, _ = run(["tmux", "display-message", "-p", "-t", f"={name}", "#{session_id} #{session_created}"], 20.0)
    return out.strip() or None if rc == 0 else None


def plan(run: Runner, name, where: str) -> tuple[str, list[str]]:
    name = check_session_name(name)
    if not _exists(run, name, where):
        raise StopRefused(f"no tmux session named exactly {name!r} on {where}; nothing was stopped")
    cmds = ", ".join(sorted({c for _, c in _panes(run, name)})) or "?"
    return name, [f"Ctrl-C to every pane of tmux session {name!r} on {where} (running: {cmds})",
                  "wait for the programs to exit (up to the grace period)",
                  f"tmux kill-session -t ={name}", "confirm the session is gone"]


def execute(run: Runner, name: str, where: str, host: str | None, *, grace_s: float = 30.0,
            poll_s: float = POLL_S) -> StopOutcome:
    clock = Clock()
    out = StopOutcome("tmux", f"tmux session {name}", host, False, "session still there")
    panes = _panes(run, name)
    for pane, _cmd in panes:
        run(["tmux", "send-keys", "-t", pane, "C-c"], 20.0)
    out.actions.append(clock.stamp(f"sent Ctrl-C to {len(panes)} pane(s) of {name!r}"))
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        if not _exists(run, name, where):
            out.signal_used = "INT"
            out.actions.append(clock.stamp("the session closed after Ctrl-C"))
            break
        if all(c in SHELLS for _, c in _panes(run, name)):
            out.signal_used = "INT"
            out.actions.append(clock.stamp("the programs exited after Ctrl-C (panes back at a shell)"))
            break
        time.sleep(poll_s)
    if _exists(run, name, where):
        rc, _, err = run(["tmux", "kill-session", "-t", f"={name}"], 20.0)
        failed = "" if rc == 0 else f" failed: {err.strip()[:200]}"
        out.actions.append(clock.stamp(f"tmux kill-session -t ={name}{failed}"))
        if out.signal_used is None:
            out.signal_used = "HUP"  # kill-session hangs up the panes' processes
    gone = not _exists(run, name, where)
    out.stopped = gone
    out.final_state = "session gone" if gone else "session still there"
    out.elapsed_s = round(clock.since(), 3)
    out.actions.append(clock.stamp(f"confirmed: {out.final_state}"))
    return out


class TmuxStopper:
    """The ``Stopper`` for a tmux session: Ctrl-C to its panes, ``kill-session`` after the grace period."""

    kind = "tmux"

    def __init__(self, procs: LocalProcesses | RemoteProcesses, runner: Runner, where: str, host: str | None):
        self.procs, self.runner, self.where, self.host = procs, runner, where, host

    def plan(self, value: str | None, grace_s: float = DEFAULT_GRACE_S) -> StopPlan:
        name, steps = plan(self.runner, value, self.where)
        return StopPlan("tmux", name, f"tmux session {name}", "tmux", steps, grace_s, f"session ={name} exists")

    def execute(self, plan: StopPlan) -> StopOutcome:
        return execute(self.runner, str(plan.value), self.where, self.host, grace_s=plan.grace_s)
