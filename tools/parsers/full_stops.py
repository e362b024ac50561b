"""A number that ends a sentence (issue 32, fixabc): its full stop is no part of it.

A library that logs its records as sentences puts the sentence's full stop right after the last number, with no
blank between: pyabc's ``ABC INFO: t: 3, eps: 2.56164447e-01.`` and ``Accepted: 100 / 205 = 4.8780e-01, ESS:
9.9260e+01.`` (python logging, examples/libraries_holdout99), jMetalPy's ``Evaluations: 80.``. The template step
takes the dot as one more number character (``2.56164447e-01.`` one run), which no ``float()`` reads: the record's
value was lost. A run of number characters followed by the line's end or a blank whose text is no number, but is one
without its last ``.`` (a float that has its own point or exponent already: ``2.5e-01.``, ``0.75.``; the NaN mark,
``nan.``), is that number and a full stop: the dot is dropped from the line before its template is taken. A run
that reads as a number with its dot (``3.``, ``-1.``: a whole number written with a point) is left as printed (the
same value, the same template), as is one glued to a word before it (``v1.2.``, a name) or one that is no number
either way (``1.2.3.``, a version). Each line is judged alone (the same lines whatever the read sizes); linear: the
candidates found by one vectorised pass over the block's text, each looked at over at most ``MAX_RUN`` bytes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .templates import NAN_MARK, NUMBER_CHARS

MAX_RUN = 64  # the longest run of number characters looked at before a full stop
_NUMBER = frozenset(NUMBER_CHARS)
# bytes glued before a run that make it part of a word or a name (``v1.2.``, ``model_0.5.``): no number of its own
_GLUED = frozenset(b"abcdfghijklmnopqrstuvwxyzABCDFGHIJKLMNOPQRSTUVWXYZ_/@'")


def _reads(seg: bytes) -> bool:
    """Whether ``seg`` is a number as ``float()`` reads it, or the NaN mark."""
    if seg == NAN_MARK:
        return True
    try:
        float(seg)
    except ValueError:
        return False
    return True


def stop_after(line: bytes, dot: int) -> bool:
    """Whether the ``.`` at ``dot`` of ``line`` (followed by the line's end or a blank) is a sentence's full stop
    after a number: the run of number characters it ends is no number, but is one without it."""
    a = dot
    while a > 0 and dot - a < MAX_RUN and line[a - 1] in _NUMBER:
        a -= 1
    if a == dot or dot - a >= MAX_RUN and a > 0 and line[a - 1] in _NUMBER:
        return False
    if a > 0 and line[a - 1] in _GLUED:
        return False
    run = line[a:dot]
    # (a run opening with the exponent's letter is a word's end: ``size.`` is no number)
    return run[:1] not in b"eE" and not _reads(run + b".") and _reads(run)


def without_stops(line: bytes) -> bytes:
    """``line`` with each full stop after a number (``stop_after``) dropped."""
    out: list[bytes] = []
    start = 0
    i = line.find(b".")
    while i >= 0:
        if (i + 1 == len(line) or line[i + 1] in b" \t") and i > 0 and stop_after(line, i):
            out.append(line[start:i])
            start = i + 1
        i = line.find(b".", i + 1)
    if not out:
        return line
    out.append(line[start:])
    return b"".join(out)


def _candidates(text: bytes) -> np.ndarray:
    """The offsets in ``text`` of each ``.`` after a digit or a ``+`` (the NaN mark's end) and before a blank, a line
    break or the text's end: one vectorised pass."""
    arr = np.frombuffer(text, dtype=np.uint8)
    if len(arr) < 2:
        return np.zeros(0, dtype=np.int64)
    before = arr[:-1]
    after = np.empty(len(arr), dtype=bool)
    nxt = arr[1:]
    after[:-1] = (nxt == 10) | (nxt == 32) | (nxt == 9)
    after[-1] = True
    hit = np.zeros(len(arr), dtype=bool)
    hit[1:] = (arr[1:] == 46) & (((before >= 48) & (before <= 57)) | (before == 43)) & after[1:]
    return np.flatnonzero(hit)


def without_full_stops(lines: Sequence[bytes], text: bytes | None = None) -> list[bytes] | None:
    """The lines, as a new list, with the full stops after numbers (``without_stops``) dropped; None when no line
    holds one (the lines are then as they were). ``text``: ``b"\\n".join(lines)`` when at hand."""
    if text is None:
        text = b"\n".join(lines)
    if b"." not in text:
        return None
    at = _candidates(text)
    if not len(at):
        return None
    breaks = np.flatnonzero(np.frombuffer(text, dtype=np.uint8) == 10)
    rows = np.unique(np.searchsorted(breaks, at)).tolist()  # the line of each candidate (breaks before it)
    out: list[bytes] | None = None
    for r in rows:
        line = lines[r]
        new = without_stops(line)
        if new is not line and new != line:
            if out is None:
                out = list(lines)
            out[r] = new
    return out
