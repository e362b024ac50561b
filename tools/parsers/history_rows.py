"""A run's closing summary listing a metric's history: a heading naming the metric, then one row per position
(DESIGN.md, "Records, not lines": a block record of its own kind).

Flower's server prints no loss while it trains; at the run's end its ``History`` comes, each line under the logger's
prefix::

    INFO :      [SUMMARY]
    INFO :      Run finished 8 round(s) in 11.17s
    INFO :      	History (loss, distributed):
    INFO :      		round 1: 2.6551757037312282
    INFO :      		round 2: 0.639516735334094

A row is ``<position word> N: value`` ending its line (the position word a step's, an epoch's or a unit of a run's
length: ``round``, ``step``, ``epoch``, ``iteration`` ...), indented deeper than the line right above its run of rows,
which is the heading: words ending in ``:``, no digits, the same text before the indentation (the logger's prefix).
Each row is one point of the series the heading names (the words in its parentheses when it has them,
``loss_distributed``; else its words), at N. A heading or a run of rows that ends a read is kept in the state, so a
summary cut between reads is read as one read of it reads it. A row template is read here only when every run of
its rows in the read has a heading (or continues the one a read before ended in); else the engine reads it as it is.

One test per distinct template (its first line), one look at the line above each run of rows: linear.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .base import Emitter
from .blocks import Reader, _first_last, _one_number, _value_field
from .dialect import DIALECT, Dialect
from .templates import Grouping

MAX_TEMPLATES = 4096  # distinct templates tested per read block
MAX_LINE = 512  # bytes of a row or a heading
MAX_RUNS = 1024  # runs of rows looked at per read block; more: not read here
MAX_HEADING = 128  # bytes of a heading's own text


def positions(dialect: Dialect = DIALECT) -> frozenset[str]:
    """The words that name a row's position: a step's, an epoch's, a unit of a run's length in the singular."""
    return dialect.step_names | dialect.epoch_names | frozenset(u[:-1] for u in dialect.length_units)


def history_row(line: bytes, dialect: Dialect = DIALECT) -> tuple[int, int, int] | None:
    """(where the row's own text starts: its position word, where N starts, where the value starts) of a row
    ``<indent><position word> N: value``, else None."""
    s = line.rstrip()
    if len(s) > MAX_LINE:
        return None
    colon = s.rfind(b": ")
    if colon <= 0 or not _one_number(s[colon + 2:]):
        return None
    space = s.rfind(b" ", 0, colon)
    n = s[space + 1:colon]
    if space <= 0 or not n.isdigit() or len(n) > 9:
        return None
    blank = max(s.rfind(b" ", 0, space), s.rfind(b"\t", 0, space))
    word = s[blank + 1:space]
    if blank < 0 or not word.isalpha() or word.decode("latin-1").lower() not in positions(dialect):
        return None
    return blank + 1, space + 1, colon + 2


def heading_name(above: bytes, row: bytes, at: int) -> str | None:
    """The series a heading line names for the row under it whose own text starts at ``at``: the row's indentation
    is deeper (the same text before the heading's words, then more blanks), the heading's words end in ``:`` and
    hold no digit. The words in its parentheses, else its words, joined by ``_``; None when ``above`` is none."""
    head = above.rstrip()
    if not head.endswith(b":") or len(head) > MAX_LINE:
        return None
    common = 0
    top = min(len(head), at)
    while common < top and head[common] == row[common]:
        common += 1
    own = head[common:-1].strip()
    if (not own or len(own) > MAX_HEADING or not row[common:at].strip(b" \t") == b""
            or common == at or head[common:common + 1] in (b" ", b"\t")):
        return None  # (the row's indentation goes on past the heading's: deeper)
    if any(48 <= c <= 57 for c in own) or not any(c >= 65 for c in own):
        return None
    opened, closed = own.find(b"("), own.rfind(b")")
    inner = own[opened + 1:closed] if 0 <= opened < closed else own
    words = bytes(c if (48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122 or c == 95) else 32 for c in inner).split()
    return "_".join(w.decode("latin-1") for w in words) or None


class HistoryRows:
    """What one read block's closing history rows give (see the module docstring)."""

    def __init__(self, lines: Sequence[bytes], grouping: Grouping, st: dict, first: int = 0,
                 dialect: Dialect = DIALECT):
        self.lines = lines
        self.grouping = grouping
        self.st = st
        self.first = first  # lines before it were carried from earlier reads: not this read's text
        self.templates: list[int] = []
        self.runs: list[tuple[np.ndarray, str]] = []  # the lines of each run of rows and the name its heading gives
        self.field: dict[int, tuple[int, int]] = {}  # a row template -> the fields of its N and its value
        self.open: dict | None = st.pop("hist_open", None)  # the heading a read before ended under (its rows begin
        # this read): its name, or its line
        self._find(dialect)
        self._end_open()

    def _find(self, dialect: Dialect) -> None:
        """The row templates, and the runs of their rows with the name each run's heading gives."""
        lines, grouping = self.lines, self.grouping
        templates = grouping.templates
        if not any(b": " in t for t in templates[:MAX_TEMPLATES]):
            return
        firsts, _lasts = _first_last(grouping.codes, len(templates))
        starts: dict[int, int] = {}
        for c, t in enumerate(templates[:MAX_TEMPLATES]):
            if b": " not in t:
                continue
            line = lines[int(firsts[c])]
            got = history_row(line, dialect)
            if got is None:
                continue
            n_field, v_field = _value_field(line, got[1]), _value_field(line, got[2])
            if n_field is not None and v_field is not None and n_field != v_field:
                self.field[c] = (n_field, v_field)
                starts[c] = got[0]
        if not self.field:
            return
        codes = grouping.codes
        is_row = np.zeros(len(templates), dtype=bool)
        is_row[list(self.field)] = True
        at = np.flatnonzero(is_row[codes])
        begins = np.flatnonzero(np.concatenate(([True], np.diff(at) > 1))) if len(at) else at
        if len(begins) > MAX_RUNS:
            return
        bad: set[int] = set()
        ends = np.concatenate((begins[1:], [len(at)]))
        for b, e in zip(begins.tolist(), ends.tolist(), strict=True):
            run = at[b:e]
            i = int(run[0])
            c = int(codes[i])
            name = None
            if i == self.first and self.open is not None:  # under the heading a read before ended in
                name = self.open.get("name") or heading_name(self.open["line"].encode("latin-1"), lines[i], starts[c])
            elif i > self.first:
                name = heading_name(lines[i - 1], lines[i], starts[c])
            if name is None:
                bad.update(int(x) for x in np.unique(codes[run]).tolist())
                continue
            self.runs.append((run, name))
        self.templates = [c for c in self.field if c not in bad]
        keep = set(self.templates)
        self.runs = [(run, name) for run, name in self.runs if {int(x) for x in np.unique(codes[run])} <= keep]

    def _end_open(self) -> None:
        """Keep the heading this read ends under (a heading line, or a run of rows read here), for the next read."""
        last = len(self.lines) - 1
        if last >= self.first and not self.lines[last]:  # the empty piece after the read's final line break
            last -= 1
        if last < self.first:
            if self.open is not None:
                self.st["hist_open"] = self.open
            return
        if self.runs and int(self.runs[-1][0][-1]) == last:
            self.st["hist_open"] = {"name": self.runs[-1][1]}
            return
        head = self.lines[last].rstrip()
        if head.endswith(b":") and not any(48 <= c <= 57 for c in head) and len(head) <= MAX_LINE:
            self.st["hist_open"] = {"line": head.decode("latin-1")}  # named by the rows under it, next read

    def taken(self) -> set[int]:
        """The templates read here (the engine reads them no further)."""
        return set(self.templates)

    def read(self, em: Emitter, reader: Reader) -> None:
        """Emit each row's value at its N, under the name of its run's heading (``reader``: the engine's reader of
        a template's fields)."""
        if not self.runs:
            return
        codes = self.grouping.codes
        for run, name in self.runs:
            steps = np.full(len(run), np.nan)
            vals = np.full(len(run), np.nan)
            for c in np.unique(codes[run]).tolist():
                sel = np.flatnonzero(codes[run] == c)
                n_field, v_field = self.field[int(c)]
                got, bad = reader(self.lines, run[sel], [n_field, v_field])
                steps[sel], vals[sel] = got[n_field], got[v_field]
                if n_field in bad:
                    steps[sel[bad[n_field]]] = np.nan
            ok = ~np.isnan(steps)
            if ok.any():
                if not self.st.get("hist_said"):
                    self.st["hist_said"] = True
                    em.notes.append("a closing summary's history (a heading, then `round N: value` rows): a point "
                                    "per row, at N")
                em.extend(name, steps[ok], vals[ok])
