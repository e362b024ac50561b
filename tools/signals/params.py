"""Named, validated thresholds for the signals, and the rules several signals share.

Each signal keeps its thresholds in a frozen dataclass built from ``bound`` fields: the allowed range lives next to
the default, and ``Params.__post_init__`` refuses a value outside it with one line naming the field.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .curve import Curve


def bound(default: float, lo: float | None = None, hi: float | None = None, *, above: bool = False) -> Any:
    """A threshold field: ``default``, allowed in [``lo``, ``hi``] (``lo`` excluded when ``above``)."""
    return field(default=default, metadata={"lo": lo, "hi": hi, "above": above})


def _range(lo: float | None, hi: float | None, above: bool) -> str:
    if lo is not None and hi is not None:
        return f"in {'(' if above else '['}{lo:g}, {hi:g}]"
    if lo is not None:
        return f"{'>' if above else '>='} {lo:g}"
    return f"<= {hi:g}" if hi is not None else "a finite number"


@dataclass(frozen=True)
class Params:
    """Base of every signal's thresholds: each ``bound`` field is checked against its range when made."""

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            lo, hi, above = f.metadata.get("lo"), f.metadata.get("hi"), f.metadata.get("above", False)
            want_int = isinstance(f.default, int) and not isinstance(f.default, bool)
            ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            ok = ok and (not want_int or float(v).is_integer())
            ok = ok and (lo is None or (v > lo if above else v >= lo)) and (hi is None or v <= hi)
            if not ok:
                kind = "a whole number " if want_int else ""
                raise ValueError(f"{type(self).__name__}.{f.name} must be {kind}{_range(lo, hi, above)}, got {v!r}")


def start_level(c: Curve) -> float:
    """Where a curve started: the median of its first few values (3 to 10, a twentieth of its points), so one
    lucky or unlucky first batch is not the reference."""
    return float(np.median(c.first(max(3, min(10, c.n // 20)))))


def orientation(direction: str | None) -> float:
    """The sign that turns an oriented (lower-is-better) curve back into the metric as logged: -1 for a metric
    where higher is better, else 1."""
    return -1.0 if direction == "max" else 1.0
