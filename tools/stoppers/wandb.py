"""Stop a W&B run through the API (``Run.stop()``: the App's "Stop run" flag), then confirm from the run's state."""

from __future__ import annotations

import time

from ..config import Config
from ..runref import RunRef
from ..sources.wandb_api import WandbApiSource, stop_wandb_run
from .base import DEFAULT_GRACE_S, StopPlan
from .outcome import Clock, Runner, StopOutcome, local_runner
from .processes import LocalProcesses, RemoteProcesses

STOPPED_STATES = {"stopped", "killed", "finished", "crashed", "failed"}
WANDB_CONFIRM_S = 10.0  # how long the run's state is watched after the stop request


def plan(ref) -> list[str]:
    return [f"W&B Run.stop() on {ref.url or ref.key} (the training process exits at its next heartbeat)",
            "confirm from the run's state in the API"]


def _state(ref, config) -> str | None:
    try:
        source = WandbApiSource(ref, config)
        return source.client().run_meta(ref.entity, ref.project, ref.run_id).state
    except Exception:  # confirmation is best effort: the stop request itself already succeeded or raised
        return None


def execute(ref, config, confirm_s: float = WANDB_CONFIRM_S, poll_s: float = 2.0) -> StopOutcome:
    """Send the stop, then poll the run's state for up to ``confirm_s``; ``stopped`` only when W&B confirms it."""
    clock = Clock()
    message = stop_wandb_run(ref, config)
    out = StopOutcome("wandb", ref.key, None, False, "stop requested", elapsed_s=0.0)
    out.actions.append(clock.stamp(message))
    state = _state(ref, config)
    while (state or "").lower() not in STOPPED_STATES and clock.since() + poll_s <= confirm_s:
        time.sleep(poll_s)
        state = _state(ref, config)
    out.stopped = (state or "").lower() in STOPPED_STATES
    out.final_state = (f"W&B reports {state}" if out.stopped else
                       f"stop requested; W&B still reports {state or 'an unknown state'}: the run stops at its next "
                       f"heartbeat (the training process must be online with W&B)")
    out.actions.append(clock.stamp(f"W&B state: {state or 'unknown'}"))
    out.elapsed_s = round(clock.since(), 3)
    return out


class WandbStopper:
    """The ``Stopper`` for a W&B run, through its API (the grace period does not apply: see base.py)."""

    kind = "wandb"
    where = "this machine"
    host: str | None = None

    def __init__(self, ref: RunRef, config: Config):
        self.ref, self.config = ref, config
        self.runner: Runner = local_runner
        self.procs: LocalProcesses | RemoteProcesses = LocalProcesses()

    def plan(self, value: str | None = None, grace_s: float = DEFAULT_GRACE_S) -> StopPlan:
        return StopPlan("wandb", None, f"W&B run {self.ref.key}", "wandb", plan(self.ref), grace_s,
                        f"the W&B run {self.ref.key} itself")

    def execute(self, plan: StopPlan) -> StopOutcome:
        return execute(self.ref, self.config)
