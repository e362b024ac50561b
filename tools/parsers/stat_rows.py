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

Only templates whose first line is such a row are tested (one test per distinct template); their lines' values are
read by the engine's field reader (C), their names and headings taken per template (per line only for a template
whose name holds digits, at most ``MAX_MIXED_LINES`` lines of it per read block), then one pass over the rows' name
ids counts the blocks: linear.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .base import Emitter
from .blocks import Reader, _first_last, _value_field
from .dialect import DIALECT, Dialect
from .templates import NAN_MARK, Grouping

MAX_TEMPLATES = 4096  # distinct templates tested per read block
MAX_LINES = 1 << 18  # rows read per read block; more: left to the engine's line templates
MAX_NAME = 64  # bytes of a row's or a heading's name
MAX_STATS = 8  # statistics in one row's parentheses
MAX_NAMES = 256  # distinct names per read
MAX_OPEN = 256  # names of the open block kept in the state
MAX_MIXED_LINES = 1 << 12  # lines per read block of a row (or heading) template whose name holds digits: each named
# on its own; more: that template's rows (or headings) not read

_NAME_CHARS = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-@"


def _name(word: bytes) -> bool:
    return 0 < len(word) <= MAX_NAME and not word.translate(None, _NAME_CHARS) and not word[:1].isdigit()


def cell_number(value: bytes) -> float | None:
    """A cell's number as ``float()`` reads it (NaN for the engine's NaN mark), None when it holds none (or more than
    40 bytes)."""
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
    got = _row_shape(line, dialect)
    return None if got is None else (got[0], got[1])


def _row_shape(line: bytes, dialect: Dialect) -> tuple[str, float, int] | None:
    """``stat_row``'s (name, current value) and which statistic in the parentheses is the current one."""
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
    for k, part in enumerate(parts):
        key, colon, value = part.partition(b":")
        v = cell_number(value)
        key = key.strip().lower()
        if not colon or v is None or not _name(key):
            return None
        if current is None and key.decode("latin-1") in dialect.current_words:
            current = (v, k)
    if current is None:
        return None
    return name.decode("latin-1"), current[0], current[1]


def _statistic_start(line: bytes, at: int) -> int:
    """Where the ``at``-th statistic's value starts in ``line`` (after its key's ``:``)."""
    pos = line.find(b"(") + 1
    for _ in range(at):
        pos = line.find(b",", pos) + 1
    return line.find(b":", pos) + 1


