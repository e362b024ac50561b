"""Physical lines of a log block as a terminal log holds them: the first step of the text-log engine.

A block of raw bytes (complete lines) becomes a list of lines, all at C speed (``bytes.translate`` /
``replace`` / ``split``): progress bars that redraw in place (``\\r``, runs of ``\\b``) become one line per
redraw; ANSI escape codes go; a brace that opens a printed record (``{'loss': ...}``) starts a line of its own,
so records printed back to back, or behind a tqdm bar, are records apart; NUL and other control bytes end a line
(a crash's block of NULs costs only the lines it is in); tqdm's bar glyphs (``37%|####      |``) are cut to
``%||`` so that one bar is one template whatever its fill. A line longer than ``LINE_CAP`` is cut there and
counted. No pattern here can backtrack: the two regular expressions match bounded runs from a fixed prefix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

LINE_CAP = 16 << 10  # bytes: a longer line is cut here (a dumped tensor is no metric line)

# Control bytes that end a line: \r and \b (redraws), NUL and the other C0 controls but \t, \n and ESC.
_BREAKS = bytes(c for c in range(32) if c not in (9, 10, 27)) + b"\x7f"
_TO_NEWLINE = bytes.maketrans(_BREAKS, b"\n" * len(_BREAKS))
# ESC [ params intermediates final; ESC ] ... BEL/ST; ESC + one byte. Possessive: no backtracking.
_ANSI = re.compile(rb"\x1b\[[0-?]{0,64}+[ -/]{0,16}+[@-~]?|\x1b\][^\x07\x1b\n]{0,512}+(?:\x07|\x1b\\)?|\x1b[ -~]?")
# A Keras 2 bar: [=====>.......]
_KERAS_BAR = re.compile(rb"\[[=>.]{2,256}+\]")


@dataclass
class Lines:
    lines: list[bytes]
    cut: int  # lines longer than LINE_CAP, cut
    controls: int  # control bytes (NUL, \x01 ...) that ended a line: not text


_BAR = re.compile(rb"%\|[^|\n]{0,256}+\|")  # a literal start: the scan for it is a fast search
_GLUED_BAR = re.compile(rb"\]( {1,3}+\d{1,3}+%\|\|)")


def _cut_bars(data: bytes) -> bytes:
    """tqdm bars (``37%|####      |``) as ``37%||``, and bars redrawn without ``\\r`` (``...it/s]  38%|``) on lines of
    their own. Bounded patterns from a literal start: linear."""
    data = _BAR.sub(b"%||", data)
    if b"]  " in data or b"] " in data:
        data = _GLUED_BAR.sub(rb"]\n\1", data)
    return data


_SPECIAL = b"\x1b\x00{%["
_NOT_SPECIAL = bytes(c for c in range(256) if c not in _SPECIAL)


def split_lines(data: bytes) -> Lines:
    """The lines of ``data`` (complete lines), cleaned as the module docstring says."""
    controls = 0
    present = set(data.translate(None, _NOT_SPECIAL))  # one pass says which of the rarer steps are needed
    if 0x1B in present:
        data = _ANSI.sub(b"", data)
    if 0 in present:
        controls = data.count(b"\x00")
    data = data.translate(_TO_NEWLINE)
    if 0x7B in present:  # {
        if b"{'" in data:
            data = data.replace(b"{'", b"\n{'")
        if b'{"' in data:
            data = data.replace(b'{"', b'\n{"')
    if 0x25 in present and b"%|" in data:
        data = _cut_bars(data)
    if 0x5B in present and (b"[==" in data or b"[>" in data or b"[.." in data):
        data = _KERAS_BAR.sub(b"[]", data)
    lines = data.split(b"\n")
    cut = 0
    if len(data) > LINE_CAP and max(map(len, lines)) > LINE_CAP:
        for i, ln in enumerate(lines):
            if len(ln) > LINE_CAP:
                lines[i] = ln[:LINE_CAP]
                cut += 1
    return Lines(lines, cut, controls)


WRAP_MIN = 80  # a terminal narrower than this does not hard-wrap records worth joining
_DIGITS_TO_0 = bytes.maketrans(b"123456789", b"000000000")


def join_wrapped(lines: list[bytes], st: dict) -> list[bytes]:
    """Lines a terminal hard-wrapped (a copy of a terminal's scrollback: every cut line exactly as wide as the
    terminal) joined again. The width is the longest line length, shared by three or more lines that each go on
    in a line shaped unlike their own start; it is remembered in ``st`` for the blocks after."""
    width = int(st.get("wrap", 0))
    if not width:
        lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
        long = lengths[lengths >= WRAP_MIN]
        if len(long) < 3:
            return lines
        common = np.bincount(long)
        w = int(common.argmax())
        if common[w] < 3 or w < int(long.max()):
            return lines
        cut = [i for i in np.flatnonzero(lengths == w).tolist()
               if i + 1 < len(lines) and lines[i + 1] and _shape(lines[i + 1]) != _shape(lines[i])
               and not lines[i].rstrip().endswith((b"}", b"]", b")"))]  # a closed record is no cut one
        if len(cut) < max(3, int(common[w]) // 2):
            return lines
        width = st["wrap"] = w
    out: list[bytes] = []
    pending = b""
    for ln in lines:
        if pending and _shape(ln) == _shape(pending):
            out.append(pending)  # the next line starts like the record did: a new record, not a wrap
            pending = b""
        joined = pending + ln
        pending = b""
        if width - 2 <= len(ln) <= width and not ln.rstrip().endswith((b"}", b"]")) and len(joined) < LINE_CAP:
            pending = joined
            continue
        out.append(joined)
    if pending:
        out.append(pending)
    return out


def _shape(line: bytes) -> bytes:
    """How a line starts, digits masked: records of one log start alike (``[12/22 20:00:22] ...``)."""
    return line[:8].translate(_DIGITS_TO_0)
