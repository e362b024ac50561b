"""The metric frame: one step-indexed series per metric, plus each metric's role.

Each metric keeps only the steps at which it was logged, so keys logged in
separate ``wandb.log`` calls line up by step without inventing values, and a
NaN in a series is always a logged NaN (evidence), never a gap.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .points import PointBatch
from .roles import MetricRole, assign_roles


def _clean(steps: np.ndarray, values: np.ndarray) -> pd.Series:
    """Order points by step, the way the run lives: when the steps go back (a run resumed from a checkpoint, or
    restarted into the same log), everything logged earlier at or beyond that step is superseded, and a step
    logged twice keeps its latest value. Points arrive in the order they were logged."""
    if len(steps) == 0:
        return pd.Series([], index=pd.Index([], dtype=np.int64, name="step"), dtype=np.float64)
    if len(steps) < 2 or bool(np.all(steps[1:] > steps[:-1])):  # the usual case: already in order, no repeats
        return pd.Series(values, index=pd.Index(steps, dtype=np.int64, name="step"), dtype=np.float64, copy=False)
    # Keep a point only if every later point has a larger step (suffix minimum).
    later_min = np.minimum.accumulate(steps[::-1])[::-1]
    keep = np.ones(len(steps), dtype=bool)
    keep[:-1] = steps[:-1] < later_min[1:]
    return pd.Series(values[keep], index=pd.Index(steps[keep], dtype=np.int64, name="step"), dtype=np.float64)


def is_constant(s: pd.Series) -> bool:
    """True when the series has finite values and they are all the same (e.g. a disabled loss term logged as 0.0);
    an all-NaN series is not constant: it is broken, and must stay visible as such."""
    v = s.to_numpy()
    v = v[np.isfinite(v)]
    return len(v) > 1 and bool(v.min() == v.max())


@dataclass
class MetricFrame:
    series: dict[str, pd.Series]
    roles: dict[str, MetricRole] = field(default_factory=dict)

    @classmethod
    def from_batch(cls, batch: PointBatch, role_overrides: dict[str, str] | None = None) -> "MetricFrame":
        series = {k: _clean(c.steps, c.values) for k, c in batch.columns.items()}
        series = {k: s for k, s in series.items() if len(s)}
        # A loss that never changes (a disabled term logged as 0.0) cannot stand for the run: weigh it as empty.
        weight = {k: (0 if is_constant(v) else len(v)) for k, v in series.items()}
        return cls(series, assign_roles(list(series), role_overrides, weight))

    # -- views -------------------------------------------------------------------------
    def names(self, role: str | None = None) -> list[str]:
        return [k for k in self.series if role is None or self.roles[k].role == role]

    @property
    def primary_loss(self) -> str | None:
        for k, r in self.roles.items():
            if r.primary:
                return k
        return None

    def first_of(self, role: str) -> str | None:
        names = self.names(role)
        return names[0] if names else None

    @property
    def first_step(self) -> int | None:
        firsts = [int(s.index[0]) for s in self.series.values() if len(s)]
        return min(firsts) if firsts else None

    @property
    def last_step(self) -> int | None:
        lasts = [int(s.index[-1]) for s in self.series.values() if len(s)]
        return max(lasts) if lasts else None

    @property
    def n_steps(self) -> int:
        if not self.series:
            return 0
        # Each index is sorted and unique: count the longest, then what the others add to it.
        idx = sorted((s.index.to_numpy() for s in self.series.values()), key=len, reverse=True)
        base, n = idx[0], len(idx[0])
        extra = []
        for other in idx[1:]:
            if len(other) == len(base) and np.array_equal(other, base):
                continue
            pos = np.clip(np.searchsorted(base, other), 0, len(base) - 1)
            extra.append(other[base[pos] != other])
        if extra:
            n += len(np.unique(np.concatenate(extra)))
        return n

    def upto(self, step: int | None) -> "MetricFrame":
        """The run as it stood at ``step`` (inclusive)."""
        if step is None:
            return self
        cut = {k: s.loc[:step] for k, s in self.series.items()}
        return MetricFrame({k: s for k, s in cut.items() if len(s)}, {k: self.roles[k] for k in cut if len(cut[k])})

    def select(self, keys: list[str]) -> "MetricFrame":
        return MetricFrame({k: self.series[k] for k in keys if k in self.series},
                           {k: self.roles[k] for k in keys if k in self.series})

    def to_wide(self) -> pd.DataFrame:
        """All metrics side by side (a missing cell is NaN here: use ``series`` to tell gaps from logged NaN)."""
        return pd.DataFrame(self.series)
