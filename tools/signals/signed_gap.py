"""A solver's gap as the objective a run is judged by (fixpdlp): the difference between a primal and a dual
objective (OR-Tools PDLP's ``obj_gap``, a duality ``gap``, ``rel_gap``; ``Dialect.duality_gap_names``) goes to zero
from either side while the iterates converge: its sign tells which bound is ahead, not progress. Such a gap is no
surrogate of an RL or GAN loss (``view._surrogate`` would call one straddling zero so, and judge no trend): where it
stands for the run (a solver's table with no residual beside it; ``objective.primal_residual`` prefers the primal
residual), it is judged by its size, ``|gap|``, lower is better, said in a note.

Only a gap read whole (not summarised) and printed below zero somewhere is changed; nothing else is touched.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..parsers.dialect import DIALECT
from ..roles import norm_name


def is_gap(name: str) -> bool:
    """Whether ``name`` names a gap between a primal and a dual objective (``Dialect.duality_gap_names``)."""
    return norm_name(name) in DIALECT.duality_gap_names


def sized(series: pd.Series, name: str) -> tuple[pd.Series, str] | None:
    """``series`` (the gap ``name``) as its size and the note saying so, or None when it is no signed gap (never
    below zero, or no gap by name)."""
    if not is_gap(name):
        return None
    v = series.to_numpy(dtype=float)
    if not (v < 0).any():
        return None
    return (pd.Series(np.abs(v), index=series.index, name=series.name),
            f"{name} is a signed gap between a primal and a dual objective: judged by its size")
