"""What the parsers' block fast paths share. A fast path takes a block of raw log bytes (complete lines, not
cleaned or decoded) and either proves it is made only of the format's common lines and emits exactly the points
the line parser would give from the cleaned text, or says False and emits nothing (the block is then cleaned and
goes to the line parser).

The proof has the same three parts in every format:

1. the shape: the block without its number characters (``NUMBER_CHARS``) is a tiling of the format's line shapes
   (``two_shapes``; JSONL: of its first record's shape without digits): every separator and letter is where it
   belongs, and the number fields hold number characters only (so no ``\\r``, escape code, non-ASCII byte, ``nan``
   word or stray text can pass);
2. the words: no number character glued into a word. CSV has none (a block of numbers, separators and newlines
   only). llm.c: a translate makes each separator a comma and the reader reads *every* field, the words between
   the numbers as categories, which must be exactly the words of the shape (``words``). nanoGPT: the words'
   letters but "e" go and each gap between two words is a field that must be empty (the "e"s are words that must
   be "e"). JSONL: each key segment is there whole in every line. The number fields then go to pandas' C reader,
   whose floats equal Python's ``float``; an empty field or a refused one: False;
3. what pandas reads more loosely than the line parser is checked by the format: a step ``1e3`` or ``+5`` the
   line parser's ``\\d+`` does not take, on the block without its digits (``DIGITS``); JSON's leading zeros and
   empty number parts, by counts.

The mutation test (tests/test_parsers_fast_mutations.py) attacks every fast path with random edits and with every
single-byte edit of a small block.

- ``crlf_to_lf``: a block with CRLF line ends as the cleaner reads it (LF ends), when no other CR is in it.
- ``read_fields``: the comma-separated block as a DataFrame, or None when the reader refuses it.
- ``words``: a category column's codes, when its values are only the given words.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

NUMBER_CHARS = b"0123456789.eE+-"
DIGITS = b"0123456789"


def two_shapes(shape: bytes, lines: int, a: bytes, b: bytes) -> tuple[int, int] | None:
    """(lines of shape ``a``, lines of shape ``b``) when ``shape`` (a block without its number characters, ``lines``
    lines) is made of those two line shapes only, else None. Neither shape may be a suffix of the other: then the
    counts and the total length prove the tiling."""
    n_a, n_b = shape.count(a), shape.count(b)
    if n_a + n_b != lines or n_a * len(a) + n_b * len(b) != len(shape):
        return None
    return n_a, n_b


def crlf_to_lf(data: bytes) -> bytes | None:
    """``data`` with its CRLF line ends as LF when every CR in it ends a line (what the cleaner makes of it: a CR
    elsewhere overwrites a line), else None."""
    if b"\r" not in data:
        return data
    lf = data.replace(b"\r\n", b"\n")
    return None if b"\r" in lf else lf


def read_fields(csv: bytes, width: int, dtype: dict[int, Any], *, sep: str = ",",
                na_values: tuple[str, ...] | dict[int, list[str]] = ("",),
                usecols: list[int] | None = None, skip_spaces: bool = False) -> pd.DataFrame | None:
    """``csv`` (rows of at most ``width`` fields; only an empty field, or one of ``na_values`` (per column when a
    dict), is missing) read by
    pandas' C reader with ``dtype`` per column (``"category"`` for words), only the ``usecols`` columns when given,
    the spaces at a field's start skipped when ``skip_spaces``; None when it refuses."""
    import pandas as pd  # only here: the server starts without it

    try:
        return pd.read_csv(io.BytesIO(csv), sep=sep, header=None, names=range(width), engine="c", usecols=usecols,
                           skipinitialspace=skip_spaces,
                           dtype=dtype, keep_default_na=False, index_col=False,
                           na_values=list(na_values) if isinstance(na_values, tuple) else na_values)
    except (ValueError, OverflowError, pd.errors.ParserError):
        return None


def words(col: pd.Series, allowed: tuple[str, ...]) -> np.ndarray | None:
    """The codes of a category column (-1 for an empty field; otherwise the index in ``allowed``), or None when a
    value is not one of ``allowed``."""
    import numpy as np

    cats = list(col.cat.categories)
    if any(c not in allowed for c in cats):
        return None
    codes = col.cat.codes.to_numpy()
    if cats == list(allowed[:len(cats)]):
        return codes.astype(np.int8, copy=False)
    remap = np.array([allowed.index(c) for c in cats] + [-1], dtype=np.int8)
    return remap[codes]

