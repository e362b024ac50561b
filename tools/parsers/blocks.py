"""Vertical tables in a text log: one block of ``| name | value |`` rows per iteration, one record per block
(DESIGN.md, "Records, not lines": record kind (c)).

stable-baselines3 prints, at every iteration::

    -----------------------------------------
    | rollout/                |             |
    |    ep_len_mean          | 27.4        |
    |    ep_rew_mean          | 27.4        |
    | time/                   |             |
    |    total_timesteps      | 4096        |
    | train/                  |             |
    |    loss                 | 6.31        |
    -----------------------------------------

A row with a name and no value opens a section: the rows under it are named ``section/name``
(``rollout/ep_rew_mean``, ``time/total_timesteps``). A block is a run of rows between other lines (borders); all
its values are one record, at the step its step-like row gives (``Dialect.block_step_names``, in that order: the
timesteps before the iterations), else the row of whole numbers that grows from block to block. Blocks without
either (a table of settings printed once: llm.c's ``| Parameter | Value |``) are no series.

All work is per template (a row's name is its template's: the numbers are masked) or numpy over the block's line
codes; a block cut at the end of a read waits for the rest of it (its lines are read first with the next block):
the same bytes give the same points in any reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .base import Emitter
from .dialect import DIALECT, Dialect
from .fields import _spans
from .templates import Grouping

MAX_ROWS_TEMPLATES = 1024  # distinct row templates read as blocks per read block
MAX_TAIL_LINES = 256  # rows of a block cut at the end of a read kept for the next one (more: read as they are)
MAX_TAIL_BYTES = 1 << 16
MAX_NAME = 96
MAX_MIXED_NAMES = 256  # names one row template may hold (digits in the names); more: none read
MAX_MIXED_LINES = 1 << 18  # rows of such a template read per block
MAX_ROW_CELLS_BYTES = 1024  # a box's row of several value columns longer than this is no record's row
MAX_TITLE_BACK = 4  # lines looked at above a box's first row for its title (top border, header, header rule)
MAX_TITLE = 64  # bytes of a title line
MAX_GAP = 8  # a box's lines between two of its rows that are no row (rules, rows of words)

Reader = Callable[[Sequence[bytes], np.ndarray, list[int]], tuple[dict[int, np.ndarray], dict[int, np.ndarray]]]


_BOX = ("\u2502".encode(), "\u2503".encode(), "\u2551".encode())  # │ ┃ ║: a box's borders (rich, Ray Tune)


def _row_parts(line: bytes) -> tuple[bytes, bytes, int] | None:
    """(name, value, where the value starts in ``line``) of a vertical table's row, stripped: ``| name | value |``,
    or within a box's borders ``│ name   value │`` (the value after two blanks or a border); None for any other
    line."""
    s = line.strip()
    if len(s) < 5:
        return None
    at = len(line) - len(line.lstrip())
    if s[:1] == b"|":
        if s[-1:] != b"|" or s.count(b"|") != 3:
            return None
        _, name, value, _ = s.split(b"|")
        start = at + s.find(b"|", 1) + 1
    else:
        border = next((b for b in _BOX if s.startswith(b) and s.endswith(b)), None)
        if border is None or len(s) < 2 * len(border) + 3:
            return None
        inner = s[len(border):-len(border)]
        cut = inner.find(border)
        if cut >= 0:
            name, value = inner[:cut], inner[cut + len(border):]
            more = value.find(border)
            if more >= 0:  # further columns (a population's members, their mean): the first value column's
                if len(inner) > MAX_ROW_CELLS_BYTES or any(not _one_number(c) for c in value[more:].split(
                        border)[1:] if c.strip()):
                    return None  # cells of words after the first value: a table of another kind
                value = value[:more]
            start = at + len(border) + cut + len(border)
        else:
            body = inner.rstrip()
            cut = body.rfind(b"  ")
            if cut < 0:
                name, value, start = body, b"", len(line)
            else:
                name, value = body[:cut], body[cut:]
                start = at + len(border) + cut
    name, value = name.strip(), value.strip()
    if not name or len(name) > MAX_NAME or not any(65 <= c <= 90 or 97 <= c <= 122 for c in name):
        return None
    return name, value, start


def _value_field(line: bytes, start: int) -> int | None:
    """The field (``fields._spans``) of the number in a row's value cell: the first one from ``start``."""
    for k, (a, b) in enumerate(_spans(line)):
        if a >= start and b > a:
            return k
    return None


