"""Transposed tables in a text log: a row of column names over a row of values, one record per message
(DESIGN.md, "Records, not lines": a block record of its own kind).

DI-engine's learner logs through rich's logging handler::

    [12-07 14:04:35] INFO     [RANK0]: === Training Iteration 15 Result ===            base_learner.py:360
    [12-07 14:04:35] INFO                                                              learner_hook.py:228
                              +-------+------------+-------------------------+----------------+
                              | Name  | cur_lr_avg | weighted_total_loss_avg | total_loss_avg |
                              +-------+------------+-------------------------+----------------+
                              | Value | 0.003000   | 34.714985               | 34.714985      |
                              +-------+------------+-------------------------+----------------+

A table is a row opening with a name-row word (``Dialect.transposed_rows``: ``Name``, ``Key``) whose other cells are
column names, then (past rules) a row opening with its value-row word (``Value``) holding as many cells: each name's
value. A row wider than the terminal goes on in the physical lines under it (a piece at the row's indentation that
does not open with a border, or follows a piece that did not close with one: ``analysis/l2_norm_before_avg |``; a
rule's rest is dashes); the pieces are joined before the row is cut into cells (at most ``MAX_PIECES``). Several
tables under one message are one record.

The record's step is the position its message names (the nearest logger line above with a message: a rich-handler
line ``[stamp] LEVEL  message   file.py:LINE`` is its message, its trailing source location no field, an empty
message passed over): a step word of ``Dialect.block_step_names`` then a whole number (``Training Iteration 15``);
else a cell named as a step (``train_iter``: a split's word then a step word). A message naming an evaluation
(``Dialect.eval_words``, ``Dialect.eval_agents``: ``[EVALUATOR]``) makes the record an evaluation's (``val_`` names).
A record with no step is no series.

Pieces: the message a read ends under and a table the read ends inside (its lines, at most ``MAX_TAIL``) are kept in
the state: the next read goes on with them, so the same bytes give the same points in any reads. Linear: only the
lines of name-row templates are looked at, each table walked forward at most ``MAX_TABLE_LINES`` lines, each message
looked for at most ``MAX_BACK`` lines back.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .base import Emitter
from .blocks import _first_last
from .dialect import DIALECT, Dialect
from .stat_rows import cell_number
from .templates import Grouping

MAX_TEMPLATES = 4096  # distinct templates tested per read block
MAX_PIECES = 4  # physical lines of one row
MAX_CELLS = 64  # cells of one row
MAX_NAME = 96  # bytes of a column's name
MAX_NAMES = 512  # distinct names per read
MAX_TABLES = 1 << 16  # tables per read block
MAX_TABLE_LINES = 16  # lines from a name row to its value row's end
MAX_BACK = 256  # lines looked back for a table's message
MAX_TAIL = 16  # lines of a table a read ends inside, kept for the next read
MAX_TAIL_BYTES = 1 << 16
MAX_MESSAGES = 64  # templates of records' messages kept in the state

_NAME_CHARS = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-@[]"
_RULE_CHARS = b"+-=|"


def _is_rule(s: bytes) -> bool:
    """A rule of a table (or a rule's wrapped rest): dashes and corners only."""
    return len(s) >= 2 and b"-" in s and not s.translate(None, _RULE_CHARS)


def _indent(line: bytes) -> int:
    return len(line) - len(line.lstrip(b" "))


def _first_cell(s: bytes) -> bytes:
    """The first cell of a row ``| Name  | a | b |`` (lowercased), else b''."""
    if not s.startswith(b"|"):
        return b""
    end = s.find(b"|", 1)
    return s[1:end if end > 0 else len(s)].strip().lower()


def _row(lines: Sequence[bytes], i: int, stop: int) -> tuple[bytes, int] | None:
    """The row opening at line ``i`` with its wrapped pieces joined, and the line after it; None when the lines end
    (at ``stop``) before the row can be known whole."""
    first = lines[i].rstrip()
    col = _indent(first)
    row = first.strip()
    j = i + 1
    for _ in range(MAX_PIECES - 1):
        if j >= stop:
            return None
        nxt = lines[j].rstrip()
        s = nxt.strip()
        if not s or _indent(nxt) != col or _is_rule(s):
            break
        if row.endswith(b"|") and (s.startswith(b"|") or not s.endswith(b"|")):
            break  # a row of its own, or no rest of a row (a rest closes with the row's border)
        row += b" " + s
        j += 1
    return row, j


def _cells(row: bytes) -> list[bytes] | None:
    s = row.strip()
    if not s.startswith(b"|") or not s.endswith(b"|"):
        return None
    parts = s[1:-1].split(b"|", MAX_CELLS + 1)
    if len(parts) > MAX_CELLS:
        return None
    return [p.strip() for p in parts]


def _number(cell: bytes) -> float | None:
    v = cell.strip()
    if v.startswith(b"[") and v.endswith(b"]") and b"," not in v:
        v = v[1:-1]  # a one-element list printed as such (``[15.0]``)
    return cell_number(v)


def _name(cell: bytes) -> str | None:
    if 0 < len(cell) <= MAX_NAME and not cell.translate(None, _NAME_CHARS) and not cell[:1].isdigit():
        return cell.decode("latin-1")
    return None


def _message(line: bytes, dialect: Dialect) -> bytes:
    """A logger line's message: without its stamp in brackets, its level and a trailing source location."""
    s = line.strip()
    while s.startswith(b"[") and b"]" in s[:48]:
        end = s.find(b"]")
        inner = s[1:end]
        if not any(48 <= ch <= 57 for ch in inner):
            break  # a tag (``[RANK0]`` holds a digit; ``[EVALUATOR]`` is the message's)
        s = s[end + 1:].lstrip()
    word = s.split(None, 1)
    if word and word[0].lower().rstrip(b":").decode("latin-1") in dialect.level_words:
        s = word[1] if len(word) > 1 else b""
    s = s.strip()
    cut = max(s.rfind(b" "), s.rfind(b"\t"))
    last = s[cut + 1:]
    before = s[:cut + 1]
    name, colon, num = last.rpartition(b":")
    if colon and num.isdigit() and len(num) <= 9 and b"." in name and (
            name.rpartition(b".")[2].decode("latin-1") in dialect.source_suffixes) and (
            not before.strip() or before.endswith(b"  ")):
        s = before  # a source location right-aligned at the line's end (rich's handler): no field
    return s.strip()


def _context(msg: bytes, dialect: Dialect) -> tuple[int | None, bool]:
    """(the step a message names, whether it names an evaluation)."""
    words = msg.replace(b"[", b" ").replace(b"]", b" ").replace(b"=", b" ").replace(b":", b" ").split()[:64]
    step = None
    is_eval = False
    steps = dialect.block_step_names
    for k, w in enumerate(words):
        lw = w.lower().strip(b",;.").decode("latin-1")
        if lw in dialect.eval_words or lw in dialect.eval_agents:
            is_eval = True
        if step is None and lw in steps and k + 1 < len(words):
            n = words[k + 1].split(b"/")[0].strip(b",;")
            if n.isdigit() and len(n) <= 15:
                step = int(n)
    return step, is_eval


def _cell_step(name: str, dialect: Dialect) -> bool:
    low = name.lower()
    if low in dialect.block_step_names:
        return True
    head, _, rest = low.partition("_")
    return bool(rest) and head in dialect.split_rows and rest in dialect.block_step_names


class Transposed:
    """What one read block's transposed tables give (see the module docstring)."""

    def __init__(self, lines: Sequence[bytes], grouping: Grouping, st: dict, first: int = 0,
                 dialect: Dialect = DIALECT):
        self.lines = lines
        self.grouping = grouping
        self.st = st
        self.first = first
        self.dialect = dialect
        self.heads = {h.encode() for h, _ in dialect.transposed_rows}
        self.name_codes: list[int] = []
        self.used: set[int] = set()
        tail = st.get("tp_tail")
        templates = grouping.templates
        rows = [c for c, t in enumerate(templates[:MAX_TEMPLATES]) if t.lstrip(b" \t").startswith(b"|")]
        if rows:
            firsts, _lasts = _first_last(grouping.codes, len(templates))
            for c in rows:
                if _first_cell(lines[int(firsts[c])].strip()) in self.heads:
                    self.name_codes.append(c)
        self.records: list[tuple[int, int | None, bool, list[str], list[float]]] = []
        self.end_key = -1
        self.start_cell: int | None = None
        if self.name_codes or tail or st.get("tp_on"):
            self._find()

    def _find(self) -> None:
        lines, codes = self.lines, self.grouping.codes
        tail = [t.encode("latin-1") for t in self.st.pop("tp_tail", None) or []]
        n_own = len(lines)
        first = self.first  # lines before it were carried from earlier reads by the engine (one-off lines)
        # the lines walked: a table a read before ended inside, then this read's own (line ``i`` at ``i + shift``)
        seq: Sequence[bytes] = tail + list(lines[first:]) if (tail or first) else lines
        off = len(tail)
        shift = off - first
        at = np.flatnonzero(np.isin(codes, self.name_codes)) if self.name_codes else np.zeros(0, dtype=np.int64)
        at = at[at >= first]
        starts = list(range(len(tail))) + [int(i) + shift for i in at.tolist()[:MAX_TABLES]]
        ctx0 = self.st.get("tp_ctx")
        ctx_start: tuple[int, int | None, bool] = (-1, ctx0[0], bool(ctx0[1])) if ctx0 else (-1, None, False)
        self.start_cell = None if not ctx0 or len(ctx0) < 3 else ctx0[2]
        used: list[int] = []
        stop = len(seq)
        if stop and not seq[stop - 1]:
            stop -= 1  # the empty piece after the read's final line break
        last_end = 0
        ctx_cache: dict[int, tuple[int, int | None, bool]] = {}
        for i in starts:
            if i < last_end:
                continue
            s = seq[i].strip()
            if not s.startswith(b"|") or _first_cell(s) not in self.heads:
                continue
            head_word = _first_cell(s)
            got = _row(seq, i, stop)
            if got is None:
                self._carry(seq, i, stop)
                break
            name_row, j = got
            while j < stop and j - i < MAX_TABLE_LINES and _is_rule(seq[j].strip()):
                j += 1
            if j >= stop:
                self._carry(seq, i, stop)
                break
            vs = seq[j].strip()
            value_words = {v.encode() for h, v in self.dialect.transposed_rows if h.encode() == head_word}
            if not vs.startswith(b"|") or _first_cell(vs) not in value_words:
                continue
            got = _row(seq, j, stop)
            if got is None:
                self._carry(seq, i, stop)
                break
            value_row, k = got
            names, cells = _cells(name_row), _cells(value_row)
            if names is None or cells is None or len(names) != len(cells) or len(names) < 2:
                continue
            ctx = self._ctx_for(seq, i, off, ctx_start, ctx_cache)
            keep_n: list[str] = []
            keep_v: list[float] = []
            for nm, cell in zip(names[1:], cells[1:], strict=True):
                name = _name(nm)
                v = _number(cell)
                if name is not None and v is not None:
                    keep_n.append(name)
                    keep_v.append(v)
            while k < stop and k - i < MAX_TABLE_LINES and _is_rule(seq[k].strip()):
                k += 1
            used.extend(range(i, k))
            last_end = k
            self.records.append((ctx[0], ctx[1], ctx[2], keep_n, keep_v))
        # the message the read ends under, for the next read
        end_ctx = self._ctx_for(seq, stop, off, ctx_start, ctx_cache)
        self.end_key = end_ctx[0]
        self.st["tp_ctx"] = [end_ctx[1], end_ctx[2], self.start_cell if end_ctx[0] == -1 else None]
        if self.records:
            self.st["tp_on"] = True
        # the message lines heading a record are its own (its numbers are the record's, no line of the engine's):
        # their templates kept in the state, so a read holding such a line before its tables takes it too
        msgs = self.st.setdefault("tp_msgs", [])
        for key in {r[0] for r in self.records}:
            if key >= off and len(msgs) < MAX_MESSAGES:
                t = self.grouping.templates[int(codes[key - shift])].decode("latin-1")
                if t not in msgs:
                    msgs.append(t)
        own = [u - shift for u in used if u >= off]
        self.used = set(own)
        carried = self.st.get("tp_tail")
        if carried:
            n_c = len(carried)
            self.used |= set(range(max(first, n_own - n_c), n_own))

    def _carry(self, seq: Sequence[bytes], i: int, stop: int) -> None:
        rest = [seq[x].decode("latin-1") for x in range(i, min(stop, i + MAX_TAIL))]
        if stop - i <= MAX_TAIL and sum(len(r) for r in rest) <= MAX_TAIL_BYTES:
            self.st["tp_tail"] = rest

    def _ctx_for(self, seq: Sequence[bytes], i: int, off: int, start: tuple[int, int | None, bool],
                 cache: dict[int, tuple[int, int | None, bool]]) -> tuple[int, int | None, bool]:
        """The context of the message governing line ``i``: the nearest line above with a message, past table lines,
        indented lines and empty messages (``start`` at the read's start)."""
        x = i - 1
        low = max(off, i - MAX_BACK)
        while x >= low:
            got = cache.get(x)
            if got is not None:
                return got
            line = seq[x]
            s = line.strip()
            if s and line[:1] not in (b" ", b"\t") and not s.startswith((b"|", b"+")):
                msg = _message(line, self.dialect)
                if msg:
                    step, is_eval = _context(msg, self.dialect)
                    ctx = cache[x] = (x, step, is_eval)
                    return ctx
            x -= 1
        return start if x < off else (-2, None, False)

    def taken(self) -> set[int]:
        """The templates all of whose lines are a table's here (the engine reads them no further)."""
        msgs = set(self.st.get("tp_msgs") or ())
        heads = {c for c, t in enumerate(self.grouping.templates) if t.decode("latin-1") in msgs} if msgs else set()
        if not self.used:
            return heads
        codes = self.grouping.codes
        idx = np.fromiter(self.used, dtype=np.int64)
        idx = idx[idx < len(codes)]
        hit = np.bincount(codes[idx], minlength=len(self.grouping.templates))
        return heads | {int(c) for c in np.flatnonzero((hit == self.grouping.counts) & (hit > 0)).tolist()}

    def read(self, em: Emitter) -> None:
        """Emit each record's values at its step."""
        records = self.records
        # a record's own step cell (an evaluator's ``train_iter``) places every table under its message
        cell: dict[int, int] = {}
        if self.start_cell is not None:
            cell[-1] = int(self.start_cell)
        for key, _step, _is_eval, names, vals in records:
            if key in cell or key == -2:
                continue
            for nm, v in zip(names, vals, strict=True):
                if _cell_step(nm, self.dialect) and v == v and 0 <= v < 1e15 and v == int(v):
                    cell[key] = int(v)
                    break
        if self.end_key in cell and self.st.get("tp_ctx"):
            self.st["tp_ctx"][2] = cell[self.end_key]
        if not records:
            return
        series: dict[str, tuple[list[int], list[float]]] = {}
        last: dict[str, int] = self.st.setdefault("tp_last", {})  # each name's last step, reads before
        for key, step, is_eval, names, vals in records:
            step = cell.get(key, step)
            if step is None:
                continue
            for nm, v in zip(names, vals, strict=True):
                if _cell_step(nm, self.dialect):
                    continue
                full = nm
                if is_eval and not any(nm.lower().startswith(w) for w in ("val", "eval", "test")):
                    full = "val_" + nm
                got = series.get(full)
                if got is None:
                    if len(series) >= MAX_NAMES:
                        continue
                    got = series[full] = ([], [])
                before = got[0][-1] if got[0] else last.get(full)
                if before is not None and step <= before:
                    continue  # a name given again at its step (or before): the first value stands
                got[0].append(step)
                got[1].append(v)
        if not series:
            return
        if not self.st.get("tp_said"):
            self.st["tp_said"] = True
            em.notes.append("transposed tables (a Name row over a Value row): one record per message, at its step")
        for name, (steps, vals) in series.items():
            if name in last or len(last) < MAX_NAMES:
                last[name] = steps[-1]
            em.extend(name, np.asarray(steps, dtype=np.int64), np.asarray(vals, dtype=np.float64))
