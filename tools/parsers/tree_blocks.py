"""Tree-drawn vertical records in a text log: a block whose rows carry box-drawing rails and branch marks by depth,
one record per block (DESIGN.md, "Records, not lines": record kind (c), drawn as a tree).

lpd's ``StatsPrint`` callback prints, at every epoch's end::

    ┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ┃   [StatsPrint]
    ┃   ┏━━ Name: "mlp_reg"
    ┃   ┣━━ Epoch: 1
    ┃   ┣━━ Learning rates: [0.005]
    ┃   ┣━━ Train
    ┃   ┃     ┣━━ loss IMPROVED
    ┃   ┃     ┃     ┗━━ curr:6.9243, prev:inf, best:6.9243, change_from_prev:-inf, change_from_best:-inf
    ┃   ┃     ┗━━ metrics
    ┃   ┃           ┣━━ name: "acc" IMPROVED, curr:0.57, prev:-inf, best:0.57, ...
    ┃   ┗━━ Validation
    ┃         ┣━━ loss IMPROVED
    ┃         ┃     ┗━━ curr:6.44, prev:inf, best:6.44, ...
    ┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━

A row is a line opening with rails (``┃ │ ║`` and blanks) then a branch mark (a corner or a tee and a run of
horizontals: ``┣━━``, ``└──``) then its text; its depth is where its mark stands. A row of text alone opens a section
(a trailing status word in capitals, ``IMPROVED`` / ``NOT IMPROVED``, no part of its name); the rows deeper under it
are named by the path of their sections: a split's section (``Dialect.split_rows``) is the name's prefix (``Train`` >
``loss`` -> ``loss``, ``Validation`` > ``loss`` -> ``val_loss``), the others joined by ``/``. A ``name: number`` row
is a value; a row of ``key:value`` pairs gives the value of its key naming the current one
(``Dialect.current_words``: ``curr``, ``value``), never the best, the previous one or the changes, and is named by its
section (or by a quoted name its pairs hold: ``name: "acc"``, ``Dialect.repr_name_fields``). A block is a run of such
lines (rails alone, rules, a title); a path met again, or a line of no rail, starts the next one. Each block is one
record at its shallowest row named like a step (``Dialect.block_step_names``: ``Epoch: 3``); a block with none is no
series (a settings tree).

The engine emits these records after its line records (``engine._read_block``): at one step the block's value is
the run's, a bar's running value of the same name a display. A block the read ends inside waits for the rest of it
(``hold_tree``): the same bytes give the same points in any reads.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .base import Emitter
from .blocks import _first_last
from .dialect import DIALECT, Dialect
from .templates import NAN_MARK, Grouping

MAX_TEMPLATES = 4096  # distinct templates tested per read block
MAX_LINES = 1 << 18  # rows read per read block; more: none read as trees
MAX_BLOCK_ROWS = 1024  # rows of one block; a longer run is no record
MAX_DEPTH = 8  # section levels kept in a name
MAX_NAME = 96  # bytes of a row's name
MAX_NAMES = 1024  # distinct names per read
MAX_PAIRS = 16  # key:value pairs of a row looked at
MAX_PREFIX = 256  # bytes of rails before a branch mark
MAX_GAP = 8  # lines between two rows of a block looked at (rails alone, a title); more: the block ended
MAX_TAIL_LINES = 1024  # lines of a block cut at a read's end kept for the next read (more: read as they are)
MAX_TAIL_BYTES = 1 << 17
MAX_ROW_BYTES = 4096

_RAILS = ("\u2503", "\u2502", "\u2551", "\u250a", "\u2506")  # ┃ │ ║ ┊ ┆
_CORNERS = ("\u2523", "\u2517", "\u250f", "\u251c", "\u2514", "\u250c", "\u2560", "\u255a", "\u2554")
_HORIZONTALS = ("\u2501", "\u2500", "\u2550")  # ━ ─ ═
_RAIL_B = tuple(c.encode() for c in _RAILS)
_CORNER_B = tuple(c.encode() for c in _CORNERS)
_HORIZ_B = tuple(c.encode() for c in _HORIZONTALS)
_TOP_B = tuple(c.encode() for c in ("\u250f", "\u250c", "\u2554"))  # a top border's corner: ┏ ┌ ╔
_BOX_LEAD = (b"\xe2\x94", b"\xe2\x95")  # U+2500..U+257F in UTF-8


def _drawn(line: bytes) -> bool:
    """A line of a tree's drawing: its first non-blank character a box-drawing one."""
    s = line.lstrip(b" ")
    return s[:2] in _BOX_LEAD