def _heading(line: bytes) -> str | None:
    """The name a heading line gives (one name alone at the line's start), else None."""
    if line[:1] in (b" ", b"\t") or len(line) > 2 * MAX_NAME:
        return None
    s = line.rstrip()
    return s.decode("latin-1") if _name(s) else None


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
        self.field: dict[int, int] = {}  # a row template -> the field of its current value
        self.row_name: dict[int, str | None] = {}  # its name, or None where the name holds digits (named per line)
        for c, t in enumerate(templates[:MAX_TEMPLATES]):
            line = lines[int(firsts[c])]
            got = _row_shape(line, dialect) if t.rstrip().endswith(b")") else None
            field = None if got is None else _value_field(line, _statistic_start(line, got[2]))
            if got is not None and field is not None:
                self.field[c] = field
                self.row_name[c] = None if any(48 <= ch <= 57 for ch in got[0].encode("latin-1")) else got[0]
        self.templates = list(self.field)

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

    def read(self, em: Emitter, reader: Reader) -> None:
        """Emit each row's current value at its block's count (``reader``: the engine's reader of a template's
        fields)."""
        if not self.templates:
            return
        lines, codes = self.lines, self.grouping.codes
        n_t = len(self.grouping.templates)
        is_row = np.zeros(n_t, dtype=bool)
        is_row[self.templates] = True
        at = np.flatnonzero(is_row[codes])[:MAX_LINES]
        state = self.st.setdefault("srows", {"n": 0, "open": [], "head": None})
        names: list[str | None] = [None]  # id 0: no name
        ids: dict[str | None, int] = {None: 0}

        def intern(name: str | None) -> int:
            k = ids.get(name)
            if k is None:
                k = ids[name] = len(names)
                names.append(name)
            return k

        n = len(at)
        vals = np.full(n, np.nan)
        keep = np.ones(n, dtype=bool)
        row_id = np.zeros(n, dtype=np.int64)
        r_codes = codes[at]
        for c in self.templates:
            sel = np.flatnonzero(r_codes == c)
            if not len(sel):
                continue
            idx = at[sel]
            got, bad = reader(lines, idx, [self.field[c]])
            vals[sel] = got[self.field[c]]
            if self.field[c] in bad:
                keep[sel[bad[self.field[c]]]] = False
            const = self.row_name[c]
            if const is not None:
                row_id[sel] = intern(const)
            elif len(sel) > MAX_MIXED_LINES:
                keep[sel] = False
            else:
                for j, i in zip(sel.tolist(), idx.tolist(), strict=True):
                    line = lines[i].strip()
                    row_id[j] = intern(line[:line.find(b"(")].strip().decode("latin-1"))
        # the heading of each run of rows: the line above its first row (this read's), named once per template
        above = at - 1
        starts = (above < self.first) | ~is_row[codes[np.maximum(above, 0)]]
        head_id = np.zeros(n, dtype=np.int64)
        s_at = np.flatnonzero(starts)
        s_code = codes[np.maximum(above[s_at], 0)]
        head_of: dict[int, int] = {}
        mixed_heads = 0
        for j, i, c in zip(s_at.tolist(), above[s_at].tolist(), s_code.tolist(), strict=True):
            if i < self.first:
                head_id[j] = intern(self.start_heading or state["head"])
                continue
            got_id = head_of.get(c)
            if got_id is None:
                t = self.grouping.templates[c]
                if any(48 <= ch <= 57 for ch in t) or NAN_MARK in t:  # a name holding digits: named per line
                    mixed_heads += 1
                    head_id[j] = intern(_heading(lines[i])) if mixed_heads <= MAX_MIXED_LINES else 0
                    continue
                got_id = head_of[c] = intern(_heading(lines[i]))
            head_id[j] = got_id
        run_at = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
        head_id = head_id[run_at]
        # each (heading, row) pair's metric name, once per pair
        base = len(names)
        pair = head_id * base + row_id
        uniq, inverse = np.unique(pair, return_inverse=True)
        full = np.array([intern(_full_name(names[u // base], str(names[u % base]), self.dialect))
                         for u in uniq.tolist()], dtype=np.int64)
        full_id = full[inverse.reshape(-1)]
        # one pass over the rows: a name met again in the open block starts the next one
        count = int(state["n"])
        open_ids = {intern(name) for name in state["open"]}
        block = np.zeros(n, dtype=np.int64)
        for j, f in enumerate(full_id.tolist()):
            if not keep[j]:
                continue
            if f in open_ids or not count:
                count += 1
                open_ids.clear()
            if len(open_ids) < MAX_OPEN:
                open_ids.add(f)
            block[j] = count
        if not keep.any():
            return
        if not state["n"]:
            em.notes.append("statistics rows (name (min: .., max: .., cur: ..)): one record per block, at its count")
        last = int(np.flatnonzero(keep)[-1])
        state.update(n=count, open=sorted(str(names[k]) for k in open_ids),
                     head=names[int(head_id[last])])
        order = np.flatnonzero(keep)
        kept_ids = full_id[order]
        first_of: dict[int, None] = {}  # the names in the order they first come, at most MAX_NAMES
        for k in kept_ids.tolist():
            if k not in first_of and len(first_of) < MAX_NAMES:
                first_of[k] = None
        for k in first_of:
            sel = order[kept_ids == k]
            em.extend(str(names[k]), block[sel], vals[sel])
