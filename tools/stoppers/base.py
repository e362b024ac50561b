"""The one protocol every stopper follows, the way every Optuna pruner answers ``prune()``.

A stopper is built for one target kind on one machine (``stoppers.factory.make_stopper``). ``plan(value, grace_s)``
looks before acting (read-only) and returns a ``StopPlan``; ``execute(plan)`` acts on exactly that plan and returns
a ``StopOutcome`` (outcome.py).

The grace period (``grace_s``) has one meaning for every stopper: how long the run gets to exit on its own after
the first, gentle stop request before it is forced. Process signals: SIGINT, SIGTERM at ``grace_s / 2``, SIGKILL at
``grace_s``. tmux: Ctrl-C to every pane, ``kill-session`` at ``grace_s``. Slurm: ``scancel`` (Slurm forces the job
itself after its own KillWait); the job is watched for ``grace_s`` plus ``SLURM_CONFIRM_S``. W&B: the API's stop has
no forcing step, so the grace period does not apply; the run's state is watched for ``WANDB_CONFIRM_S``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .outcome import Runner, StopOutcome
from .processes import LocalProcesses, ProcInfo, RemoteProcesses

DEFAULT_GRACE_S = 30.0


@dataclass
class StopPlan:
    """A checked, not yet executed, stop: what will be stopped, how, in which steps."""

    kind: str  # the target's kind: pid, pidfile, cmd, slurm, tmux, wandb
    value: str | None  # the checked target value (job id, session name, ...); None for a W&B run
    target: str  # e.g. "pid 1234 (python train.py)", "slurm job 42", "tmux session train", "W&B run e/p/id"
    mechanism: str  # how it is stopped: "signal (pid)", "slurm", "tmux", "wandb"
    steps: list[str]
    grace_s: float
    checked: str  # what was checked to find it: "pid 123", "pidfile /run/x.pid", "job 42 is RUNNING", ...
    process: ProcInfo | None = None  # the process identity checked (pid, start time, uid, argv), for process targets
    notes: dict[str, str] = field(default_factory=dict)


class Stopper(Protocol):
    """Stops one kind of target on one machine."""

    kind: str
    where: str  # "this machine" or the SSH target's label
    host: str | None  # None = this machine
    runner: Runner  # runs argv here or over SSH
    procs: LocalProcesses | RemoteProcesses  # the machine's process table (ties, identities)

    def plan(self, value: str | None, grace_s: float = DEFAULT_GRACE_S) -> StopPlan: ...

    def execute(self, plan: StopPlan) -> StopOutcome: ...
