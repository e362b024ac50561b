"""A number that ends a sentence (issue 32, fixabc): its full stop is no part of it.

A library that logs its records as sentences puts the sentence's full stop right after the last number, with no
blank between: pyabc's ``ABC INFO: t: 3, eps: 2.56164447e-01.`` and ``Accepted: 100 / 205 = 4.8780e-01, ESS:
9.9260e+01.`` (python logging, examples/libraries_holdout99). The template step
takes the dot as one more number character (``2.56164447e-01.`` one run), which no ``float()`` reads: the record's
value was lost. A run of number characters followed by the line's end or a blank whose text is no number, but is one
without its last ``.`` (a float that has its own point or exponent already: ``2.5e-01.``, ``0.75.``; the NaN mark,
``nan.``), is that number and a full stop: the dot is dropped from the line before its template is taken. A run
that reads as a number with its dot (``3.``, ``-1.``: a whole number written with a point) is left as printed (the
same value, the same template), as is one glued to a word before it (``v1.2.``, a name) or one that is no number
either way (``1.2.3.``, a version). Each line is judged alone (the same lines whatever the read sizes); linear and
vectorised over the block's text (``without_full_stops``): the candidates found in one pass, their runs in at most
``MAX_RUN`` steps, each distinct shape of run (its digits alike) judged once, in chunks of ``CHUNK`` candidates;
``without_stops`` is the same rule line by line, the reference the tests hold it to.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .lines import TextLines
from .templates import NUMBER_CHARS, reads_as_float

MAX_RUN = 64  # the longest run of number characters looked at before a full stop
_NUMBER = frozenset(NUMBER_CHARS)
# bytes glued before a run that make it part of a word or a name (``v1.2.``, ``model_0.5.``): no number of its own
_GLUED = frozenset(b"abcdfghijklmnopqrstuvwxyzABCDFGHIJKLMNOPQRSTUVWXYZ_/@'")


def stop_after(line: bytes, dot: int) -> bool:
    """Whether the ``.`` at ``dot`` of ``line`` (followed by the line's end or a blank) is a sentence's full stop
    after a number: the run of number characters it ends is no number, but is one without it."""
    a = dot
    while a > 0 and dot - a < MAX_RUN and line[a - 1] in _NUMBER:
        a -= 1
    if a == dot or dot - a >= MAX_RUN:
        return False  # (no run; a run of ``MAX_RUN`` bytes or more: looked at no further)
    if a > 0 and line[a - 1] in _GLUED:
        return False
    run = line[a:dot]
    # (a run opening with the exponent's letter is a word's end: ``size.`` is no number)
    return run[:1] not in b"eE" and not reads_as_float(run + b".") and reads_as_float(run)


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


_IS_NUMBER = np.zeros(256, dtype=bool)
_IS_NUMBER[list(NUMBER_CHARS)] = True
_IS_GLUED = np.zeros(256, dtype=bool)
_IS_GLUED[list(_GLUED)] = True
_DIGITS_ALIKE = bytes.maketrans(b"123456789", b"000000000")  # a run's shape: its digits one digit
MAX_SHAPES = 4096  # run shapes whose verdict is remembered (process-wide)
_SHAPES: dict[bytes, bool] = {}


def _candidates(arr: np.ndarray) -> np.ndarray:
    """The offsets in the text ``arr`` (its bytes) of each ``.`` after a digit or a ``+`` (the NaN mark's end) and
    before a blank, a line break or the text's end: one vectorised pass."""
    if len(arr) < 2:
        return np.zeros(0, dtype=np.int64)
    at = np.flatnonzero(arr[1:] == 46) + 1  # (a dot opening the text ends no number)
    if not len(at):
        return at
    before = arr[at - 1]
    nxt = arr[np.minimum(at + 1, len(arr) - 1)]
    after = (at + 1 == len(arr)) | (nxt == 10) | (nxt == 32) | (nxt == 9)
    return at[(((before >= 48) & (before <= 57)) | (before == 43)) & after]


def _run_starts(arr: np.ndarray, dots: np.ndarray) -> np.ndarray:
    """Where the run of number characters ending right before each of ``dots`` starts; -1 for a run of ``MAX_RUN``
    bytes or more (looked at no further). At most ``MAX_RUN`` vectorised steps over the candidates."""
    start = np.full(len(dots), -1, dtype=np.int64)
    open_ = np.ones(len(dots), dtype=bool)
    for k in range(1, MAX_RUN + 1):
        pos = dots - k
        ended = open_ & ((pos < 0) | ~_IS_NUMBER[arr[np.maximum(pos, 0)]])
        start[ended] = pos[ended] + 1
        open_ &= ~ended
        if not open_.any():
            break
    return start


def _shape_stops(run: bytes) -> bool:
    """Whether a run of number characters followed by ``.`` is a number and its full stop (``stop_after``'s test on
    the run alone), remembered by the run's shape (its digits alike: ``0.00000000e+00``)."""
    shape = run.translate(_DIGITS_ALIKE)
    hit = _SHAPES.get(shape)
    if hit is None:
        hit = run[:1] not in b"eE" and not reads_as_float(shape + b".") and reads_as_float(shape)
        if len(_SHAPES) < MAX_SHAPES:
            _SHAPES[shape] = hit
    return hit


CHUNK = 1 << 15  # candidates judged per vectorised step (bounded memory: CHUNK x MAX_RUN offsets)
_ALIKE = np.arange(256, dtype=np.uint8)
_ALIKE[49:58] = 48  # (``_DIGITS_ALIKE`` as a table)


def _judged(arr: np.ndarray, dots: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Per candidate (its dot and its run's start), whether it is a number's full stop: the runs' shapes (digits
    alike, right-aligned on the dot) made unique per chunk, each distinct shape judged once (``_shape_stops``)."""
    out = np.zeros(len(dots), dtype=bool)
    for c0 in range(0, len(dots), CHUNK):
        d, a = dots[c0:c0 + CHUNK], start[c0:c0 + CHUNK]
        width = int((d - a).max())
        cols = np.arange(-width, 0)
        pos = d[:, None] + cols[None, :]
        shape = np.where(pos >= a[:, None], _ALIKE[arr[np.maximum(pos, 0)]], 0).astype(np.uint8)
        keys = np.ascontiguousarray(shape).view(np.dtype((np.void, width))).ravel()
        uniq, inv = np.unique(keys, return_inverse=True)
        verdict = np.array([_shape_stops(bytes(u).lstrip(b"\0")) for u in uniq], dtype=bool)
        out[c0:c0 + CHUNK] = verdict[inv.ravel()]
    return out


def stop_offsets(text: bytes) -> np.ndarray:
    """The offsets in ``text`` of the full stops after numbers (``stop_after``), in order."""
    arr = np.frombuffer(text, dtype=np.uint8)
    dots = _candidates(arr)
    if not len(dots):
        return dots
    start = _run_starts(arr, dots)
    ok = start >= 0
    ok[ok] &= ~_IS_GLUED[arr[np.maximum(start[ok] - 1, 0)]] | (start[ok] == 0)
    dots, start = dots[ok], start[ok]
    if not len(dots):
        return dots
    return dots[_judged(arr, dots, start)]


def without_full_stops(lines: Sequence[bytes], text: bytes | None = None) -> tuple[TextLines, bytes] | None:
    """The lines, and their text, with the full stops after numbers (``stop_offsets``) dropped; None when no line
    holds one (the lines are then as they were). ``text``: ``b"\\n".join(lines)`` when at hand. Vectorised over the
    block's bytes: the candidates' runs found in at most ``MAX_RUN`` steps, each run judged by its shape."""
    if text is None:
        text = b"\n".join(lines)
    if b"." not in text:
        return None
    drop = stop_offsets(text)
    if not len(drop):
        return None
    kept = np.ones(len(text), dtype=bool)
    kept[drop] = False
    new = np.frombuffer(text, dtype=np.uint8)[kept].tobytes()
    return TextLines(new), new