def _mark(line: bytes) -> tuple[int, bytes] | None:
    """(depth, text) of a tree's row: rails and blanks, a branch mark (a corner or tee, then horizontals), a blank and
    its text; None for a line of no such mark (rails alone, a rule, a title on a rail)."""
    i, n = 0, min(len(line), MAX_PREFIX)
    while i < n:
        c = line[i]
        if c == 0x20:
            i += 1
        elif line[i:i + 3] in _RAIL_B:
            i += 3
        else:
            break
    if line[i:i + 3] not in _CORNER_B:
        return None
    depth = i
    i += 3
    k = 0
    while line[i:i + 3] in _HORIZ_B:
        i += 3
        k += 1
    if not 1 <= k <= 4 or line[i:i + 1] != b" ":
        return None  # a rule (a long run of horizontals), or a mark with nothing after it
    text = line[i + 1:].strip()
    return (depth, text) if text else None


def _is_border(line: bytes) -> bool:
    """A tree block's top or bottom border: a corner then horizontals only, at the line's start."""
    s = line.strip()
    return len(s) >= 12 and s[:3] in _CORNER_B and s[3:6] in _HORIZ_B and s.replace(s[3:6], b"") == s[:3]


def _number(value: bytes) -> float | None:
    v = value.strip().rstrip(b",")
    if not v or len(v) > 40 or v[:1] in (b"[", b"(", b"{", b'"', b"'"):
        return None
    if v == NAN_MARK:
        return math.nan
    try:
        x = float(v)
    except ValueError:
        return None
    return x


def _section(text: bytes) -> str:
    """A section's name: its text without trailing status words in capitals (``loss NOT IMPROVED`` -> ``loss``)."""
    words = text.split()
    while len(words) > 1 and words[-1].isalpha() and words[-1].isupper() and len(words[-1]) >= 2 and not (
            all(w.isupper() for w in words[:-1] if w.isalpha())):
        words.pop()
    return b" ".join(words)[:MAX_NAME].decode("utf-8", "replace")


def _pairs(text: bytes, dialect: Dialect) -> tuple[str | None, float | None] | None:
    """(quoted name or None, current value or None) of a row of ``key:value`` pairs (two or more, comma-separated),
    else None."""
    if b", " not in text:
        return None
    parts = text.split(b", ", MAX_PAIRS)[:MAX_PAIRS]
    name: str | None = None
    cur: float | None = None
    got = 0
    for p in parts:
        c = p.find(b":")
        if c <= 0:
            continue
        key = p[:c].strip().decode("latin-1").lower()
        val = p[c + 1:].strip()
        if val[:1] in (b'"', b"'") and key.encode() in dialect.repr_name_fields:
            q = val[:1]
            e = val.find(q, 1)
            if e > 1:
                name = val[1:e][:MAX_NAME].decode("utf-8", "replace")
            continue
        x = _number(val)
        if x is None:
            continue
        got += 1
        if cur is None and key in dialect.current_words:
            cur = x
    return (name, cur) if got >= 2 else None


