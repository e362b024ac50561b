"""What the parsers' block fast paths share: a block proven to hold only a format's common lines is turned into
numeric CSV text and read by pandas' C reader at once (its floats equal Python's ``float``); any other block takes
the format's line-by-line parser, unchanged.

- ``NUMBER_CHARS`` / ``STRIP_NUMBERS``: the characters of a plain number, and the table that deletes them (a line
  without its numbers is its shape).
- ``two_shapes``: whether a block's shape is exactly a tiling of two line shapes, and how many of each.
- ``read_numbers``: the block's CSV as a DataFrame, or None when the reader refuses it (the fast path then says
  False and the line parser reads the block).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

NUMBER_CHARS = "0123456789.eE+-"
STRIP_NUMBERS = str.maketrans("", "", NUMBER_CHARS)


def two_shapes(shape: str, lines: int, a: str, b: str) -> tuple[int, int] | None:
    """(lines of shape ``a``, lines of shape ``b``) when ``shape`` (a block without its number characters, ``lines``
    lines) is made of those two line shapes only, else None. Neither shape may be a suffix of the other: then the
    counts and the total length prove the tiling."""
    n_a, n_b = shape.count(a), shape.count(b)
    if n_a + n_b != lines or n_a * len(a) + n_b * len(b) != len(shape):
        return None
    return n_a, n_b


def read_numbers(csv: str, width: int, dtype: Any, *, sep: str = ",", usecols: list[int] | None = None
                 ) -> pd.DataFrame | None:
    """``csv`` (rows of at most ``width`` fields) read by pandas' C reader with ``dtype``; None when it refuses."""
    import pandas as pd  # only here: the server starts without it

    try:
        return pd.read_csv(io.StringIO(csv), sep=sep, header=None, names=range(width), usecols=usecols, engine="c",
                           dtype=dtype)
    except (ValueError, OverflowError, pd.errors.ParserError):
        return None
