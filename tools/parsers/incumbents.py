"""A combinatorial solver's progress: its incumbent (the best solution found so far) at each new solution
(examples/libraries_holdout101; DESIGN.md, "Records, not lines"). Two shapes, one notion: the run's objective is
the incumbent's value, its step the count of solutions found so far.

- **A progress line naming the best so far** (OR-Tools CP-SAT's ``log_search_progress``: ``#3  0.05s best:17283
  next:[0,17282]  main (fixed_bools=0/870)``): a record at a position (``#3``, the solution's count) whose only
  value of a known kind is the one named ``best`` (``Dialect.progress_best_names``, glued to its name by ``:`` or
  ``=``) is the solver's best so far, the record's objective (``progress_best``; ``best`` elsewhere stays what it
  was: a statistic beside a loss, ``loss 0.5 (best 0.4)``, or nothing). Lines of the same solver with no position
  (``#Bound 0.02s best:inf next:[...]``, ``#Done``) are no records of it.
- **A table whose rows may start with a one-character marker** (SCIP's display: `` time | node  | left |...|
  dualbound   | primalbound  |  gap   | compl. `` repeated every 15 rows, rows ``r 0.0s|     1 |  ...``): a header
  of names between ``|`` naming an incumbent column (``Dialect.incumbent_names``: ``primalbound``), its rows the
  lines cell for cell on its ``|`` (``incumbent_row``); a row opened by a single non-blank byte where the header is
  blank (a heuristic's letter, ``*`` for a node's integral LP) marks a new incumbent: the incumbent column's value
  at that row is a point, at the count of marked rows so far (the k-th new incumbent, as CP-SAT's ``#k``); an
  unmarked row (root rounds, every 100 nodes) repeats the last incumbent: no point. The count, and the header a
  read ends under, are kept in the log's state: the same points read whole or in pieces. Read here only (the
  engine reads those templates no further).

Bounded: one test per distinct template (its first line), a header or row of at most ``MAX_LINE`` bytes with at
most ``MAX_CELLS`` cells, the cells of each row split once: linear in the block.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .base import Emitter
from .dialect import DIALECT, Dialect
from .templates import Grouping

MAX_LINE = 512  # bytes of a header or a row
MAX_CELLS = 40  # cells of a header
MAX_TEMPLATES = 4096  # distinct templates tested per read block
MARKER_WIDTH = 1  # a marker: one byte opening the row, a blank after it


# -- a progress line naming the best so far ---------------------------------------------------------------------

def progress_best(rep: bytes, a: int, low: str, table: bool, dialect: Dialect = DIALECT) -> bool:
    """Whether the field starting at ``a`` of the line ``rep``, named ``low``, may be a progress line's best so far
    (``best:17283``): a line record, not a table's cell, the name one of ``Dialect.progress_best_names`` glued to the
    value by ``:`` or ``=`` (blanks after it allowed). Kept aside by ``plan_template`` and made the record's metric
    only by ``keep_best``."""
    if table or low not in dialect.progress_best_names:
        return False
    i = a - 1
    while i >= 0 and rep[i] in b" \t":
        i -= 1
    return i >= 1 and rep[i] in b":=" and rep[i - 1:i].isalpha()


def keep_best(metrics: dict[int, str], held: int | None, positioned: bool, known: bool) -> None:
    """A progress line's best so far (``held``, ``progress_best``) is its metric ``best`` (a running best: the
    run's objective where nothing else is, ``objective.search_objective``) when the record has a position
    (``positioned``: a solution's count ``#N``, a step) and names no value of a known kind (``known``: a loss, an
    evaluation; a best beside a loss is that loss's statistic)."""
    if held is not None and positioned and not known and held not in metrics:
        metrics[held] = "best"


# -- a table of a solver's progress, its rows maybe opened by a marker ------------------------------------------

def _bars(line: bytes) -> list[int]:
    """Where the ``|`` of a line are."""
    out: list[int] = []
    i = line.find(b"|")
    while i >= 0 and len(out) <= MAX_CELLS:
        out.append(i)
        i = line.find(b"|", i + 1)
    return out


def incumbent_header(line: bytes, dialect: Dialect = DIALECT) -> tuple[list[int], int] | None:
    """(the ``|`` positions, the index of the incumbent's cell) of a solver table's header: cells of names (no
    digit) between ``|``, at least 4 cells, blank at its first byte (where a row's marker goes), one cell naming an
    incumbent (``Dialect.incumbent_names``); else None."""
    s = line.rstrip()
    if not s or len(s) > MAX_LINE or b"|" not in s or s[:MARKER_WIDTH] not in (b" ", b"\t"):
        return None
    if any(48 <= c <= 57 for c in s):
        return None
    bars = _bars(s)
    if len(bars) < 3 or len(bars) > MAX_CELLS:
        return None
    edges = [-1, *bars, len(s)]
    names = [s[edges[k] + 1:edges[k + 1]].strip().decode("latin-1").lower() for k in range(len(edges) - 1)]
    if any(not n for n in names[1:-1]):
        return None
    hits = [k for k, n in enumerate(names) if n in dialect.incumbent_names]
    if len(hits) != 1:
        return None
    return bars, hits[0]


def incumbent_row(line: bytes, n_bars: int) -> tuple[bool, bytes] | None:
    """(whether the row is marked, the row) of a row under a header of ``n_bars`` ``|``: as many ``|`` (cell for
    cell on the header; a column grown wider than its header moves the ones after it), its first cell holding a
    digit; marked when its first byte is not blank and a blank follows (a heuristic's letter, ``*``: a new
    incumbent). None for any other line."""
    s = line.rstrip()
    if len(s) > MAX_LINE or s.count(b"|") != n_bars:
        return None
    first = s[:s.find(b"|")]
    if not any(48 <= c <= 57 for c in first):
        return None
    marked = first[:MARKER_WIDTH] not in (b" ", b"\t") and first[MARKER_WIDTH:MARKER_WIDTH + 1] in (b" ", b"\t")
    if not marked and first[:MARKER_WIDTH] not in (b" ", b"\t"):
        return None  # (a first cell that starts at the line's start: no marker's place)
    return marked, s


def _cell_value(row: bytes, k: int) -> float:
    """The number in cell ``k`` of a row (NaN when the cell holds none: ``--``; ``Inf`` read as inf)."""
    cell = row.split(b"|")[k].strip()
    try:
        return float(cell)
    except ValueError:
        return float("nan")


class IncumbentTable:
    """What one read block's solver tables give (see the module docstring)."""

    def __init__(self, lines: Sequence[bytes], grouping: Grouping, st: dict, first: int = 0,
                 dialect: Dialect = DIALECT):
        self.lines = lines
        self.grouping = grouping
        self.st = st
        self.first = first
        self.templates: set[int] = set()
        self.points: list[tuple[int, float]] = []  # (the incumbent's count, its value)
        self.name = ""
        self._find(dialect)

    def _find(self, dialect: Dialect) -> None:
        lines, grouping = self.lines, self.grouping
        templates = grouping.templates[:MAX_TEMPLATES]
        open_head = self.st.get("inc_head")  # the header a read before ended under: [bars, cell, name]
        if open_head is None and not any(b"|" in t for t in templates):
            return
        firsts = np.zeros(len(grouping.templates), dtype=np.int64)  # the first line of each template
        at = np.arange(len(grouping.codes))
        firsts[grouping.codes[::-1]] = at[::-1]
        heads: dict[int, list] = {}
        for c, t in enumerate(templates):
            if b"|" in t and not any(48 <= x <= 57 for x in t):  # (a header holds no digit: no number's mark)
                line = lines[int(firsts[c])]
                got = incumbent_header(line, dialect)
                if got is not None:
                    edges = [-1, *got[0], len(line.rstrip())]
                    name = line[edges[got[1]] + 1:edges[got[1] + 1]].strip().decode("latin-1")
                    heads[c] = [got[0], got[1], name]
        if not heads and open_head is None:
            return
        widths = {len(h[0]) for h in heads.values()} | ({len(open_head[0])} if open_head else set())
        rows = {c for c, t in enumerate(templates) if c not in heads and t.count(b"|") in widths
                and incumbent_row(lines[int(firsts[c])], t.count(b"|")) is not None}
        # the lines of these templates in order: a row counts under the header above it (or the one a read before
        # ended under), cell for cell
        count = int(self.st.get("inc_count", 0))
        head = open_head
        codes = grouping.codes
        mine = np.flatnonzero(np.isin(codes, np.fromiter(set(heads) | rows, dtype=np.int64)))
        for i in mine.tolist():
            c = int(codes[i])
            if c in heads:
                head = heads[c]
                continue
            if head is None or i < self.first:
                continue  # (a line carried from a read before was read there)
            row = incumbent_row(lines[i], len(head[0]))
            if row is None or not row[0]:
                continue
            count += 1
            self.points.append((count, _cell_value(row[1], head[1])))
            self.name = head[2]
        self.templates = set(heads) | rows
        self.st["inc_count"] = count
        if head is not None:
            self.st["inc_head"] = head

    def taken(self) -> set[int]:
        """The templates read here (the engine reads them no further)."""
        return self.templates

    def read(self, em: Emitter) -> None:
        """Emit the incumbent at each marked row, at its count."""
        if not self.points:
            return
        if not self.st.get("inc_said"):
            self.st["inc_said"] = True
            em.notes.append(f"a solver's table: its incumbent (`{self.name}`) at each row marked a new one (a "
                            "letter or `*` before its first cell), numbered by their count")
        steps = np.array([p[0] for p in self.points], dtype=np.int64)
        vals = np.array([p[1] for p in self.points], dtype=np.float64)
        ok = ~np.isnan(vals)
        em.extend(self.name, steps[ok], vals[ok])
