"""What a stopper did: the typed outcome every stop method returns, and where commands run (here or over SSH)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from ..errors import SourceUnreachable

# runner(argv, timeout) -> (exit code, stdout, stderr); argv is never given to a shell unquoted
Runner = Callable[[list[str], float], tuple[int, str, str]]


@dataclass
class StopOutcome:
    """The result of one stop attempt: ``stopped`` is True only when the stop was confirmed."""

    mechanism: str  # "signal" | "slurm" | "tmux" | "wandb"
    target: str  # e.g. "pid 1234 (python train.py)", "slurm job 42", "tmux session train"
    host: str | None  # None = this machine
    stopped: bool
    final_state: str  # "gone" | "still running" | "CANCELLED" | "session gone" | ...
    actions: list[str] = field(default_factory=list)  # what was done, in order, with times since the start
    elapsed_s: float = 0.0
    signal_used: str | None = None  # the signal that ended it (INT / TERM / KILL) when known

    def to_dict(self) -> dict:
        return asdict(self)


class Clock:
    """Times actions relative to the start of a stop."""

    def __init__(self):
        self.t0 = time.monotonic()

    def since(self) -> float:
        return time.monotonic() - self.t0

    def stamp(self, text: str) -> str:
        return f"+{self.since():.2f}s {text}"


def local_runner(argv: list[str], timeout: float = 30.0) -> tuple[int, str, str]:
    """Run argv on this machine without a shell."""
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, shell=False,
                           stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        return 127, "", f"{argv[0]}: command not found"
    except subprocess.TimeoutExpired:
        raise SourceUnreachable(f"{argv[0]} did not finish within {timeout:g}s") from None
    return r.returncode, r.stdout, r.stderr


def remote_runner(target, accept_unknown_hosts: bool = False) -> Runner:
    """A runner executing argv on an SSH target (every argument shlex-quoted)."""
    from ..sources.ssh import run_remote

    def run(argv: list[str], timeout: float = 30.0) -> tuple[int, str, str]:
        return run_remote(target, argv, timeout, accept_unknown_hosts=accept_unknown_hosts)

    return run