def _candidate(template: bytes) -> bool:
    """A template a vertical table's row may have: ``| name | # |``, or a box's row (its borders are gone from the
    template: `` name   # ``)."""
    if template.count(b"|") == 3 and template.lstrip()[:1] == b"|":
        return True
    return template[:1] == b" " and template[-1:] == b" " and b"  " in template.strip() and b"\x01" in template


class Blocks:
    """What one read block's vertical tables give (see the module docstring)."""

    def __init__(self, lines: Sequence[bytes], grouping: Grouping, known: bool = False, dialect: Dialect = DIALECT,
                 own: int = 0):
        self.known = known  # an earlier read found vertical tables in this log
        self.own = own  # the first line of this read's own (the lines before: one-off lines of earlier reads)
        self.lines = lines
        self.grouping = grouping
        self.dialect = dialect
        self.rows: dict[int, tuple[str, int]] = {}  # template -> (name, value field)
        self.sections: dict[int, str] = {}  # template -> section name ("rollout")
        self.mixed: set[int] = set()  # row templates whose lines name several metrics (digits in the names)
        self._find()

    def _find(self) -> None:
        templates = self.grouping.templates
        joined = b"\n".join(templates) + b"\n"
        if b"|" not in joined and b" \n" not in joined:
            return  # no template a row's: neither a border nor a box's row (a blank at its end)
        cand = [c for c, t in enumerate(templates) if _candidate(t)]
        if len(cand) < 2:
            return
        first, last = _first_last(self.grouping.codes, len(templates))
        for c in cand[:MAX_ROWS_TEMPLATES]:
            line = self.lines[int(first[c])]
            parts = _row_parts(line)
            if parts is None:
                continue
            name, value, start = parts
            text = name.decode("utf-8", "replace")
            if not value:
                if text.endswith("/"):  # a section: "| rollout/ |  |"
                    self.sections[c] = text.rstrip("/")
            elif _one_number(value):
                field = _value_field(line, start)
                if field is None:
                    continue
                self.rows[c] = (text, field)
                if any(ch in b"0123456789.+-eE" for ch in name):  # number characters in the name: "top5"
                    other = _row_parts(self.lines[int(last[c])])
                    if other is None or other[0] != name:
                        self.mixed.add(c)  # rows of several names: each line's own

    @property
    def found(self) -> bool:
        return len(self.rows) >= 2 or bool(self.rows) and self.known


    def taken(self) -> set[int]:
        """The templates read here (the engine reads them no further)."""
        return set(self.rows) | set(self.sections) if self.found else set()

    def read(self, st: dict, em: Emitter, read: Reader) -> None:
        """Emit one record per block into ``em`` (``read``: the engine's reader of a template's fields). The rows
        of a block that reaches the end of a read wait for the next one (``hold_rows``)."""
        codes = self.grouping.codes
        n = len(codes)
        n_t = len(self.grouping.templates)
        is_row = np.zeros(n_t, dtype=bool)
        is_row[list(self.rows)] = True
        is_sec = np.zeros(n_t, dtype=bool)
        if self.sections:
            is_sec[list(self.sections)] = True
        row_line = is_row[codes]
        sec_line = is_sec[codes]
        in_table = row_line | sec_line
        if n > 2:  # a box's rules between groups of rows (rich's ``├───┼───┤``) and rows of words (``│ note │ None
            # │``): the table goes on across them (a few lines at most)
            for i in (np.flatnonzero(~in_table[1:-1] & in_table[:-2]) + 1).tolist():
                j = i
                while j < n and j - i < MAX_GAP and not in_table[j] and (
                        _box_rule(self.lines[j]) or _row_edges(self.lines[j])):
                    j += 1
                if j < n and in_table[j]:
                    in_table[i:j] = True
        prev = np.concatenate(([False], in_table[:-1]))
        start = in_table & ~prev
        block = np.cumsum(start) - 1  # the block of each table line
        n_blocks = int(block[-1]) + 1 if n else 0
        if not n_blocks:
            return
        cut = n
        rows_at = np.flatnonzero(row_line[:cut])
        # the section of each row: the last section line above it in its block
        sec_at = np.where(sec_line[:cut], np.arange(cut), -1)
        sec_at = np.maximum.accumulate(sec_at) if cut else sec_at
        r_codes = codes[rows_at]
        r_sec = sec_at[rows_at]
        r_sec = np.where((r_sec >= 0) & (block[np.maximum(r_sec, 0)] == block[rows_at]), r_sec, -1)
        sec_code = np.where(r_sec >= 0, codes[np.maximum(r_sec, 0)], -1)
        pair = r_codes.astype(np.int64) * (n_t + 1) + (sec_code + 1)
        order = np.argsort(pair, kind="stable")
        uniq, first_at, counts = np.unique(pair[order], return_index=True, return_counts=True)
        values: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for u, a, c in zip(uniq.tolist(), first_at.tolist(), counts.tolist(), strict=True):
            sel = order[a:a + c]
            code, sc = divmod(u, n_t + 1)
            name, field = self.rows[code]
            section = self.sections.get(sc - 1, "") if sc else ""
            idx = rows_at[sel]
            got, bad = read(self.lines, idx, [field])
            v = got[field]
            if field in bad:
                keep = ~bad[field]
                idx, v = idx[keep], v[keep]
            if code in self.mixed:
                parts = _names_of(self.lines, idx)
            else:
                parts = [(name, np.arange(len(idx)))]
            for nm, at in parts:
                key = f"{section}/{nm}" if section else nm
                i1, v1 = idx[at], v[at]
                if key in values:  # one name in two templates (its padding): one series
                    i0, v0 = values[key]
                    i1, v1 = np.concatenate((i0, i1)), np.concatenate((v0, v1))
                values[key] = (i1, v1)
        starts = np.flatnonzero(start)
        titled = [self._title(int(i)) for i in starts.tolist()]
        if titled[0] is None and st.get("blk_title") is not None and self._continued(int(starts[0])):
            titled[0] = st["blk_title"]  # the rest of a table cut by the read before, under the title it showed
        if any(t is None for t in titled):
            steps = self._steps(values, block, n_blocks, st, em)
        else:
            steps = np.full(n_blocks, np.nan)
        for b, t in enumerate(titled):
            if t is not None:
                steps[b] = t
        last = self._open_title(n)
        st["blk_title"] = last if last is not None else next((t for t in reversed(titled) if t is not None),
                                                              st.get("blk_title"))
        for key, (idx, v) in values.items():
            o = np.argsort(idx, kind="stable")
            idx, v = idx[o], v[o]
            s = steps[block[idx]]
            ok = ~np.isnan(s)
            if ok.any():
                em.extend(key, s[ok].astype(np.int64), v[ok])

    def _title(self, first: int) -> int | None:
        """The step a box's title names (rich's ``Global Steps: 1_200`` centred above it): the line above the box's
        top border, header and header rule, right above the block's first row ``first``; None without one."""
        boxed = False
        for i in range(first - 1, max(first - 1 - MAX_TITLE_BACK, self.own - 1), -1):
            line = self.lines[i]
            if _box_rule(line) or _row_edges(line):
                boxed = True
                continue
            return _title_step(line, self.dialect) if boxed else None
        return None

    def _continued(self, first: int) -> bool:
        """Whether the block from ``first`` goes on a table the read before cut: only a box's lines above it in
        this read."""
        for i in range(first - 1, max(first - 1 - MAX_TITLE_BACK, self.own - 1), -1):
            if not (_box_rule(self.lines[i]) or _row_edges(self.lines[i])):
                return False
        return first - MAX_TITLE_BACK <= self.own

    def carry_title(self, st: dict) -> None:
        """A read without a table's rows that ends under a box's title (the rows come next): its step kept."""
        got = self._open_title(len(self.lines))
        if got is not None:
            st["blk_title"] = got

    def _open_title(self, n: int) -> int | None:
        """The step of a title the read ends under (its box's rows not printed yet): the title line, then box lines
        only to the read's end."""
        for i in range(n - 1, max(n - 2 - MAX_TITLE_BACK, self.own - 1), -1):
            line = self.lines[i]
            if not line.strip() and i == n - 1 or _box_rule(line) or _row_edges(line):
                continue
            return _title_step(line, self.dialect)
        return None

    def _steps(self, values: dict[str, tuple[np.ndarray, np.ndarray]], block: np.ndarray, n_blocks: int, st: dict,
               em: Emitter) -> np.ndarray:
        """The step of each block: its step-like row (the first of ``Dialect.block_step_names`` the blocks hold;
        chosen once, kept in ``st``), else the whole-number row that grows from block to block; NaN (no record)
        for a block without it (a table of settings printed once has none)."""
        leaf = {key: key.rsplit("/", 1)[-1].lower() for key in values}
        chosen = st.get("blk_step")
        if chosen not in values:
            chosen = None
            for want in self.dialect.block_step_names:
                hit = [k for k in values if leaf[k] == want]
                if hit:
                    chosen = hit[0]
                    break
            if chosen is None:
                for key, (idx, v) in values.items():
                    if len(v) >= 2 and np.all(v == np.round(v)) and np.all(np.diff(v[np.argsort(idx)]) > 0):
                        chosen = key
                        break
        epoch = chosen if chosen is not None and leaf[chosen] in self.dialect.epoch_names else st.get("blk_epoch")
        if epoch in values:  # a global batch counter beside the epoch is the step
            inner = None if st.get("blk_inner") is False else self._global_counter(values, epoch, block, n_blocks, st)
            chosen = inner or epoch
        if chosen is not None and st.get("blk_step") != chosen:
            st["blk_step"] = chosen
            em.notes.append(f"vertical tables: one record per block, at its {chosen}")
        steps = np.full(n_blocks, np.nan)
        if chosen is not None:
            idx, v = values[chosen]
            steps[block[idx]] = v
        return steps  # without: a settings dump (llm.c's "| Parameter | Value |"), no series

    def _global_counter(self, values: dict[str, tuple[np.ndarray, np.ndarray]], epoch: str, block: np.ndarray,
                        n_blocks: int, st: dict) -> str | None:
        """A batch counter (``Dialect.inner_names``) in the epoch's section that counts the whole run: it never goes
        back, nor where the epoch changes (imitation's ``bc/batch`` beside ``bc/epoch``): the step, not the epoch. Per
        epoch only if it resets where the epoch changes (decided there, kept in ``st``: ``blk_inner``)."""
        section = epoch.rsplit("/", 1)[0] if "/" in epoch else ""
        ie, ve = values[epoch]
        ep = np.full(n_blocks, np.nan)
        ep[block[ie]] = ve
        for key, (idx, v) in values.items():
            sec, _, name = key.rpartition("/")
            if sec != section or name.lower() not in self.dialect.inner_names or not np.all(v == np.round(v)):
                continue
            ctr = np.full(n_blocks, np.nan)
            ctr[block[idx]] = v
            ok = ~np.isnan(ep) & ~np.isnan(ctr)
            last = st.get("blk_inner_last")
            e = np.concatenate(([last[0]] if last else [], ep[ok]))
            c = np.concatenate(([last[1]] if last else [], ctr[ok]))
            if len(c) > 1 and (np.any(np.diff(c) < 0) or np.any((np.diff(e) != 0) & (np.diff(c) <= 0))):
                st["blk_inner"] = False  # it went back (restarted with its epoch): per epoch
                if last:  # reads before placed blocks at it: the file read again knowing it
                    st["revise"] = {**(st.get("revise") or {}), "blk_inner": False}
                return None
            if len(c):
                st["blk_inner_last"] = (float(e[-1]), float(c[-1]))
            st["blk_epoch"] = epoch
            return key
        return None


