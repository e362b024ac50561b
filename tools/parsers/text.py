"""Turning raw log bytes into clean text lines: carriage-return overwrites, ANSI colours, giant lines, bad bytes.

Every parser sees text made by ``clean_block``: complete lines only, each the
final content a terminal would show (tqdm's ``\\r`` updates collapsed), with no
colour codes, and no line longer than ``MAX_LINE`` bytes (longer ones are
dropped: they are never metric lines).
"""

from __future__ import annotations

import math
import re

import numpy as np

from ..points import parse_number

MAX_LINE = 1 << 20  # bytes; a longer line is skipped (a dumped tensor, a binary blob)

_ANSI = re.compile(r"\x1b\[[0-9;?]*+[ -/]*+[@-~]|\x1b\][^\x07\x1b]*+(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
# The segments a later \r overwrote: from a line's start to its last \r. Anchored at line starts and possessive, so
# each line is scanned once (``[^\n\r]*\r`` unanchored retried every start in a long line without \r: quadratic).
_CR_SEGMENT = re.compile(r"(?m)^(?:[^\n\r]*+\r)++")

# A number in any spelling the logs use (scientific notation, nan/inf words).
NUM = r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|[nN][aA][nN]|[iI]nf(?:inity)?|INF)"
_NUM_UNIT = re.compile(rf"^({NUM})([A-Za-z%/]*)$")


def drop_giant_lines(data: bytes, max_line: int = MAX_LINE) -> tuple[bytes, int]:
    """``data`` without lines longer than ``max_line`` bytes, and how many were dropped."""
    if len(data) <= max_line:
        return data, 0
    arr = np.frombuffer(data, dtype=np.uint8)
    nl = np.flatnonzero(arr == 10)
    bounds = np.concatenate(([-1], nl, [len(data)]))
    gaps = np.diff(bounds) - 1
    long_idx = np.flatnonzero(gaps > max_line)
    if not len(long_idx):
        return data, 0
    parts = []
    prev = 0
    for i in long_idx:
        start, end = int(bounds[i]) + 1, int(bounds[i + 1])  # the long line is data[start:end]
        parts.append(data[prev:start])
        prev = end + 1 if end < len(data) else end
    parts.append(data[prev:])
    return b"".join(parts), len(long_idx)


def clean_text(text: str) -> str:
    """Text as a terminal shows it: CRLF -> LF, ``\\r``-overwritten segments dropped, lines a cursor-up and a clear
    erased, ANSI codes removed."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            text = _CR_SEGMENT.sub("", text)
    if "\x1b" in text:
        if "J" in text:  # a display a cursor-up and a clear redrew (lines.erase_cleared): what the terminal shows
            from .lines import erase_cleared

            raw = text.encode("utf-8", "surrogatepass")
            erased = erase_cleared(raw)[0]
            text = text if erased is raw else erased.decode("utf-8", "surrogatepass")
        text = _ANSI.sub("", text)
    return text


def clean_block(data: bytes, max_line: int = MAX_LINE) -> tuple[str, int]:
    """Decoded (invalid UTF-8 replaced), cleaned text of complete lines, and the count of giant lines dropped."""
    data, dropped = drop_giant_lines(data, max_line)
    return clean_text(data.decode("utf-8", errors="replace")), dropped


def to_value(text: str) -> float | None:
    """A metric value from a field's text: ``2.3``, ``9.85E-05``, ``nan``, ``12.5ms`` (unit dropped).

    A NaN glued to a unit (``step_avg:nanms``) is a timing placeholder, not a diverged metric: None. So is an
    infinity glued to letters: a word that starts so (a log level, ``"level": "info"`` of structlog's JSON records,
    ``inform``) or a placeholder (``infms``), never a value.
    """
    try:
        return float(text)  # the common case, fast
    except ValueError:
        pass
    v = parse_number(text)
    if v is not None:
        return v
    m = _NUM_UNIT.match(text.strip().strip(",;|"))
    if not m:
        return None
    v = parse_number(m.group(1))
    if v is None or (not math.isfinite(v) and m.group(2)):
        return None
    return v


def to_step(text: str) -> int | None:
    """An integer step from ``12``, ``12.0`` or ``1e3``; None otherwise (NaN/Inf are not steps)."""
    try:
        return int(text)
    except (ValueError, TypeError):
        pass
    v = parse_number(str(text))
    if v is None or not math.isfinite(v):
        return None
    return int(v)


def printable_sample(line: str, limit: int = 120) -> str:
    """A line fit to quote in a one-line error: control characters escaped, shortened."""
    line = line.strip()
    out = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in line[: limit * 2])
    return out if len(out) <= limit else out[: limit - 3] + "..."
