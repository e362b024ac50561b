"""Where a record of a text log ends: a newline, or a carriage return that a progress bar redraws at.

A bar redrawn with ``\\r`` for hours writes no ``\\n`` (tqdm closes its line once an epoch, or never): its records are
the redraws, so a read may stop after any ``\\r`` and go on with the next byte, as after a ``\\n``. A ``\\r`` right
before a ``\\n`` (a Windows line end) is one break with it: a read never stops between the two (a ``\\r`` that is the
last byte looked at is no end yet, the byte after it unknown). Formats that clean their text before parsing it
(``text.clean_block`` drops what a ``\\r`` overwrote) keep to ``\\n``: ``LineFormat.cr_records`` says which may stop
at a ``\\r``. All finds at memchr speed: linear, whatever the line length.
"""

from __future__ import annotations


def record_end(data: bytes, start: int = 0, stop: int | None = None, cr: bool = True) -> int:
    """The index just after the last record break in ``data[start:stop]``; 0 when there is none."""
    stop = len(data) if stop is None else min(stop, len(data))
    nl = data.rfind(b"\n", start, stop)
    if cr and stop - 1 > max(start, nl):  # a \r after the last \n only (a find over the last line, not the block)
        nl = max(nl, data.rfind(b"\r", max(start, nl), stop - 1))
    return nl + 1


def first_end(data: bytes, start: int = 0, cr: bool = True) -> int:
    """The index just after the first record break in ``data[start:]``; 0 when there is none (a ``\\r`` that is the
    last byte is none yet)."""
    nl = data.find(b"\n", start)
    if cr:
        r = data.find(b"\r", start, len(data) - 1 if nl < 0 else nl)
        if r >= 0 and data[r + 1:r + 2] != b"\n":
            return r + 1
    return nl + 1


def breaks_within(data: bytes, end: int, span: int, cr: bool = True) -> bool:
    """Whether every aligned window of ``span`` bytes of ``data[:end]`` holds a break (then no record is longer than
    twice ``span``). A few finds that stop at each window's first break."""
    span = max(1, span)
    find = data.find
    for i in range(0, end, span):
        j = min(i + span, end)
        if find(b"\n", i, j) < 0 and not (cr and find(b"\r", i, j) >= 0):
            return False
    return True
