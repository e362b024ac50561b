"""A wide table printed wrapped to the terminal's width in chunks (pandas' ``DataFrame.to_string`` / ``print(df)``
and any wide-table printer alike): each chunk a header row of names right-aligned over its columns, then its value
row(s); a header row ending in ``Dialect.table_continuation`` (pandas' `` \\``) says the table goes on in the next
chunk. The chunks together are one table: row k of every chunk is one row.

Joined before the lines are read (``unwrap``): a table of one row is one record, written as ``name: value`` pairs
after the line just before it (the logger line holding its step: ParlAI's ``total_steps:8``, or the report's
banner: ``valid:``), so it takes that line's step and split; a table of several rows (or with an index label) is
written again as one chunk (one header row, one line a row) that the table reader (``tables_text``) reads, a step
column its step. A table open at the read's end is held for the next read with the line before it
(``hold_open_table``); a line that was once the line before a table (its shape, digits aside: at most
``MAX_HEADS``) is held at the read's end too, as its table may follow in the next read. Linear in the text; caps
on chunks, rows and columns (a run beyond them is left as it is).
"""

from __future__ import annotations

import hashlib
import re

from .dialect import DIALECT

MAX_CHUNKS = 64
MAX_ROWS = 256
MAX_COLUMNS = 1024
MAX_BLANKS = 2  # blank lines between two chunks
MAX_HEADS = 16  # shapes of lines known to come right before a table
MAX_HELD_BYTES = 1 << 18
_DIGITS = bytes(range(48, 58))
MAX_LOOKED = 8  # lines ending in the mark looked at alone before the whole text is walked
_ENDS_IN_MARK = re.compile(re.escape(DIALECT.table_continuation) + rb"[ \r]*+\n")


def _any_table(data: bytes) -> bool:
    """Whether a line ending in the mark may open a table (or more than ``MAX_LOOKED`` such lines): most logs
    holding the mark (a config line's continuation) are walked no further. Each looked at over ``MAX_HELD_BYTES``."""
    for k, m in enumerate(_ENDS_IN_MARK.finditer(data)):
        if k >= MAX_LOOKED:
            return True
        start = data.rfind(b"\n", 0, m.start()) + 1
        lines = data[start:start + MAX_HELD_BYTES].split(b"\n")
        lines.pop()  # (what follows the last newline: a line the window cut, or nothing)
        if _header(lines[0]) is not None:
            got, _, at_end = _chunks(lines, 0)
            if got is not None or at_end:
                return True
    return False


def _shape(line: bytes) -> str:
    return hashlib.blake2b(line.rstrip().translate(None, _DIGITS), digest_size=6).hexdigest()


def _continued(line: bytes) -> bool:
    mark = DIALECT.table_continuation
    s = line.rstrip(b" \r")
    return s.endswith(mark) and len(s) > len(mark) and not s[:-len(mark)].isspace()


def _header(line: bytes) -> tuple[list[bytes], int] | None:
    """(the names, the width the rows are right-aligned to) of a chunk's header row, or None."""
    s = line.rstrip(b" \r")
    if _continued(line):
        s = s[:-len(DIALECT.table_continuation)].rstrip()
    names = s.split()
    if not names or len(names) > MAX_COLUMNS or not s[:1].isspace() and len(names) < 2:
        return None
    return names, len(s)


def _row(line: bytes, k: int, width: int) -> list[bytes] | None:
    """The cells of a value row under a header of ``k`` names right-aligned to ``width`` (an index label first: one
    cell more), or None."""
    s = line.rstrip(b" \r")
    if len(s) != width or _continued(line):
        return None
    cells = s.split()
    if len(cells) not in (k, k + 1):
        return None
    return cells


_Table = tuple[list[bytes], list[list[bytes]], bool, int]


def _chunks(lines: list[bytes], i: int) -> tuple[_Table | None, int, bool]:
    """((names, rows, index labels present, the index after the table) of a wrapped table whose first header is
    ``lines[i]``, or None when the lines are not one; where to look for a table again (the header of the chunk
    that failed: each line is walked over at most twice); whether the chunks were well formed up to the read's
    end, the table possibly going on in the next read)."""
    start = i
    names: list[bytes] = []
    rows: list[list[bytes]] = []
    index = False
    n = -1
    for c in range(MAX_CHUNKS):
        if i >= len(lines):
            return None, len(lines), True
        head = _header(lines[i])
        if head is None:
            return None, max(i, start + 1), False
        more = _continued(lines[i])
        got, width = head
        j = i + 1
        chunk: list[list[bytes]] = []
        while j < len(lines) and len(chunk) < (n if n >= 0 else MAX_ROWS):
            cells = _row(lines[j], len(got), width)
            if cells is None:
                break
            chunk.append(cells)
            j += 1
        if j >= len(lines) and (n < 0 or len(chunk) < n or more):
            return None, len(lines), True
        resume = max(i, start + 1)
        if not chunk or n >= 0 and len(chunk) != n:
            return None, resume, False
        labelled = len(chunk[0]) == len(got) + 1
        if any((len(r) == len(got) + 1) != labelled for r in chunk) or c and labelled != index:
            return None, resume, False
        if not c:
            n, index, rows = len(chunk), labelled, [[r[0]] if labelled else [] for r in chunk]
        for row, cells in zip(rows, chunk, strict=True):
            row.extend(cells[1:] if labelled else cells)
        names.extend(got)
        if len(names) > MAX_COLUMNS:
            return None, resume, False
        if not more:
            return (names, rows, index, j), j, False
        i = _over_blanks(lines, j)
    return None, max(i, start + 1), False


