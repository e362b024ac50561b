"""Rows of bare numbers that no header names: a hand loop's ``print(t, loss.item())`` (``99 1234.5678``), or a
convergence monitor's ``iteration  value  change`` (hmmlearn's ``         2   -1320.48103937    +125.22520373``).

A line of two or three numbers and nothing else, under no header, is read when its first ``DECIDE_ROWS`` rows (in
file order, across reads) show the shape: an integer first column that increases (the step), then one value, and
for a third column, the change of the value since the row above (cell = value - value above, within the two cells'
printed precision). What the rows show names the value:

- step and one value, a float: the loss, as the loop printing it means it (``LOSS``);
- step, value and its change: an objective monitored for convergence. The way its values move while its changes
  shrink is the way it is optimised: changes that keep one sign and shrink say the objective is maximised (changes
  above zero, ``MAXIMISED``) or minimised (below zero, ``OBJECTIVE``); changes of either sign, or growing, tell no
  direction: the value is read under a name with none (``NO_DIRECTION``), so the judge never calls it a rising loss.

Anything else is left unread: a third column that is no change (a numpy matrix, a confusion matrix, a config's
numbers), a first column that is no increasing integer, more than three columns. The decision is taken once per row
template (``engine._bare_rows`` keeps it in the read's state), on the same rows whatever the reads' sizes.
"""

from __future__ import annotations

import math

from .templates import NAN_MARK

DECIDE_ROWS = 3  # rows a decision is taken on: two changes, to see them shrink
MAX_ROW = 160  # bytes of a bare row: a longer line is no such row
LOSS = "loss"
OBJECTIVE = "objective"
MAXIMISED = "objective (maximised)"
NO_DIRECTION = "monitored value"


def cells(line: bytes) -> list[bytes] | None:
    """The blank-separated cells of ``line`` when it holds two or three numbers and nothing else, else None."""
    if len(line) > MAX_ROW:
        return None
    toks = line.split()
    if not 2 <= len(toks) <= 3 or any(_value(t) is None for t in toks):
        return None
    return toks


def _value(tok: bytes) -> float | None:
    if tok == NAN_MARK or tok[:1] in b"+-" and tok[1:] == NAN_MARK:  # a masked nan (``+nan``)
        return math.nan
    if not tok[:1].isdigit() and not (tok[:1] in b"+-." and tok[1:2].isdigit()):
        return None
    try:
        return float(tok)
    except ValueError:
        return None


def _decimals(tok: bytes) -> int:
    dot = tok.find(b".")
    return 0 if dot < 0 or b"e" in tok.lower() else len(tok) - dot - 1


def decide(rows: list[list[bytes]]) -> str | None:
    """The name the value of ``rows`` (their first ``DECIDE_ROWS``, in file order) is read under, or None: no such
    shape."""
    if len(rows) < DECIDE_ROWS or len({len(r) for r in rows}) != 1:
        return None
    if not all(r[0].isdigit() for r in rows):
        return None
    steps = [int(r[0]) for r in rows]
    if any(b <= a for a, b in zip(steps, steps[1:], strict=False)):
        return None
    vals = [_value(r[1]) for r in rows]
    if not all(v is not None and math.isfinite(v) for v in vals):
        return None
    if len(rows[0]) == 2:  # a float printed (a count's integers, an index beside them, are no loss)
        return LOSS if all(b"." in r[1] or b"e" in r[1].lower() for r in rows) else None
    changes = []
    for above, row, v0, v1 in zip(rows, rows[1:], vals, vals[1:], strict=False):
        d = _value(row[2])
        assert v0 is not None and v1 is not None
        if d is None or not math.isfinite(d):
            return None
        tol = 10.0 ** -_decimals(row[2]) + 10.0 ** -_decimals(row[1]) + 10.0 ** -_decimals(above[1])
        if abs(d - (v1 - v0)) > tol:
            return None  # the third column is no change of the second
        changes.append(d)
    shrinking = all(abs(b) <= abs(a) for a, b in zip(changes, changes[1:], strict=False))
    if shrinking and all(d > 0 for d in changes):
        return MAXIMISED
    if shrinking and all(d < 0 for d in changes):
        return OBJECTIVE
    return NO_DIRECTION
