"""JSON-safe numbers for answers: non-finite values become the strings "nan", "inf", "-inf" (never dropped),
finite ones are rounded to a few significant digits to keep answers small."""

from __future__ import annotations

import math

Num = float | int | str | None


def jnum(x: float | int | None, digits: int = 6) -> Num:
    if x is None:
        return None
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return 0.0
    r = float(f"{x:.{digits}g}")
    return int(r) if r.is_integer() and abs(r) < 1e15 else r
