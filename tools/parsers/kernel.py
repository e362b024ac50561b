"""The engine's bulk steps, in C when the optional extension ``_kernel`` is built (``setup.py``), else by the
Python reference (the patterns and numpy/pandas steps named below: the same answers, tests/test_kernel.py holds them
equal on any bytes). The kernel is optional: without a C compiler the package installs and reads in Python, slower.

- ``factorize_templates(joined)``: each ``\\n``-separated line's template (``templates.templates_of``) as a code, in
  order of first appearance, and the distinct templates.
- ``read_fields(joined, starts, ends, cols)``: fields ``cols`` of the lines ``joined[starts[i]:ends[i]]``, split as
  ``templates.value_text`` splits them and read as ``float()`` reads them (bitwise); the NaN mark is NaN, any other
  field that holds no number is NaN and bad.
- the cleaning of a block (``lines.split_lines``), each what its pattern in lines.py / templates.py makes:
  ``cut_bars`` (tqdm's bars written ``%||``: a bar is one template whatever its fill), ``break_glued`` (a bar redrawn
  without ``\\r`` on a line of its own), ``break_records`` (a printed record on a line of its own), ``strip_ansi``
  (terminal escape codes gone), ``mask_words`` (the nan/inf words written as numbers, ``templates.MASKS``),
  ``line_breaks`` (each line break one newline: ``lines.line_breaks_reference``), ``keras_bars`` (Keras 2 bars
  written ``[]``).
- ``md_cells``: where each cell's number is in a markdown table's rows (then read by ``read_fields``).
- ``match_events``: the progress bar's write events the records of a block take (``bar_steps._walk_records``).
- ``json_records``: the flat JSON records of a few key orders in a block, up to the first line that is not one
  (``jsonl.py``'s block path; the kernel must be built: without it jsonl.py reads with pandas).
- ``history_page`` / ``history_rows`` (``_kernel_wandb.c``): a W&B ``HistoryPage`` answer's rows as each metric's
  points, the rows it leaves handed back; their Python reference is the W&B row-by-row pass
  (tools/sources/wandb_history.py calls them; tests/test_wandb_history.py holds the two equal).
- ``line_bounds(joined)``: (starts, ends) of its lines; a template's lines are ``starts[idx], ends[idx]`` of the same
  ``joined``, no copy.

All scan with the GIL released (another thread, e.g. the server answering a call, runs meanwhile). The
kernel's templates are ``templates_of``'s byte for byte (a \\x01 byte is a mark, a \\x02 byte vanishes), and its
codes the first-appearance numbering of ``joined.split(b"\\n")`` (``_factorize`` differs only where pandas ends a line
at a ``\\r``, which lines never hold).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from types import ModuleType

import numpy as np


def _load() -> ModuleType | None:
    if os.environ.get("TRAINING_CHECK_NO_KERNEL"):  # the Python reference, forced (tests, comparisons)
        return None
    try:
        from . import _kernel
    except ImportError:
        return None
    return _kernel


_KERNEL = _load()
HAVE_KERNEL: bool = _KERNEL is not None


def factorize_templates(joined: bytes, use_kernel: bool = True) -> tuple[np.ndarray, list[bytes]]:
    """(code per line as int64, the distinct templates in order of first appearance) of the lines of ``joined``
    (``joined.split(b"\\n")``: a final newline ends with an empty line)."""
    if use_kernel and _KERNEL is not None:
        codes, uniques = _KERNEL.templates(joined)
        return np.frombuffer(codes, dtype=np.int64), uniques
    from .templates import _factorize, templates_of

    return _factorize(templates_of(joined), joined.count(b"\n") + 1)


def cut_bars(data: bytes, use_kernel: bool = True) -> bytes:
    """``data`` with each tqdm bar (``37%|####      |``) written ``%||``: ``lines.BAR.sub(b"%||", data)``."""
    if use_kernel and _KERNEL is not None:
        return _KERNEL.cut_bars(data)
    from .lines import BAR

    return BAR.sub(b"%||", data)


def break_glued(data: bytes, use_kernel: bool = True) -> bytes:
    """A bar redrawn without a carriage return (``...it/s]  38%||``) on a line of its own:
    ``lines.GLUED_BAR.sub(rb"]\\n\\1", data)``."""
    if use_kernel and _KERNEL is not None:
        return _KERNEL.break_glued(data)
    from .lines import GLUED_BAR

    return GLUED_BAR.sub(rb"]\n\1", data)


def break_records(data: bytes, use_kernel: bool = True) -> bytes:
    """A printed record (``{'loss': ...``, ``{"loss": ...``) on a line of its own: a newline before each ``{`` and a
    quote."""
    if use_kernel and _KERNEL is not None:
        return _KERNEL.break_records(data)
    return data.replace(b"{'", b"\n{'").replace(b'{"', b'\n{"')


def match_events(queue: np.ndarray, avail: np.ndarray, eps: np.ndarray, spe: float | None,
                 use_kernel: bool = True) -> tuple[np.ndarray, int, float | None]:
    """(the write event each record takes, NaN for none; the queue's head after them; the steps per epoch after
    them): ``bar_steps._walk_records``, record by record in C (the kernel must be built: the engine asks only then)."""
    if not (use_kernel and _KERNEL is not None):
        raise RuntimeError("match_events: the C kernel is not built (bar_steps._walk_records walks in Python then)")
    raw, head, spe_after = _KERNEL.match_events(np.ascontiguousarray(queue, dtype=np.float64),
                                                np.ascontiguousarray(avail, dtype=np.int64),
                                                np.ascontiguousarray(eps, dtype=np.float64), spe)
    return np.frombuffer(raw, dtype=np.float64).copy(), head, spe_after


def md_cells(rows: bytes, k: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(starts, ends) int64 (n, k): the span of the number in each of the ``k`` cells of each markdown table row of
    ``rows`` (empty for an empty cell, ``-`` or ``@``); None when a line is not such a row (``table._md_fields``
    reads those blocks with pandas when the kernel is not built)."""
    if _KERNEL is None:
        raise RuntimeError("md_cells: the C kernel is not built (table._md_fields reads with pandas then)")
    got = _KERNEL.md_cells(rows, k)
    if got is None:
        return None
    return (np.frombuffer(got[0], dtype=np.int64).reshape(-1, k), np.frombuffer(got[1], dtype=np.int64).reshape(-1, k))


def json_records(data: bytes, start: int, shapes: tuple[tuple[tuple[bytes, ...], bytes, tuple[bytes, ...], bytes], ...],
                 width: int, max_record: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(values float64 (r, width), kinds uint8 (r, width), starts int64 (r + 1), which uint8 (r)) of the records of
    ``shapes`` (each (keys, modes, fixed strings, int32 columns): ``_kernel_json.c`` says what each mode takes) read
    from ``data[start:]`` up to the first line that is none; row i is ``data[starts[i]:starts[i + 1]]``, of shape
    ``which[i]``. Read-only views of the kernel's buffers."""
    if _KERNEL is None:
        raise RuntimeError("json_records: the C kernel is not built (jsonl.py reads with pandas then)")
    values, kinds, starts, which = _KERNEL.json_records(data, start, shapes, width, max_record)
    at = np.frombuffer(starts, dtype=np.int64)
    r = len(at) - 1
    return (np.frombuffer(values, dtype=np.float64).reshape(r, width),
            np.frombuffer(kinds, dtype=np.uint8).reshape(r, width), at, np.frombuffer(which, dtype=np.uint8))


def strip_ansi(data: bytes, use_kernel: bool = True) -> bytes:
    """``data`` without terminal escape codes: ``lines.ANSI.sub(b"", data)``."""
    if use_kernel and _KERNEL is not None:
        return _KERNEL.strip_ansi(data)
    from .lines import ANSI

    return ANSI.sub(b"", data)


def line_breaks(data: bytes, use_kernel: bool = True) -> tuple[bytes, int]:
    """(each line break of ``data`` as one newline: ``lines.line_breaks_reference(data)``, ``data`` itself when it
    holds no control byte; the NUL bytes in ``data``)."""
    if use_kernel and _KERNEL is not None:
        return _KERNEL.line_breaks(data)
    from .lines import line_breaks_reference

    return line_breaks_reference(data), data.count(b"\x00") if b"\x00" in data else 0


def keras_bars(data: bytes, use_kernel: bool = True) -> bytes:
    """``data`` with each Keras 2 bar written ``[]``: ``lines.KERAS_BAR.sub(b"[]", data)`` (``data`` itself when it
    holds none)."""
    if use_kernel and _KERNEL is not None:
        return _KERNEL.keras_bars(data)
    from .lines import KERAS_BAR

    return KERAS_BAR.sub(b"[]", data) if KERAS_BAR.search(data) else data


def mask_words(data: bytes, use_kernel: bool = True) -> bytes:
    """The nan/inf words that stand alone written as numbers: ``templates.mask_numbers(data)`` (``data`` itself when
    none is there)."""
    if use_kernel and _KERNEL is not None:
        return _KERNEL.mask_words(data)
    from .templates import mask_numbers

    return mask_numbers(data)


def line_bounds(joined: bytes, use_kernel: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) as int64 arrays of the lines of ``joined`` (``joined.split(b"\\n")``: line i is
    ``joined[starts[i]:ends[i]]``), one per code of ``factorize_templates``."""
    if use_kernel and _KERNEL is not None:
        ends = np.frombuffer(_KERNEL.line_ends(joined), dtype=np.int64)
    else:
        ends = np.append(np.flatnonzero(np.frombuffer(joined, dtype=np.uint8) == 10), len(joined))
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    return starts, ends


def read_fields(joined: bytes, starts: np.ndarray, ends: np.ndarray, cols: Sequence[int],
                use_kernel: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(values float64 (n, k), bad bool (n, k)) of fields ``cols`` (ascending, distinct, each < 2**20) of the lines
    ``joined[starts[i]:ends[i]]``; a ValueError names a wrong offset or column. The arrays are read-only views of
    the kernel's buffers (copy to write)."""
    starts = np.ascontiguousarray(starts, dtype=np.int64)
    ends = np.ascontiguousarray(ends, dtype=np.int64)
    if starts.shape != ends.shape or starts.ndim != 1:
        raise ValueError(f"read_fields: starts and ends must be 1-d arrays of one length, not {starts.shape} and "
                         f"{ends.shape}")
    n, k = len(starts), len(cols)
    if use_kernel and _KERNEL is not None:
        values, bad = _KERNEL.fields(joined, starts, ends, tuple(int(c) for c in cols))
        return (np.frombuffer(values, dtype=np.float64).reshape(n, k),
                np.frombuffer(bad, dtype=np.uint8).reshape(n, k).view(np.bool_))
    return _read_fields_reference(joined, starts, ends, [int(c) for c in cols])


def _read_fields_reference(joined: bytes, starts: np.ndarray, ends: np.ndarray,
                           cols: list[int]) -> tuple[np.ndarray, np.ndarray]:
    from .templates import NAN_MARK, value_text

    for i, c in enumerate(cols):
        if not 0 <= c < 1 << 20:
            raise ValueError(f"read_fields: cols[{i}] = {c} is out of range (a field number 0 .. 2**20-1)")
        if i and c <= cols[i - 1]:
            raise ValueError(f"read_fields: cols must be sorted ascending and distinct (cols[{i}] = {c} after "
                             f"{cols[i - 1]})")
    wrong = np.flatnonzero((starts < 0) | (ends < starts) | (ends > len(joined)))
    if len(wrong):
        i = int(wrong[0])
        raise ValueError(f"read_fields: line {i} has offsets [{starts[i]}, {ends[i]}), outside 0 <= start <= end <= "
                         f"{len(joined)} (len(joined))")
    n, k = len(starts), len(cols)
    lines = [joined[s:e] for s, e in zip(starts.tolist(), ends.tolist(), strict=True)]
    rows = [ln.split(b",") for ln in value_text(lines).split(b"\n")[:n]]
    values = np.full((n, k), np.nan)
    bad = np.zeros((n, k), dtype=bool)
    for r, row in enumerate(rows):
        for j, c in enumerate(cols):
            field = row[c] if c < len(row) else b""
            if field == NAN_MARK:
                continue
            try:
                values[r, j] = float(field)
            except ValueError:
                bad[r, j] = True
    return values, bad
