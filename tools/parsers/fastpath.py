"""What the structured readers' block fast paths share (CSV and markdown tables, JSONL). A fast path takes a
block of raw log bytes (complete lines, not cleaned or decoded) and either proves it is made only of the format's
common lines and emits exactly the points the line parser would give from the cleaned text, or says False and emits
nothing (the block is then cleaned and goes to the line parser). Text logs have no fast path: the one engine
(engine.py) reads every block in bulk.

The proof has the same parts in every format: the block's characters and row shape checked by a translate (the
number fields hold number characters only, so no ``\r``, escape code, non-ASCII byte or stray text passes; JSONL:
each record's skeleton without its digits, each key segment whole); the number fields then go to pandas' C reader,
whose floats equal Python's ``float`` (an empty field or a refused one: False); what pandas reads more loosely than
the line parser (``1e3`` or ``+5`` as a step, JSON's leading zeros) is checked on the block without its digits
(``DIGITS``).

The mutation test (tests/test_parsers_fast_mutations.py) attacks every fast path with random edits and with every
single-byte edit of a small block.

- ``crlf_to_lf``: a block with CRLF line ends as the cleaner reads it (LF ends), when no other CR is in it.
- ``read_fields``: the comma-separated block as a DataFrame, or None when the reader refuses it.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

NUMBER_CHARS = b"0123456789.eE+-"
DIGITS = b"0123456789"


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
