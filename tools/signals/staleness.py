"""Staleness: no new steps since the last check. Reported, never judged: process health is a watchdog's job."""

from __future__ import annotations

from ..findings import OK, Finding, nums
from .view import RunView


def check(view: RunView) -> Finding:
    """Say how many new points arrived since the previous check, and since which step nothing did."""
    prev_step = view.previous[0].last_step if view.previous else None
    last = view.last_step
    if prev_step is not None and last is not None and last <= prev_step:
        return nothing_new(last)
    was = f" (was {prev_step})" if prev_step is not None else ""
    return Finding("staleness", OK, f"new data up to step {last}{was}",
                   numbers=nums(last_step=last, previous_step=prev_step))


def nothing_new(last: int) -> Finding:
    """The finding of a check that found no step after ``last``, the step the previous check ended at."""
    return Finding("staleness", OK, f"no new steps since the last check (still step {last}); a watchdog owns process "
                   f"health", [int(last), int(last)], nums(new_steps=0, last_step=last))
