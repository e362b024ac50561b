"""A table whose rows are led by a one-letter mark naming the row's kind (fixpdlp; seen in OR-Tools PDLP's iteration
table at verbosity 4: ``I  iter# kkt_pass   time | rel_prim_res ...`` over ``A     16     17.0    0.0 | ...`` and
``C     16     17.0    0.0 | ...``, the average and the current iterate's statistics at each termination check).

Two notions, both in general terms:

- **The table's rows wherever they are.** A row led by a capital letter alone, then number cells and borders only
  (``mark_shape``), has a shape: its template with the letter and the blanks taken out (numbers of any width, any
  mark). Rows of one shape are one table's, as a bar's redrawn rows are (``tables_text.Tables._shape_head``): where
  notices printed between them (PDLP's ``Restarted to current on iteration 17 after 8 iterations`` and ``New
  computed primal weight is 0.52 at iteration 17``, more and longer runs of them than a warning's interruption)
  leave a row no header of its own above, the header over the nearest row of its shape heads it (kept across reads).
- **One record a step.** Where the marked rows print several kinds at one step, the step's first row is its record
  and the rows of other kinds after it at that step are its companions, no points (``companions``): the library
  prints the point it reports first (PDLP's average iterate ``A``, then the current ``C``; at iteration 0, where no
  average exists yet, only ``C``). Walked in line order over every marked template of a read, the last step kept in
  the log's state (``mk_prev``): the same points whole and in pieces.

A marked row on its face (``is_marked``) also starts a record: rows as wide as each other, one kind after another,
are no lines a terminal cut at its width (``lines.join_wrapped``: a read of a few such rows took ``A`` and ``C``
for a cut line and its rest).

Linear in the rows; a template looked at over ``MAX_TEMPLATE`` bytes at most.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .templates import NAN_MARK

MIN_NUMBERS = 3  # number cells after the mark (fewer: a line of prose, ``A 3 b``)
MAX_TEMPLATE = 4096  # bytes of a template looked at
_BLANKS = b" \t"
_NUMBER = b"\x01"


def mark_shape(template: bytes) -> bytes | None:
    """The shape of a table's row led by a one-letter mark (``A     16     17.0 | ...``: a capital letter, blanks, then
    only number cells, blanks and ``|`` borders): the template with its lead letter as ``?`` and its blanks gone;
    None for any other template."""
    if len(template) > MAX_TEMPLATE or len(template) < 4 or not 65 <= template[0] <= 90 or \
            template[1:2] not in (b" ", b"\t"):
        return None
    rest = template[1:].replace(NAN_MARK, _NUMBER).translate(None, _BLANKS)
    if not rest.startswith(_NUMBER) or rest.count(_NUMBER) < MIN_NUMBERS or rest.translate(None, _NUMBER + b"|"):
        return None
    return b"?" + rest


def is_marked(line: bytes) -> bool:
    """Whether ``line`` is a marked row on its face: a capital letter, a blank, then a number (the template's test,
    ``mark_shape``, made on the line's first bytes)."""
    if len(line) < 4 or not 65 <= line[0] <= 90 or line[1:2] not in (b" ", b"\t"):
        return False
    head = line[1:64].lstrip(_BLANKS)
    return head[:1].isdigit() or head[:1] in (b"-", b"+") and head[1:2].isdigit()


def companions(lines: Sequence[bytes], reads: list[tuple[np.ndarray, np.ndarray]], st: dict) -> list[np.ndarray]:
    """For each read (its line indices, its steps) of a template of marked rows, which of its lines are companions:
    a row at the step of the marked row before it in line order (over all the reads given, the first compared with
    the last step kept in ``st["mk_prev"]`` from the reads before), another kind of the step's record. ``st`` is
    updated with this read's last marked step."""
    out = [np.zeros(len(idx), dtype=bool) for idx, _s in reads]
    marked = [r for r, (idx, _s) in enumerate(reads) if len(idx) and is_marked(lines[int(idx[0])])]
    if not marked:
        return out
    at = np.concatenate([reads[r][0] for r in marked])
    steps = np.concatenate([np.asarray(reads[r][1], dtype=float) for r in marked])
    which = np.concatenate([np.full(len(reads[r][0]), r) for r in marked])
    pos = np.concatenate([np.arange(len(reads[r][0])) for r in marked])
    order = np.argsort(at, kind="stable")
    s = steps[order]
    prev = np.empty(len(s))
    prev[0] = float(st["mk_prev"]) if st.get("mk_prev") is not None else np.nan
    prev[1:] = s[:-1]
    dup = s == prev  # (NaN steps never equal: no record dropped for want of a step)
    for k in np.flatnonzero(dup).tolist():
        out[int(which[order[k]])][int(pos[order[k]])] = True
    last = s[-1]
    if np.isfinite(last):
        st["mk_prev"] = float(last)
    return out
