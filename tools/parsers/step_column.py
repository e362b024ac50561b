"""A table's step column found from its values when no column is named like a step: the first integer column that
never goes down and goes up at least once (a single row: its first column, when an integer). One rule for every
table: CSV/TSV files (``table.py``) and tables printed in a text log (``tables_text.py``).

A file read in parts keeps each column's standing (``ColumnStats``, JSON in the reader's state): the column chosen
from the rows so far changes only when a later row shows another is the step; the reader then reads the file again
from its start with that column (the same points whatever the reads' sizes).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

MAX_STEP_DIGITS = 18  # an integer cell longer than this is no step
MAX_TRACKED = 256  # columns whose standing a file's state keeps (the step is among the first ones)


def column_standing(values: np.ndarray, before: list | None) -> list:
    """``[integer and never down, went up, last value]`` of one column after ``values`` (in row order; NaN: a cell
    left empty, skipped), continuing ``before`` (the same, from earlier rows, or None)."""
    ok, up, last = before if before else [True, False, None]
    if not ok:
        return [False, up, last]
    v = values[~np.isnan(values)]
    if not len(v):
        return [ok, up, last]
    if not (np.abs(v) < 10.0 ** MAX_STEP_DIGITS).all() or (v != np.floor(v)).any():
        return [False, up, last]
    seq = v if last is None else np.concatenate(([float(last)], v))
    d = np.diff(seq)
    if (d < 0).any():
        return [False, up, last]
    return [True, bool(up or (d > 0).any()), float(v[-1])]


def monotone_column(standing: Sequence[list | None], rows: int) -> int | None:
    """The step column from each column's standing (``column_standing``) over ``rows`` rows: the first integer
    column that never went down and went up; over a single row, the first column when it is an integer."""
    if rows == 1:
        first = standing[0] if standing else None
        return 0 if first is not None and first[0] and first[2] is not None else None
    for k, s in enumerate(standing):
        if s is not None and s[0] and s[1]:
            return k
    return None


def monotone_cells(rows: Sequence[Sequence[str]] | Sequence[Sequence[bytes]], ints: Sequence[int]) -> int | None:
    """The step among the cells ``ints`` of text rows (``tables_text.py``: a template's sample rows, in line order),
    by ``monotone_column``'s rule."""
    standing: list[list | None] = []
    for k in range(max(ints, default=-1) + 1):
        if k not in ints:
            standing.append(None)
            continue
        cells = [r[k] for r in rows]
        if not all(c.isdigit() and len(c) <= MAX_STEP_DIGITS for c in cells):
            standing.append([False, False, None])
            continue
        standing.append(column_standing(np.array([float(c) for c in cells]), None))
    return monotone_column(standing, len(rows))