class TreeBlocks:
    """What one read block's tree-drawn blocks give (see the module docstring)."""

    def __init__(self, lines: Sequence[bytes], grouping: Grouping, joined: bytes | None,
                 dialect: Dialect = DIALECT):
        self.lines = lines
        self.grouping = grouping
        self.dialect = dialect
        self.templates: set[int] = set()
        self.records: list[tuple[int, dict[str, float]]] = []  # (step, name -> value)
        self._names: set[str] = set()  # every name of this read's records: at most MAX_NAMES
        if joined is not None and not any(b in joined for b in _BOX_LEAD):  # (memchr-speed tests: no drawing)
            return
        self._find()

    def _find(self) -> None:
        templates = self.grouping.templates
        codes = self.grouping.codes
        first, _last = _first_last(codes, len(templates))
        lines = self.lines
        cand = [c for c in range(min(len(templates), MAX_TEMPLATES)) if _mark(lines[int(first[c])]) is not None]
        if not cand:
            return
        is_row = np.zeros(len(templates), dtype=bool)
        is_row[cand] = True
        at = np.flatnonzero(is_row[codes])
        if len(at) > MAX_LINES:
            return
        rows: list[tuple[int, int, bytes]] = []  # (line, depth, text) of the block read
        used: dict[int, int] = {}  # template -> its lines that are rows of a block read
        prev = -1
        for i in at.tolist():
            got = _mark(lines[i]) if len(lines[i]) <= MAX_ROW_BYTES else None
            if got is None:
                continue
            if rows and not self._joined(prev, i):
                self._record(rows, used)
                rows = []
            rows.append((i, got[0], got[1]))
            prev = i
        if rows:
            self._record(rows, used)
        counts = self.grouping.counts
        self.templates = {c for c, n in used.items() if n == int(counts[c])}  # (a template of other lines too: read)

    def _joined(self, a: int, b: int) -> bool:
        """Whether the lines between rows ``a`` and ``b`` are all of the drawing (rails alone, no border)."""
        if b - a - 1 > MAX_GAP:
            return False
        return all(_drawn(self.lines[k]) and not _is_border(self.lines[k]) for k in range(a + 1, b))

    def _record(self, rows: list[tuple[int, int, bytes]], used: dict[int, int]) -> None:
        """Read one block's rows (cut again where a path is met again) into records."""
        if len(rows) > MAX_BLOCK_ROWS:
            return
        stack: list[tuple[int, str]] = []
        rec: dict[str, float] = {}
        seen: set[str] = set()
        steps: list[tuple[int, float]] = []  # (depth, value) of rows named like a step
        lines_of: list[int] = []
        d = self.dialect

        def close() -> None:
            whole = [(dp, v) for dp, v in steps if math.isfinite(v) and v == round(v) and v >= 0]
            if whole and rec:
                step = int(min(whole)[1])
                self.records.append((step, dict(rec)))
                for i in lines_of:
                    c = int(self.grouping.codes[i])
                    used[c] = used.get(c, 0) + 1

        for i, depth, text in rows:
            while stack and stack[-1][0] >= depth:
                stack.pop()
            pairs = _pairs(text, d)
            leaf: str | None = None
            value: float | None = None
            if pairs is not None:
                leaf, value = pairs
            else:
                c = text.find(b": ")
                if c > 0 and c <= MAX_NAME:
                    leaf = _section(text[:c])
                    value = _number(text[c + 2:])
                    if leaf.lower() in d.block_step_names and value is not None:
                        steps.append((depth, value))
                else:
                    name = _section(text)
                    path = "/".join([s for _, s in stack] + [name])
                    if path in seen:  # the next record, printed without a line between
                        close()
                        rec.clear()
                        seen.clear()
                        steps.clear()
                        lines_of.clear()
                        stack.clear()
                    seen.add(path)
                    if len(stack) < MAX_DEPTH:
                        stack.append((depth, name))
                    lines_of.append(i)
                    continue
            full = self._name([s for _, s in stack], leaf)
            if full in seen and full:
                close()
                rec.clear()
                seen.clear()
                steps.clear()
                lines_of.clear()
            seen.add(full)
            lines_of.append(i)
            if value is not None and full and (full in self._names or len(self._names) < MAX_NAMES):
                self._names.add(full)
                rec[full] = value
        close()

    def _name(self, sections: list[str], leaf: str | None) -> str:
        """A row's name: its sections' path, a split's section its prefix (``Validation`` > ``loss``: ``val_loss``)."""
        prefix: str | None = None
        parts: list[str] = []
        for s in [*sections, *([leaf] if leaf else [])]:
            low = s.lower()
            if prefix is None and low in self.dialect.split_rows:
                prefix = str(self.dialect.split_rows[low])
                continue
            parts.append(s)
        if not parts:
            return ""
        return (prefix or "") + "/".join(parts)

    def taken(self) -> set[int]:
        """The templates read here (the engine reads them no further)."""
        return self.templates if self.records else set()

    def read(self, em: Emitter) -> None:
        """Emit one point per valued row of each record, at the record's step."""
        if not self.records:
            return
        per: dict[str, tuple[list[int], list[float]]] = {}
        for step, rec in self.records:
            for name, v in rec.items():
                if name.lower() in self.dialect.block_step_names:
                    continue
                s, vals = per.setdefault(name, ([], []))
                s.append(step)
                vals.append(v)
        for name, (s, vals) in per.items():
            em.extend(name, np.array(s, dtype=np.int64), np.array(vals, dtype=np.float64))


def hold_tree(data: bytes) -> tuple[bytes, bytes]:
    """(``data`` without the tree block it ends inside, that block's lines) when the read's last line is a line of a
    tree's drawing that is no closing border, in a run of such lines holding a branch mark (a row): the block may go
    on in the next read. At most ``MAX_TAIL_LINES`` lines
    and ``MAX_TAIL_BYTES`` bytes wait; a longer run is read as it is. Only the lines of that run are looked at."""
    end = len(data)
    if not end or data[-1:] != b"\n" or not any(b in data[-MAX_ROW_BYTES:] for b in _BOX_LEAD):
        return data, b""
    start = data.rfind(b"\n", 0, end - 1) + 1
    last = data[start:end].rstrip(b"\r\n")
    if not _drawn(last) or _is_border(last) and last.lstrip(b" ")[:3] not in _TOP_B:
        return data, b""  # no drawing, or a block closed by its bottom border
    marked = _mark(last) is not None
    for _ in range(MAX_TAIL_LINES):
        if start == 0 or _is_border(data[start:data.find(b"\n", start)].rstrip(b"\r")) and (
                data[start:start + MAX_PREFIX].lstrip(b" ")[:3] in _TOP_B):
            break  # the block's top border
        up = data.rfind(b"\n", 0, start - 1) + 1
        line = data[up:start].rstrip(b"\r\n")
        if start - up > MAX_ROW_BYTES or not _drawn(line) or _is_border(line) and line.lstrip(b" ")[:3] not in _TOP_B:
            break  # the line before the block (a bottom border: a block closed before)
        start = up
        marked = marked or _mark(line) is not None
    else:
        return data, b""
    if not marked:
        return data, b""  # no branch mark: no tree (a table's rows or rules, rails alone)
    if end - start > MAX_TAIL_BYTES:
        return data, b""
    return data[:start], data[start:]