def _names_of(lines: Sequence[bytes], idx: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """The rows ``idx`` of one template grouped by their own names (``top1``, ``top5``: digits in the names), in one
    pass; none when they name more than ``MAX_MIXED_NAMES`` metrics (no training log does)."""
    by: dict[bytes, list[int]] = {}
    for k, i in enumerate(idx[:MAX_MIXED_LINES].tolist()):
        parts = _row_parts(lines[i])
        if parts is None:
            continue
        at = by.get(parts[0])
        if at is None:
            if len(by) >= MAX_MIXED_NAMES:
                return []
            at = by[parts[0]] = []
        at.append(k)
    return [(nm.decode("utf-8", "replace"), np.array(at, dtype=np.int64)) for nm, at in by.items()]


def hold_rows(data: bytes) -> tuple[bytes, bytes]:
    """(``data`` without the rows it ends with, those rows): a block that reaches the end of a read may go on in
    the next one, so its rows are read with the rest of it (the same points whatever the reads). At most
    ``MAX_TAIL_LINES`` lines and ``MAX_TAIL_BYTES`` bytes wait; a longer run is read as it is. Only the last
    line is looked at unless it is a row."""
    end = len(data)
    tail = data[-4:].rstrip(b"\r\n")
    if not tail.endswith(b"|") and not any(tail.endswith(b) for b in _BOX):
        return data, b""
    cut = end
    for _ in range(MAX_TAIL_LINES):
        start = data.rfind(b"\n", 0, cut - 1) + 1
        if _row_parts(data[start:cut]) is None:
            break
        cut = start
        if cut == 0:
            break
    if cut == end or end - cut > MAX_TAIL_BYTES:
        return data, b""
    return data[:cut], data[cut:]


def _first_last(codes: np.ndarray, n_t: int) -> tuple[np.ndarray, np.ndarray]:
    """The first and the last line of each template."""
    first = np.zeros(n_t, dtype=np.int64)
    last = np.zeros(n_t, dtype=np.int64)
    at = np.arange(len(codes))
    last[codes] = at
    first[codes[::-1]] = at[::-1]
    return first, last


_RULE_RANGE = range(0x2500, 0x2580)  # box drawing


def _box_rule(line: bytes) -> bool:
    """A box's rule line (``├───┼───┤``, ``┏━━━┳━━━┓``): box-drawing characters only."""
    s = line.strip()
    if len(s) < 9 or len(s) > 3 * MAX_ROW_CELLS_BYTES or s[:1] != b"\xe2":
        return False
    text = s.decode("utf-8", "replace")
    return all(ord(ch) in _RULE_RANGE for ch in text)


def _row_edges(line: bytes) -> bool:
    """A box's row (its header's too): between two of its borders."""
    s = line.strip()
    return len(s) <= 3 * MAX_ROW_CELLS_BYTES and any(s.startswith(b) and s.endswith(b) for b in _BOX)


def _title_step(line: bytes, dialect: Dialect) -> int | None:
    """The count a box's title line names: ``Global Steps: 1_200`` (words named like a step, ``:``, a whole number
    with ``_`` or ``,`` between its thousands), else None."""
    s = line.strip()
    if not s or len(s) > MAX_TITLE:
        return None
    name, sep, num = s.partition(b":")
    num = num.strip().replace(b"_", b"").replace(b",", b"")
    if not sep or not num.isdigit() or len(num) > 18:
        return None
    key = "_".join(name.decode("latin-1").lower().split())
    names = dialect.block_step_names
    return int(num) if key in names or key[-1:] == "s" and key[:-1] in names else None


def _one_number(value: bytes) -> bool:
    v = value.strip()
    if v in (b"nan", b"NaN", b"inf", b"-inf", b"+.+", b"-+.+", b"9e999", b"-9e999"):
        return True
    try:
        float(v)
    except ValueError:
        return False
    return True
