"""A program's line that a progress bar's redraw cut into: the line is the program's text, the bar a line of its own.

Two writers share one terminal line when a program prints a record in pieces (``print(..., end="\\t")``, a logger
flushing a field at a time) while a bar redraws on the same stream: the program's ``Epoch: 30\\t``, then tqdm's
``\\rEpochs :  62%|######   | 31/50 [00:00<00:00, 298.55it/s]`` (and, when the bar closes, its newline), then the
program's ``Fidelity = 0.874443\\tKL = 0.274966``. The record is the program's pieces joined, ``Epoch: 30\\tFidelity =
0.874443\\tKL = 0.274966``; the bar is a redraw like the others. ``rejoined`` writes the block so: the bar's redraws
first, on a line of their own, then the program's line whole (``lines.GLUED_LINE`` already sets apart a line glued
after a bar that no piece came before). A piece is the text from a line's start to the ``\\r`` the bar starts at: not
a bar itself, not blank, at most ``MAX_PIECE`` bytes; the bar is tqdm's shape (``N%|...| n/N [...]``) with text after
its ``]`` on the same line, or on the line after when it closes with its newline. ``hold_piece`` keeps such a piece
when a read ends at that ``\\r``: the next read, which brings the bar, reads it with the rest, as one read would.

Run text is hostile: every pattern is bounded and possessive from a literal start (``\\n`` or ``\\r``); each byte is
looked at a bounded number of times: linear.
"""

from __future__ import annotations

import re

MAX_PIECE = 4096  # bytes: a longer text before a \r is no record's piece (a line of redraws)
# a piece: from a line's start to the \r a redraw starts at (possessive: the search only tries after a \n)
_PIECE = re.compile(rb"\n([^\r\n]{1,%d}+)\r" % MAX_PIECE)
_PIECE_AT_START = re.compile(rb"([^\r\n]{1,%d}+)\r" % MAX_PIECE)
# tqdm's redraws from the \r (its description at most 256 bytes before ``N%|``), up to the last one's ``]`` and the
# newline it may close with, then text of the program's on that line or the next
_BAR = (rb"\r[^\r\n]{0,256}?[0-9]%\|[^|\r\n]{0,256}+\|[^\[\r\n]{0,64}+"
        rb"\[(?:[^\[\]\r\n]++|\[[^\[\]\r\n]{0,64}+\]){0,64}+\]")  # (its bracket may hold bracketed names: ``[1-100]``)
_REDRAWS = re.compile(rb"((?:" + _BAR + rb"){1,64}+)(\n?+)(?=[^\r\n])")
# a piece glued after a bar's redraw (the program began its line right after the bar drew): from the bar's ``]``
_ONE_BAR = re.compile(_BAR)
_MAX_REDRAWS = 64  # redraws looked at after a piece at a read's end
_HELD_LINE = MAX_PIECE + _MAX_REDRAWS * 1024  # bytes: a longer last line holds nothing
_BAR_BYTES = 2048  # a bar's redraw is at most this long (its parts' caps)
# (the scan for glued pieces: a literal ``]`` then text to a \r; a redraw ending its bar at ``]\r`` fails at once)
_GLUED_HINT = re.compile(rb"\]([^\r\n\]]{1,%d}+)\r" % MAX_PIECE)
_GLUED_PIECE = re.compile(_BAR + rb"([^\r\n]{1,%d}+)\r" % MAX_PIECE)


def _is_piece(piece: bytes) -> bool:
    return bool(piece.strip()) and b"%|" not in piece


def rejoined(data: bytes, at_line_start: bool = True) -> bytes:
    """``data`` with each program line a bar's redraws cut into written whole after them (see the module docstring);
    ``at_line_start``: ``data`` starts at a line's start (not at the rest of a line an earlier read ended in)."""
    if b"\r" not in data or b"%|" not in data:
        return data
    out: list[bytes] = []
    done = 0
    first = _PIECE_AT_START.match(data) if at_line_start else None
    if first is not None:
        done = _rejoin(data, 0, first.end(1), out, done)
    hits = [(m.start(1), m.end(1)) for m in _PIECE.finditer(data)]
    for m in _GLUED_HINT.finditer(data):  # text between a bracket's close and a \r: a piece if the bracket ends a bar
        start = m.start(1)
        r = data.rfind(b"\r", max(0, start - _BAR_BYTES), start)
        if r >= 0 and _ONE_BAR.fullmatch(data, r, start) is not None:
            hits.append((start, m.end(1)))
    hits.sort()
    for start, end in hits:
        if start >= done:
            done = _rejoin(data, start, end, out, done)
    if not out:
        return data
    out.append(data[done:])
    return b"".join(out)


def _rejoin(data: bytes, start: int, end: int, out: list[bytes], done: int) -> int:
    """The piece ``data[start:end]`` (the \\r at ``end``): when the bar's redraws follow with the program's text after
    them, ``out`` gets the text up to the piece, the redraws and the piece (the text after it follows); returns where
    ``data`` is written up to."""
    piece = data[start:end]
    if not _is_piece(piece):
        return done
    bar = _REDRAWS.match(data, end)
    if bar is None:
        return done
    out.append(data[done:start])
    fresh = start == 0 or data[start - 1] == 10  # (the piece began a line: the bar begins it instead)
    out.append(bar.group(1)[1:] if fresh else bar.group(1))  # (after a bar's redraw: a redraw again, at its \r)
    out.append(b"\n")
    out.append(piece)
    return bar.end()


def hold_piece(data: bytes, at_line_start: bool) -> tuple[bytes, bytes]:
    """(``data`` without the piece it ends in and what follows it, those bytes): a read that ends at the ``\\r`` after
    a program's piece, or at the newline a bar closed with right after one, may end where a bar cut in before the
    rest of the program's line, so the piece (and the bar's redraws after it) waits for the next read. Only the last
    line is looked at, and only when it is shorter than ``_HELD_LINE``."""
    closed = data.endswith(b"]\n")
    if not (closed or data.endswith(b"\r")):
        return data, b""
    end = len(data) - 1
    nl = data.rfind(b"\n", max(0, end - _HELD_LINE), end)
    if nl < 0 and (not at_line_start or end > _HELD_LINE):
        return data, b""
    start = nl + 1
    cut = end  # the start of the bars' redraws after the piece (the final \r when none)
    if closed:
        for _ in range(_MAX_REDRAWS):
            r = data.rfind(b"\r", start, cut)
            if r < 0 or _ONE_BAR.fullmatch(data, r, cut) is None:
                break
            cut = r
        if cut == end:
            return data, b""
    r = data.rfind(b"\r", start, cut)
    if r < 0:  # the piece starts the line
        return (data[:start], data[start:]) if cut - start <= MAX_PIECE and _is_piece(data[start:cut]) else (data, b"")
    glued = _GLUED_PIECE.match(data, r)  # a piece glued after a bar's redraw: held from that redraw's \r on
    ok = glued is not None and glued.end() == cut + 1 and _is_piece(glued.group(1))
    return (data[:r], data[r:]) if ok else (data, b"")
