"""What a sweep judgement sees: every run's objective curve (steps, values) and the objective's direction.

A policy reads only this view (as an Optuna pruner reads only the study's intermediate values). Curves are kept
as recorded, NaN included; ``oriented`` turns them lower-is-better once, so projection and policy never branch on
the direction. Comparison is at equal steps: ``value_at(step)`` is the mean of the run's last ``SMOOTH_POINTS``
finite points at or before ``step`` (a non-finite point at or before it makes the value +inf: the run is gone).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

MINIMIZE = "minimize"
MAXIMIZE = "maximize"
SMOOTH_POINTS = 3  # points averaged into a run's value at a step (one noisy check never decides alone)


@dataclass(frozen=True)
class RunCurve:
    """One run's objective: ascending steps and their values as recorded (NaN kept).

    ``finished``: the run reached its planned end (its last value is its final); ``stopped``: it was stopped
    early (pruned) and will not move again (its curve still counts as a reference at the steps it reached).
    """

    run: str
    steps: np.ndarray
    values: np.ndarray
    finished: bool = False
    stopped: bool = False

    def __post_init__(self) -> None:
        steps = np.asarray(self.steps, dtype=np.float64)
        values = np.asarray(self.values, dtype=np.float64)
        if steps.shape != values.shape or steps.ndim != 1:
            raise ValueError(f"run {self.run!r}: steps and values must be 1-d arrays of one length")
        if steps.size and np.any(np.diff(steps) < 0):
            order = np.argsort(steps, kind="stable")
            steps, values = steps[order], values[order]
        object.__setattr__(self, "steps", steps)
        object.__setattr__(self, "values", values)

    @property
    def last_step(self) -> float:
        return float(self.steps[-1]) if self.steps.size else -math.inf

    @property
    def active(self) -> bool:
        return not (self.finished or self.stopped)

    def gone_at(self) -> float | None:
        """The first step of a non-finite stretch that lasts to the end (a run that turned NaN/Inf), else None."""
        bad = ~np.isfinite(self.values)
        if not bad.size or not bad[-1]:
            return None
        good = np.flatnonzero(~bad)
        first = good[-1] + 1 if good.size else 0
        return float(self.steps[first])

    def value_at(self, step: float) -> float:
        """The run's smoothed value at ``step`` (its last points up to it); +inf if it was non-finite by then,
        NaN if it has no point at or before ``step``."""
        n = int(np.searchsorted(self.steps, step, side="right"))
        if n == 0:
            return math.nan
        gone = self.gone_at()
        if gone is not None and gone <= step:
            return math.inf
        window = self.values[max(0, n - 4 * SMOOTH_POINTS):n]
        window = window[np.isfinite(window)][-SMOOTH_POINTS:]
        return float(window.mean()) if window.size else math.inf


@dataclass(frozen=True)
class SweepView:
    """Every run of a sweep on one objective, lower-is-better or not, and the planned final step."""

    curves: Sequence[RunCurve]
    direction: str = MINIMIZE
    final_step: float | None = None  # the planned last step; None: the furthest step any run reached
    metric: str = "objective"
    left_out: dict[str, str] = field(default_factory=dict)  # runs not compared, and why

    def __post_init__(self) -> None:
        if self.direction not in (MINIMIZE, MAXIMIZE):
            raise ValueError(f"direction must be {MINIMIZE!r} or {MAXIMIZE!r}, got {self.direction!r}")

    @property
    def target_step(self) -> float:
        if self.final_step:
            return float(self.final_step)
        steps = [c.last_step for c in self.curves if c.steps.size]
        return max(steps) if steps else 0.0

    def oriented(self) -> SweepView:
        """The same view with every curve lower-is-better (values negated for a maximized objective)."""
        if self.direction == MINIMIZE:
            return self
        curves = [RunCurve(c.run, c.steps, -c.values, c.finished, c.stopped) for c in self.curves]
        return SweepView(curves, MINIMIZE, self.final_step, self.metric, dict(self.left_out))

    def sign(self) -> float:
        """+1 for a minimized objective, -1 for a maximized one (oriented value * sign = recorded value)."""
        return 1.0 if self.direction == MINIMIZE else -1.0
