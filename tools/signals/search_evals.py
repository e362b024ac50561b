"""A search's evaluations judged as a search (issue 29): a table whose step column counts a search's evaluations
(``parsers/evaluations.py``) prints each evaluation's value, a draw from the space the search explores; a bad point
tried is no divergence. The run's objective is then its running best (the cumulative best of the finite
evaluations, in the objective's direction), as for a search printing its best so far (``objective.search_objective``).
Still flagged: evaluations non-finite where most recent ones are (the non-finite values are kept at their steps, so
``nonfinite`` judges them as it does a training loss's), and a black box blown up wherever the search looks
(``blown_up``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..findings import CRITICAL, Finding, nums, readable
from ..parsers.evaluations import EVALUATIONS


def is_search(config: dict | None, name: str | None) -> bool:
    """Whether the reader marked ``name`` as a search's evaluations in the run's ``config``."""
    marked = (config or {}).get(EVALUATIONS)
    return bool(name) and isinstance(marked, list) and name in marked


def best_so_far(s: pd.Series, direction: str | None) -> pd.Series:
    """The running best of ``s``'s finite values (the lowest so far, the highest where ``direction`` is ``max``); a
    non-finite evaluation kept at its step, as is any value before the first finite one."""
    v = s.to_numpy(dtype=float)
    fin = np.isfinite(v)
    if not fin.any():
        return s
    w = np.where(fin, -v if direction == "max" else v, np.inf)
    best = np.minimum.accumulate(w)
    best = -best if direction == "max" else best
    return pd.Series(np.where(fin & np.isfinite(best), best, v), index=s.index, name=s.name)


def note(name: str) -> str:
    return (f"{name} is a search's evaluations (its step counts them): judged by its best so far, each evaluation "
            f"a point tried")


def blown_up(evaluations: pd.Series | None, name: str, direction: str, blowup_ratio: float,
             min_points: int) -> Finding | None:
    """A search that never found a point better than its first evaluation (its start), its evaluations since, the
    non-finite ones counted as worse, at least ``blowup_ratio`` times that start in median over at least
    ``min_points`` evaluations: a black box blown up wherever the search looks (a model's overflow), not a bad point
    tried. Positive values minimised only (a ratio means nothing through zero)."""
    if evaluations is None or direction == "max" or len(evaluations) < min_points + 1:
        return None
    v = evaluations.to_numpy(dtype=float)
    first = v[0]
    rest = np.where(np.isnan(v[1:]), np.inf, v[1:])
    if not np.isfinite(first) or first <= 0 or (rest < first).any():
        return None
    level = float(np.median(rest))
    if level < blowup_ratio * first:
        return None
    bad = int((~np.isfinite(rest)).sum())
    return Finding("divergence", CRITICAL,
                   f"{name}, a search's evaluations, blew up: never better than its first {first:.4g}, its "
                   f"evaluations since at {readable(level, 4)} in median over {len(rest)} ({bad} non-finite)",
                   [int(evaluations.index[1]), int(evaluations.index[-1])],
                   nums(first_logged=first, level=level, nonfinite_total=bad), concern="divergence", sustained=True)
