"""Borderless vertical records in a text log: a block of ``name: value`` lines, nested by indentation, one record
per block (DESIGN.md, "Records, not lines": record kind (c) without borders).

Ray RLlib's examples print each ``algo.train()`` result with ``pretty_print`` (YAML)::

    env_runners:
      episode_return_mean: 21.89
    learners:
      default_policy:
        total_loss: 7.90
    training_iteration: 2

A line ``name:`` with nothing after it opens a section: the lines indented under it are named ``section/name``
(``learners/default_policy/total_loss``). A block is a run of such lines (rows ``name: number``, sections, rows of
other values) between other lines; a name met again starts the next block (two records printed without a line
between). Each block is one record, at the step its step-like row gives (``Dialect.block_step_names``, the
shallowest first: ``timers/training_iteration`` is a time, ``training_iteration`` the step), else the whole-number
row that grows from block to block. Blocks are read only where a row named like a step is printed (a settings dump,
printed once or repeated, has none: it is left to the engine's line templates), and only from two blocks on, or one
nested block with its step row at the top level.

Only lines whose template is such a row are looked at (a test per distinct template), then each of those lines once
(a plain split at the first ``:``): linear. A block that reaches the end of a read waits for the rest of it (its
lines are read first with the next read): the same bytes give the same points in any reads.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .base import Emitter
from .blocks import _first_last
from .dialect import DIALECT, Dialect
from .templates import NAN_MARK, Grouping

MAX_DEPTH = 8  # section levels kept in a name; deeper rows are named by their first MAX_DEPTH levels
MAX_NAME = 96  # bytes of one key
MAX_FULL_NAME = 256  # characters of a joined name
MAX_TEMPLATES = 4096  # distinct templates tested per read block
MAX_LINES = 1 << 18  # rows read per read block; more: read as lines by the engine
MAX_BLOCK_ROWS = 4096  # rows of one block; a longer run is no record (a dump)
MAX_NAMES = 4096  # distinct joined names per read
MAX_TAIL_LINES = 4096  # lines of a block cut at a read's end kept for the next read (more: read as they are)
MAX_TAIL_BYTES = 1 << 18
MAX_GROWING_TRIES = 64  # rows tried as the one that grows from record to record
MIN_ROWS = 2  # numeric rows a block needs to be a record
MAX_INDENT = 64
MAX_ROW_BYTES = 4096  # a longer line is no row of a block and no line of a printed dict (hold_open looks no further)

_KEY_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-[]()@#")
_KEY_START = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_WRAPPER_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")
_YAML_NAN = (b".nan", b".NaN", b".NAN", b"." + NAN_MARK)


def _kv(line: bytes) -> tuple[int, bytes, bytes] | None:
    """(indent, key, value) of a ``key: value`` or ``key:`` line (value stripped, empty for a section), else None.
    A key is one word of name characters starting with a letter or ``_``."""
    s = line.rstrip()
    body = s.lstrip(b" ")
    indent = len(s) - len(body)
    if not body or indent > MAX_INDENT or body[0] not in _KEY_START:
        return None
    c = body.find(b":")
    if c <= 0 or c > MAX_NAME:
        return None
    rest = body[c + 1:]
    if rest and rest[:1] != b" ":
        return None  # "http://...", "12:30", "a:b"
    key = body[:c]
    if key[-1:] == b" " and rest:  # names padded to a column of colons (EvoTorch's "    mean_eval : 0.74")
        key = key.rstrip(b" ")
    if any(ch not in _KEY_CHARS for ch in key):
        return None
    if b" | " in rest:
        return None  # a record of its own after its first name (CHGNet's "Epoch: [0][1/6] | Time ... | Loss 2.93")
    return indent, key, rest.strip()



def _padded(line: bytes) -> bool:
    """A ``name : value`` row whose name is padded to a column of colons (``    mean_eval : 0.74``)."""
    c = line.find(b":")
    return c > 0 and line[c - 1:c] == b" " and line[:c].strip() != b"" and _kv(line) is not None


def _aligned(rows: Sequence[bytes]) -> bool:
    """A block's rows printed as a record's vertical table: names right-aligned (different indents) to one column
    of colons (EvoTorch's ``StdOutLogger``: ``         iter : 12`` / ``    mean_eval : 0.74``)."""
    if len(rows) < MIN_ROWS or len(rows) > MAX_BLOCK_ROWS:
        return False
    cols = {r.find(b":") for r in rows}
    indents = {len(r) - len(r.lstrip(b" ")) for r in rows}
    return len(cols) == 1 and len(indents) > 1 and all(_padded(r) for r in rows)


def _row(line: bytes) -> bool:
    """A line a block's row may be: ``key: number``, ``key:`` (a section), or ``key: word`` (one token: a host name,
    a date); a line whose value has blanks is a record of its own (``Epoch: [0/520] Iter: ...``)."""
    got = _kv(line)
    return got is not None and b" " not in got[2] and len(got[2]) <= 64


def _number(value: bytes) -> float | None:
    """The number a row's value is (YAML's ``.nan`` / ``.inf`` too), else None."""
    if not value or len(value) > 40:
        return None
    if value in _YAML_NAN or value == NAN_MARK:
        return math.nan
    if value[:1] == b"." and value[1:2].isalpha() or value[:2] in (b"-.", b"+.") and value[2:3].isalpha():
        value = value.replace(b".", b"", 1)  # YAML's .inf / -.inf
    try:
        return float(value)
    except ValueError:
        return None


class KeyBlocks:
    """What one read block's ``name: value`` blocks give (see the module docstring)."""

    def __init__(self, lines: Sequence[bytes], grouping: Grouping, st: dict, dialect: Dialect = DIALECT):
        self.lines = lines
        self.grouping = grouping
        self.dialect = dialect
        self.st = st
        self.templates: list[int] = []  # the row templates taken
        self.records: list[tuple[int, int, dict[str, float]]] = []  # (first line, last line, name -> value)
        self.step: str | None = None
        self._find()

    def _find(self) -> None:
        templates = self.grouping.templates
        if not any(b":" in t for t in templates[:MAX_TEMPLATES]):
            return
        first, _last = _first_last(self.grouping.codes, len(templates))
        cand = [c for c, t in enumerate(templates[:MAX_TEMPLATES]) if b":" in t and _row(self.lines[int(first[c])])]
        opens = [c for c, t in enumerate(templates[:MAX_TEMPLATES]) if t[:2] in (b"{'", b'{"') and _depth(t) > 0]
        if not cand and not opens:
            return
        if cand and not self.st.get("kvb_step") and not self._step_row(cand, first):
            cand = []  # no row named like a step recurs: no block here is a record (a config dump, repeated or not)
        if opens:
            cand = cand + self._dicts(opens)
        if cand:
            is_row = np.zeros(len(templates), dtype=bool)
            is_row[cand] = True
            at = np.flatnonzero(is_row[self.grouping.codes])
            if 2 * MIN_ROWS <= len(at) <= MAX_LINES:
                self._blocks(at)
        self.records.sort(key=lambda r: r[0])
        if not self.records or len(self.records) < 2 and not self.st.get("kvb_step") and not self._alone():
            self.records = []
            return
        self.step = self._choose_step()
        if self.step is None:
            self.records = []
            return
        self.templates = cand

    def _step_row(self, cand: list[int], first: np.ndarray) -> bool:
        """Whether a row template named like a step (``Dialect.block_step_names``) with a number recurs, or one is
        in a section (a result's first block, read alone): the test that lets the rows be read one by one."""
        counts = self.grouping.counts
        names = set(self.dialect.block_step_names)
        for c in cand:
            got = _kv(self.lines[int(first[c])])
            if got is not None and got[1].decode("latin-1").lower() in names and _number(got[2]) is not None and (
                    counts[c] >= 2 or got[0] == 0):
                return True
        return False

    def _alone(self) -> bool:
        """Whether the one record of a read that knows of none before is a record on its face: nested (a name holds a
        ``/``) with a whole-number row named like a step at its top level (the first result RLlib prints, read before
        the second is printed). A settings dump has no such row."""
        start, end, rec = self.records[0]
        if _aligned(self.lines[start:end + 1]):  # names right-aligned to one column of colons, a step-named row first
            got = _kv(self.lines[start])
            first = got[1].decode("latin-1").lower() if got else ""
            return first in self.dialect.block_step_names and first in rec and math.isfinite(rec[first]) and (
                rec[first] == round(rec[first]) and rec[first] >= 0)
        return any("/" in name for name in rec) and any(
            name in rec and math.isfinite(rec[name]) and rec[name] == round(rec[name]) and rec[name] >= 0
            for name in self.dialect.block_step_names)

    def _dicts(self, opens: list[int]) -> list[int]:
        """Records of dicts printed over several lines (``pprint``): from a line opening a dict that it does not
        close, the lines up to the one closing it, read as one record (nested keys joined by ``/``). The templates of
        those lines are returned (taken); a dict closed on its own line is left to the engine's line templates."""
        is_open = np.zeros(len(self.grouping.templates), dtype=bool)
        is_open[opens] = True
        codes = self.grouping.codes
        lines = self.lines
        used: set[int] = set()
        read = 0
        after = -1  # the last line of the dict read before (a dict inside it opens a line of its own too)
        for i in np.flatnonzero(is_open[codes]).tolist():
            if read > MAX_LINES:
                break
            if i <= after:
                continue
            depth = _depth(lines[i])
            if depth <= 0:
                continue  # a dict on one line
            j = i
            while depth > 0 and j + 1 < len(lines) and j - i < MAX_BLOCK_ROWS:
                j += 1
                depth += _depth(lines[j])
            read += j - i + 1
            after = j
            if depth != 0:
                continue  # never closed (past the caps)
            rec = _dict_values(b" ".join(lines[k] for k in range(i, j + 1)))
            if len(rec) >= MIN_ROWS:
                self.records.append((i, j, rec))
                used.update(int(c) for c in codes[i:j + 1].tolist())
        return sorted(used - set(opens)) + sorted(set(opens) & used)

    def _blocks(self, at: np.ndarray) -> None:
        """Cut the rows at line numbers ``at`` into blocks, each a record: consecutive lines, a name met again
        starting the next one."""
        names_seen: set[str] = set()
        rec: dict[str, float] = {}
        seen: set[str] = set()
        stack: list[tuple[int, str]] = []
        start = prev = -2
        n_rows = 0
        lines = self.lines

        def close(end: int) -> None:
            if len(rec) >= MIN_ROWS and n_rows <= MAX_BLOCK_ROWS:
                self.records.append((start, end, dict(rec)))

        for i in at.tolist():
            got = _kv(lines[i])
            if got is None or i != prev + 1:
                if start >= 0:
                    close(prev)
                rec.clear()
                seen.clear()
                stack.clear()
                start, n_rows = i, 0
                if got is None:
                    start = -2
                    prev = i
                    continue
            indent, key, value = got
            while stack and stack[-1][0] >= indent:
                stack.pop()
            k = key.decode("utf-8", "replace")
            name = "/".join([s for _, s in stack[:MAX_DEPTH]] + [k])[:MAX_FULL_NAME]
            if name in seen:  # the next record, printed without a line between
                close(prev)
                rec.clear()
                seen.clear()
                start, n_rows = i, 0
                stack.clear()
                name = k
            seen.add(name)
            n_rows += 1
            prev = i
            if not value:
                stack.append((indent, k))
                continue
            v = _number(value)
            if v is not None and (name in names_seen or len(names_seen) < MAX_NAMES):
                names_seen.add(name)
                rec[name] = v
        if start >= 0:
            close(prev)

    def _choose_step(self) -> str | None:
        """The step row (kept in the state once chosen): the shallowest row named like a step whose values are whole
        numbers that never go back, else the whole-number row that grows from record to record."""
        counts: dict[str, int] = {}
        for _a, _b, rec in self.records:
            for name in rec:
                counts[name] = counts.get(name, 0) + 1
        chosen = self.st.get("kvb_step")
        if chosen in counts:
            return str(chosen)

        def series(name: str) -> list[float]:
            return [rec[name] for _a, _b, rec in self.records if name in rec]

        alone = len(self.records) == 1

        def whole(v: list[float], strict: bool) -> bool:
            if alone:
                return bool(v) and math.isfinite(v[0]) and v[0] == round(v[0]) and v[0] >= 0 and not strict
            return len(v) >= 2 and all(math.isfinite(x) and x == round(x) for x in v) and all(
                (b > a if strict else b >= a) for a, b in zip(v, v[1:], strict=False)) and v[-1] > v[0]

        for want in self.dialect.block_step_names:
            hit = sorted((n for n in counts if n.rsplit("/", 1)[-1].lower() == want), key=lambda n: n.count("/"))
            for name in hit:
                if whole(series(name), strict=False):
                    return name
        tried = 0
        for name in counts:  # the first MAX_GROWING_TRIES names on two records or more: bounded work
            if counts[name] >= 2:
                tried += 1
                if whole(series(name), strict=True):
                    return name
                if tried >= MAX_GROWING_TRIES:
                    break
        return None

    def taken(self) -> set[int]:
        """The templates read here (the engine reads them no further)."""
        return set(self.templates)

    def read(self, em: Emitter) -> None:
        """Emit one point per numeric row of each record, at the record's step."""
        if self.step is None:
            return
        if self.st.get("kvb_step") != self.step:
            self.st["kvb_step"] = self.step
            em.notes.append(f"name: value blocks: one record per block, at its {self.step}")
        per: dict[str, tuple[list[int], list[float]]] = {}
        for _a, _b, rec in self.records:
            step = rec.get(self.step)
            if step is None or not math.isfinite(step):
                continue
            for name, v in rec.items():
                s, vals = per.setdefault(name, ([], []))
                s.append(int(step))
                vals.append(v)
        for name, (s, vals) in per.items():
            em.extend(name, np.array(s, dtype=np.int64), np.array(vals, dtype=np.float64))


def hold_open(data: bytes, known: bool) -> tuple[bytes, bytes]:
    """(``data`` without the record it ends in, that record's lines) when the read may end inside a record: a block
    of ``name: value`` lines reaching the end with a section in it (or any such block once the log is known to print
    them), or a dict opened on a line of its own and not closed yet. At most ``MAX_TAIL_LINES`` lines and
    ``MAX_TAIL_BYTES`` bytes wait; a longer run is read as it is. Only the lines of that run are looked at."""
    end = len(data)
    if not end or data[-1:] != b"\n":
        return data, b""
    cut = end
    nested = False
    depth = 0
    kv_run = True
    below = -1  # the indent of the line after the one looked at
    tops: set[bytes] = set()  # the top-level names of the record looked at (one met again: the record before)
    top_at = end
    for _ in range(MAX_TAIL_LINES):
        start = data.rfind(b"\n", 0, cut - 1) + 1
        if cut - start > MAX_ROW_BYTES:
            break  # a long line (a bar's redraws): no row of a block, no line of a printed dict
        line = data[start:cut].rstrip(b"\r\n")
        depth += _depth(line)
        if line[:1] == b"{":  # a dict opened on a line of its own: still open, or closed before the end
            return (data[:start], data[start:]) if depth > 0 and end - start <= MAX_TAIL_BYTES else (data, b"")
        got = _kv(line) if kv_run else None
        if got is None:
            kv_run = False
            if not line.strip() or line[:1] != b" ":
                break  # a blank, or a line of neither kind: no record is open
        else:
            indent, key, value = got
            if indent == 0:
                if key in tops:  # the record before: only the last one waits
                    start = top_at
                    return (data[:start], data[start:]) if (nested or known) and end - start <= MAX_TAIL_BYTES \
                        else (data, b"")
                tops.add(key)
                top_at = start
            nested = nested or not value and (below > indent or cut == end)  # a section, or one still opening
            nested = nested or _padded(line)  # a record's rows right-aligned to a column of colons
            below = indent
            if start == 0 or not _kv(data[data.rfind(b"\n", 0, start - 1) + 1:start].rstrip(b"\r\n")):
                if (nested or known) and end - start <= MAX_TAIL_BYTES:
                    return data[:start], data[start:]
                if depth <= 0:
                    break
        cut = start
        if cut == 0:
            break
    return data, b""


def _depth(line: bytes) -> int:
    """How many more brackets a line opens than it closes (quotes not looked into: pprint's keys hold none)."""
    return line.count(b"{") + line.count(b"[") + line.count(b"(") - line.count(b"}") - line.count(b"]") \
        - line.count(b")")


def _dict_values(text: bytes) -> dict[str, float]:
    """The numbers of a printed (nested) dict, by their keys joined with ``/`` (``{'learners': {'default_policy':
    {'total_loss': 7.9}}}`` -> ``learners/default_policy/total_loss``); values inside lists, and strings, are no
    numbers. One pass over the text; at most ``MAX_NAMES`` names."""
    out: dict[str, float] = {}
    path: list[str | None] = []  # a dict's key, or None for a list/tuple or a dict inside one
    key: str | None = None
    i, n = 0, len(text)
    while i < n and len(out) < MAX_NAMES:
        c = text[i]
        if c in (0x27, 0x22):  # a quoted string: a key when a ":" follows
            j = text.find(bytes([c]), i + 1)
            if j < 0:
                break
            k = j + 1
            while k < n and text[k] == 0x20:
                k += 1
            if k < n and text[k] == 0x3A and (not path or path[-1] is not None or len(path) == 0):
                key = text[i + 1:j].decode("utf-8", "replace")[:MAX_NAME]
                i = k + 1
            else:
                key = None
                i = j + 1
            continue
        if c == 0x7B:  # {
            inside = bool(path) and path[-1] is None
            path.append(None if inside or (path and key is None) else (key or ""))
            key = None
        elif c in (0x5B, 0x28):  # [ (
            path.append(None)
            key = None
        elif c in (0x7D, 0x5D, 0x29):  # } ] )
            if path:
                path.pop()
            key = None
        elif c == 0x2C:  # ,
            key = None
        elif c not in (0x20, 0x0A, 0x09) and key is not None:
            j = i
            while j < n and text[j] in _WRAPPER_CHARS:
                j += 1
            if j > i and j < n and text[j] == 0x28 and text[i] in _KEY_START and j - i <= 32:
                # a number in a wrapper's repr: numpy 2's np.float64(6.13), torch's tensor(0.5, grad_fn=...)
                i = j + 1
                depth, j = 1, i
                while j < n and depth:  # to the parenthesis closing it (quotes not looked into)
                    depth += (text[j] == 0x28) - (text[j] == 0x29)
                    j += 1
                inner = text[i:j - 1]
                comma = inner.find(b",")
                v = _number((inner if comma < 0 else inner[:comma]).strip())
            else:
                while j < n and text[j] not in (0x2C, 0x7D, 0x5D, 0x29):
                    j += 1
                v = _number(text[i:j].strip())
            if v is not None and all(p is not None for p in path):
                parts = [p for p in path if p] + [key]
                out["/".join(parts[:MAX_DEPTH + 1])[:MAX_FULL_NAME]] = v
            key = None
            i = j
            continue
        i += 1
    return out
