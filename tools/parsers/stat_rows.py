"""Rows of a series' running statistics in a text log, grouped under metric headings, one record per block
(DESIGN.md, "Records, not lines": a block record of its own kind).

livelossplot's ``ExtremaPrinter`` prints, at every ``send()``::

    accuracy
        training            (min:    0.680, max:    0.910, cur:    0.910)
        validation          (min:    0.650, max:    0.880, cur:    0.880)
    Loss
        training            (min:    0.300, max:    0.658, cur:    0.300)
        validation          (min:    0.235, max:    0.593, cur:    0.235)

(the rows indented by a tab, a tab between the name's padding and the parenthesis)

A row is ``NAME (k: number, k: number, ...)`` where one key names the current value (``Dialect.current_words``:
``cur``, ``current``, ``last`` ...): the row's point is that value; the others (``min``, ``max``) summarise the points
so far and are no points. A line that is one name alone, right above a row, is the heading of the rows under it: a
row named by a split (``Dialect.split_rows``: ``training``, ``validation``) is that split's value of the heading's
metric (``Loss`` / ``validation`` -> ``val_loss``), any other row keeps its own name (``accuracy`` /
``val_accuracy``). A block is a run of headings and rows; a name met again starts the next block. No step is printed:
the blocks are counted (1, 2, ...), the count and the names of the open block kept in the state, so a block cut
between two reads is one record and the same bytes give the same points in any reads.

Only lines of templates whose first line is such a row are looked at (one test per distinct template), each once,
and the line above each (the heading): linear.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .base import Emitter
from .blocks import _first_last
from .dialect import DIALECT, Dialect
from .templates import NAN_MARK, Grouping

MAX_TEMPLATES = 4096  # distinct templates tested per read block
MAX_LINES = 1 << 18  # rows read per read block; more: left to the engine's line templates
MAX_NAME = 64  # bytes of a row's or a heading's name
MAX_STATS = 8  # statistics in one row's parentheses
MAX_NAMES = 256  # distinct names per read
MAX_OPEN = 256  # names of the open block kept in the state

_NAME_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-@")


def _name(word: bytes) -> bool:
    return 0 < len(word) <= MAX_NAME and all(c in _NAME_CHARS for c in word) and not word[:1].isdigit()


def _number(value: bytes) -> float | None:
    v = value.strip()
    if v == NAN_MARK:
        return float("nan")
    if not v or len(v) > 40:
        return None
    try:
        return float(v)
    except ValueError:
        return None


def stat_row(line: bytes, dialect: Dialect = DIALECT) -> tuple[str, float] | None:
    """(name, current value) of a statistics row ``NAME (min: a, max: b, cur: c)`` (indented or not), else None."""
    s = line.strip()
    if not s.endswith(b")"):
        return None
    open_at = s.find(b"(")
    if open_at <= 0 or s.find(b"(", open_at + 1) >= 0 or s.find(b")") != len(s) - 1:
        return None
    name = s[:open_at].strip()
    if not _name(name):
        return None
    parts = s[open_at + 1:-1].split(b",")
    if len(parts) < 2 or len(parts) > MAX_STATS:
        return None
    current = None
    for part in parts:
        key, colon, value = part.partition(b":")
        v = _number(value)
        key = key.strip().lower()
        if not colon or v is None or not _name(key):
            return None
        if key.decode("latin-1") in dialect.current_words:
            current = v
    if current is None:
        return None
    return name.decode("latin-1"), current


def _heading(line: bytes) -> str | None:
    """The name a heading line gives (one name alone at the line's start), else None."""
    s = line.rstrip()
    return s.decode("latin-1") if s[:1] not in (b" ", b"\t") and _name(s) else None


def _full_name(heading: str | None, row: str, dialect: Dialect) -> str:
    """A row's metric name under its heading (see the module docstring)."""
    if heading is None:
        return row
    prefix = dialect.split_rows.get(row.lower())
    return row if prefix is None else prefix + heading.lower()


class StatRows:
    """What one read block's statistics rows give (see the module docstring)."""

    def __init__(self, lines: Sequence[bytes], grouping: Grouping, st: dict, first: int = 0,
                 dialect: Dialect = DIALECT):
        self.lines = lines
        self.grouping = grouping
        self.st = st
        self.first = first  # lines before it were carried from earlier reads (one-off lines): not this read's text
        self.dialect = dialect
        self.templates: list[int] = []
        self._end_heading()
        templates = grouping.templates
        if not any(t.rstrip().endswith(b")") for t in templates[:MAX_TEMPLATES]):
            return
        firsts, _lasts = _first_last(grouping.codes, len(templates))
        self.templates = [c for c, t in enumerate(templates[:MAX_TEMPLATES])
                          if t.rstrip().endswith(b")") and stat_row(lines[int(firsts[c])], dialect) is not None]

    def _end_heading(self) -> None:
        """Take the heading the last read ended in (its rows begin this read) and keep the one this read ends in, if
        any: a block cut right under its heading is named as one read would name it."""
        self.start_heading = self.st.pop("srows_head", None)
        last = len(self.lines) - 1
        if last >= self.first and not self.lines[last]:  # the empty piece after the read's final line break
            last -= 1
        if last >= self.first:
            end = _heading(self.lines[last])
            if end is not None:
                self.st["srows_head"] = end

    def taken(self) -> set[int]:
        """The templates read here (the engine reads them no further)."""
        return set(self.templates)

    def read(self, em: Emitter) -> None:
        """Emit each row's current value at its block's count."""
        if not self.templates:
            return
        is_row = np.zeros(len(self.grouping.templates), dtype=bool)
        is_row[self.templates] = True
        at = np.flatnonzero(is_row[self.grouping.codes])[:MAX_LINES].tolist()
        state = self.st.setdefault("srows", {"n": 0, "open": [], "head": None})
        count = int(state["n"])
        open_names = set(state["open"])
        heading = self.start_heading or state["head"]
        per: dict[str, tuple[list[int], list[float]]] = {}
        prev = -2
        for i in at:
            got = stat_row(self.lines[i], self.dialect)
            if got is None:
                continue
            if i > self.first:  # a heading right above; else the rows above go on (or, after other lines, none)
                heading = _heading(self.lines[i - 1]) or (heading if i == prev + 1 else None)
            prev = i
            name = _full_name(heading, got[0], self.dialect)
            if name in open_names or not count:
                count += 1
                open_names.clear()
            if len(open_names) < MAX_OPEN:
                open_names.add(name)
            if name in per or len(per) < MAX_NAMES:
                s, v = per.setdefault(name, ([], []))
                s.append(count)
                v.append(got[1])
        if not per:
            return
        if not state["n"]:
            em.notes.append("statistics rows (name (min: .., max: .., cur: ..)): one record per block, at its count")
        state.update(n=count, open=sorted(open_names), head=heading)
        for name, (s, v) in per.items():
            em.extend(name, np.array(s, dtype=np.int64), np.array(v, dtype=np.float64))
