"""One factory for every stopper: (target kind, host) -> the ``Stopper`` that plans and executes the stop."""

from __future__ import annotations

from ..config import Config
from ..runref import RunRef
from .base import Stopper
from .outcome import local_runner, remote_runner
from .process import PLANNERS, ProcessStopper
from .processes import LocalProcesses, RemoteProcesses
from .slurm import SlurmStopper
from .tmux import TmuxStopper
from .wandb import WandbStopper

PROCESS_KINDS = tuple(PLANNERS)  # pid, pidfile, cmd


def make_stopper(kind: str, host: str | None, ref: RunRef, config: Config, *, kill_after: bool = True) -> Stopper:
    """The stopper for ``kind`` (pid, pidfile, cmd, slurm, tmux, wandb) on ``host`` (None = this machine)."""
    if kind == "wandb":
        return WandbStopper(ref, config)
    procs: LocalProcesses | RemoteProcesses
    if host:
        from ..sources.ssh import parse_host_spec, resolve_target

        user, h, port = parse_host_spec(host)
        ssh_target = resolve_target(h, user=user, port=port)
        runner = remote_runner(ssh_target, config.ssh_accept_unknown_hosts)
        where, label = ssh_target.label, ssh_target.label
        procs = RemoteProcesses(runner, ssh_target.label)
    else:
        runner, where, label, procs = local_runner, "this machine", None, LocalProcesses()
    if kind in PROCESS_KINDS:
        return ProcessStopper(kind, procs, runner, where, label, kill_after=kill_after)
    if kind == "slurm":
        return SlurmStopper(procs, runner, where, label)
    if kind == "tmux":
        return TmuxStopper(procs, runner, where, label)
    raise ValueError(f"no stopper for {kind!r}")