def _number(cell: bytes) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _over_blanks(lines: list[bytes], j: int) -> int:
    """The index of the next chunk's header after a chunk ending before ``lines[j]``: pandas prints a blank line
    between chunks (ParlAI's report none); at most ``MAX_BLANKS``."""
    for _ in range(MAX_BLANKS):
        if j < len(lines) and not lines[j].strip():
            j += 1
    return j


def _one_chunk(names: list[bytes], rows: list[list[bytes]], index: bool) -> list[bytes]:
    cols = ([b""] if index else []) + names
    widths = [max(len(cols[k]), *(len(r[k]) for r in rows)) for k in range(len(cols))]
    out = [b"  ".join(c.rjust(w) for c, w in zip(cols, widths, strict=True))]
    out.extend(b"  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in rows)
    return out


def unwrap(data: bytes, st: dict, shown: bool) -> tuple[bytes, bytes]:
    """(``data`` with its wrapped tables joined, the lines held for the next read: a table still open at the end,
    with the line before it, or a last line of a shape that came before a table). ``data`` is complete lines."""
    mark = DIALECT.table_continuation
    heads = st.get("wt_heads") or []
    read_before = bool(st.get("wt_read"))
    if data:
        st["wt_read"] = True
    if mark not in data and not heads or not heads and not _any_table(data):
        return data, b""
    lines = data.split(b"\n")
    last = lines.pop()  # b"" after the final newline
    learnt = list(heads)
    out, held, joined = _pass(lines, learnt, shown)
    if learnt != heads and any(_shape(line) in learnt for line in out):  # a table in one chunk under a line learnt
        out, held, joined = _pass(lines, learnt, shown)  # later in this read: as a read knowing it reads it
    if learnt != heads:
        st["wt_heads"] = learnt
        if read_before:
            st.setdefault("revise", {})["wt_heads"] = learnt  # lines read alone before: read again knowing it
    if not joined and not held:
        return data, b""
    body = b"\n".join(out) + b"\n" if out else b""
    return body + last, (b"\n".join(held) + b"\n") if held else b""


def _pass(lines: list[bytes], learnt: list[str], shown: bool) -> tuple[list[bytes], list[bytes], bool]:
    """(the lines with the tables joined, the lines held, whether any was joined); ``learnt`` grows with the shapes
    of the lines tables came after."""
    out: list[bytes] = []
    held: list[bytes] = []
    i = 0
    joined = False
    while i < len(lines):
        line = lines[i]
        # a chunk going on, or a table in one chunk under a line known to come before a table (the terminal was
        # wide enough for it)
        if not (_continued(line) or learnt and out and _shape(out[-1]) in learnt) or _header(line) is None:
            out.append(line)
            i += 1
            continue
        got, resume, at_end = _chunks(lines, i)
        if got is None:
            if at_end and not shown:  # the table goes on in the next read: held with the line before it
                held = lines[i - 1:i] if out and out[-1] is lines[i - 1] else []
                if held:
                    out.pop()
                held += lines[i:]
                if sum(map(len, held)) > MAX_HELD_BYTES:
                    out.extend(held)
                    held = []
                break
            out.extend(lines[i:resume])
            i = resume
            continue
        names, rows, index, j = got
        if not _continued(line) and (len(rows) != 1 or not all(map(_number, rows[0][int(index):]))):
            out.append(line)  # (a table in one chunk: one row of numbers only)
            i += 1
            continue
        i = j
        joined = True
        if len(rows) == 1:
            cells = rows[0][1:] if index else rows[0]
            pairs = b"  ".join(n + b": " + v for n, v in zip(names, cells, strict=True))
            if out and out[-1].strip():  # the record's step and split: the line just before it
                shape = _shape(out[-1])
                if shape not in learnt and len(learnt) < MAX_HEADS:
                    learnt.append(shape)
                out[-1] = out[-1].rstrip() + b"  " + pairs
            else:
                out.append(b"    " + pairs)
        else:
            out.extend(_one_chunk(names, rows, index))
    if not held and not shown and out and learnt and _shape(out[-1]) in learnt and out[-1] is lines[-1]:
        held = [out.pop()]  # a line a table came after: its table may come in the next read
    return out, held, joined

