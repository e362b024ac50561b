"""Rows of unnamed numbers under a heading that names only their first value: a line of one name ending in a colon
(pzflow's ``Loss:``), then rows opened by a counter at line start, bare or in parentheses (``(3) 2.3386``, ``3
2.3386``), each followed by one or two numbers and nothing else (``(3) 2.3386  2.3645``). The heading names the first
value; a second one beside it is the evaluation's value of it (``Dialect.beside_heading_prefix``: ``val_Loss``); the
counter is the row's step, as any counter at line start is (``fields.plan_template``). A row far below its heading (a
diverging run's last ``(6) inf``) is headed by it across the rows of its shape between them, and across reads by the
heading the log's state keeps (``headed``).

A heading is read only when its name is one the reader knows as a metric's (``roles.infer_role``): a line of prose
ending in a colon (``Results:``) heads nothing. Bounded: a heading's bytes, the rows walked up, the values per row.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..roles import infer_role
from .dialect import DIALECT, Dialect
from .templates import NAN_MARK

MAX_HEADING = 40  # bytes of a heading line
MAX_VALUES = 2  # values after a row's counter: the named one and the evaluation's beside it
MAX_ROW = 96  # bytes of such a row
MAX_WALK = 2048  # rows of the shape walked up from a row to its heading
_NAME_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_/ -")


def heading(line: bytes) -> str | None:
    """The name a heading line gives (``Loss:``: ``Loss``): one to three words of letters ending in a colon and
    nothing else, naming a metric the reader knows; else None."""
    s = line.strip()
    if not 2 <= len(s) <= MAX_HEADING or s[-1:] != b":" or not s[:1].isalpha():
        return None
    name = s[:-1].rstrip()
    if not name or any(c not in _NAME_CHARS for c in name) or len(name.split()) > 3:
        return None
    text = name.decode("latin-1")
    return text if infer_role(text).role != "other" else None


def _number(tok: bytes) -> bool:
    if tok.lstrip(b"+-") in (NAN_MARK, b"nan", b"inf", b"NaN", b"Inf"):
        return True  # a masked nan or inf (``templates.NAN_MARK``)
    if not (tok[:1].isdigit() or tok[:1] in b"+-." and tok[1:2].isdigit()):
        return False
    try:
        float(tok)
    except ValueError:
        return False
    return True


def values_after_counter(line: bytes) -> int:
    """How many numbers follow a counter at the start of ``line`` (``(3)`` or ``3``, a whole number, then a blank),
    when they are all the line holds (1 to ``MAX_VALUES``); else 0."""
    if len(line) > MAX_ROW:
        return 0
    toks = line.split()
    if not 2 <= len(toks) <= MAX_VALUES + 1:
        return 0
    first = toks[0]
    if first[:1] == b"(" and first[-1:] == b")":
        first = first[1:-1]
    if not first.isdigit() or not all(_number(t) for t in toks[1:]):
        return 0
    return len(toks) - 1


def names(name: str, n: int, dialect: Dialect = DIALECT) -> list[str]:
    """The names of a headed row's cells: none for its counter (read as a counter at line start), the heading's for
    the first value, the evaluation's of it for a second."""
    return ["", name, f"{dialect.beside_heading_prefix}{name}"][:n + 1]


def headed(lines: Sequence[bytes], i: int, first: int, st: dict) -> list[str] | None:
    """The names of row ``i``'s cells when it is a row of this shape under a heading: the heading above it across
    the rows of its shape (and blank lines) in this read, or, above the read's first line (``first``), the heading
    an earlier read found for rows of as many values (kept in ``st``); else None."""
    n = values_after_counter(lines[i])
    if not n:
        return None
    kept = st.setdefault("headings", {})
    j, walked = i - 1, 0
    while j >= first and walked < MAX_WALK:
        line = lines[j]
        if line.strip() and values_after_counter(line) != n:
            break
        j, walked = j - 1, walked + 1
    if j >= first and walked < MAX_WALK:
        name = heading(lines[j])
        if name is None:
            return None
        if len(kept) < 4 or str(n) in kept:
            kept[str(n)] = name
        return names(name, n)
    got = kept.get(str(n))
    return None if got is None else names(got, n)
