"""Stop a W&B run through the API (``Run.stop()``) via ``sources.wandb_api.stop_wandb_run``, then read its state."""

from __future__ import annotations

import dataclasses

from ..errors import StopRefused
from .outcome import Clock, StopOutcome

STOPPED_STATES = {"stopped", "killed", "finished", "crashed", "failed", "stopping"}


def _stopper():
    try:
        from ..sources.wandb_api import stop_wandb_run
    except ImportError:
        raise StopRefused("stopping a W&B run through its API is not available in this install "
                          "(tools/sources/wandb_api.py has no stop_wandb_run): stop the process instead with "
                          "target='pid:N', 'tmux:NAME' or 'slurm:JOB'") from None
    return stop_wandb_run


def available() -> bool:
    try:
        _stopper()
        return True
    except StopRefused:
        return False


def plan(ref) -> list[str]:
    _stopper()
    return [f"W&B Run.stop() on {ref.url or ref.key} (the wandb process exits at its next sync)",
            "confirm the run's state from the API"]


def execute(ref, config) -> StopOutcome:
    clock = Clock()
    result = _stopper()(ref, config)
    if dataclasses.is_dataclass(result):
        result = dataclasses.asdict(result)
    if hasattr(result, "to_dict"):
        result = result.to_dict()
    state = None
    stopped = bool(result)
    if isinstance(result, dict):
        state = result.get("state") or result.get("final_state")
        stopped = bool(result.get("stopped", str(state).lower() in STOPPED_STATES))
    elif isinstance(result, str):
        state = result
        stopped = result.lower() in STOPPED_STATES
    out = StopOutcome("wandb", ref.key, None, stopped, str(state or ("stop requested" if stopped else "unknown")),
                      elapsed_s=round(clock.since(), 3))
    out.actions.append(clock.stamp(f"W&B Run.stop() -> {out.final_state}"))
    return out
