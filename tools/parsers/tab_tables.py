"""Tab-separated tables: an optimiser's iteration table printed with tabs between its cells, its header's cells
possibly numbered (examples/libraries_holdout100's itk-elastix: ``1:ItNr	2:Metric	3a:Time	3b:StepSize
4:||Gradient||	Time[ms]`` over rows ``0	161.159320	0.000000	0.011636	43.111692	30.6``; L-BFGS's
``1a:SrchDirNr	1b:LineItNr ... 5:Phase	6a:Wolfe1 ... 7:LinSrchStopCondition	Time[ms]`` over rows holding words
between numbers, ``Main	true	true	WolfeSatisfied``).

A header is a line of 3 or more tab-separated cells, each a name: an optional column index (``1:``, ``3a:``, the
number an optimiser gives its column) then a name holding a letter and opening with no digit, sign nor dot (``||``
and brackets allowed: ``||Gradient||``, ``Time[ms]``, ``Time [ms]`` with a blank inside), at most 3 words, no
colon, no word a number (``Eval Epoch: 1 mean_rank: 5.0	clip_val_loss: 1.8``, pairs between tabs, is none). The
index is no part of the name, nor any number of the line a value (before: ``1:ItNr	2:Metric`` was read as ``ItNr =
2``). The rows under it are named cell for cell as any table's (``fields._header_name``). Tried only where the
blank-separated rule (``fields.header_names``) takes no header.

Bounded: a header of at most ``MAX_LINE`` bytes and ``MAX_CELLS`` cells, each read once (no backtracking)."""

from __future__ import annotations

import re

MAX_LINE = 2048  # a header's bytes
MAX_CELLS = 64  # a header's cells
MAX_NAME = 48  # a cell's bytes
MAX_WORDS = 3  # a cell's blank-separated words

_INDEX = re.compile(rb"[0-9]{1,3}[a-z]?:")  # a column's index before its name (``1:``, ``3a:``)
_OPENERS = frozenset(b"|[(_#")  # a name may open with these as well as a letter (``||Gradient||``)


def _name(cell: bytes) -> bytes | None:
    """``cell`` without its column index, when it is a name (see the module's docstring); else None."""
    m = _INDEX.match(cell)
    if m is not None and m.end() < len(cell):
        cell = cell[m.end():]
    if not cell or len(cell) > MAX_NAME or not (cell[:1].isalpha() or cell[0] in _OPENERS):
        return None
    if not any(ch.isalpha() for ch in cell.decode("latin-1")) or b"=" in cell or b"," in cell or b":" in cell:
        return None  # (``clip_val_loss: 1.80``, a record's pair between tabs, is no name)
    words = cell.split()
    if len(words) > MAX_WORDS or any(w[:1] in b"0123456789+-." for w in words):
        return None  # a name of a few words, none of them a number
    if cell.lower() in (b"nan", b"inf", b"true", b"false"):
        return None
    return cell


def _cells(line: bytes) -> list[bytes]:
    """The tab-separated cells of ``line`` (blanks and tabs around it aside)."""
    return line.strip(b" \r\n").strip(b"\t").split(b"\t")


class TabNames(list[str]):
    """A tab-separated header's names: kept between reads under its count of tab-separated cells (``key``), named
    only a row of as many (never a line of words of as many blank-separated words at a read's start: elastix's
    ``Time spent in resolution 0 (ITK initialization and iterating): 0.0796``)."""


def key(names: list[str]) -> str:
    """The key a header's names are kept under between reads: its count, ``t`` before it for a tab-separated one."""
    return f"t{len(names)}" if isinstance(names, TabNames) else str(len(names))


def row_key(line: bytes) -> str | None:
    """The key of the tab-separated header a row at a read's start may be under: its count of tab-separated cells,
    when it has tabs; else None."""
    if b"\t" not in line or len(line) > MAX_LINE:
        return None
    return f"t{len(_cells(line))}"


def tab_header(line: bytes) -> TabNames | None:
    """The column names of a tab-separated header (see the module's docstring), or None."""
    if b"\t" not in line or len(line) > MAX_LINE:
        return None
    cells = _cells(line)
    if not 3 <= len(cells) <= MAX_CELLS:
        return None
    names = TabNames()
    for c in cells:
        name = _name(c.strip())
        if name is None:
            return None
        names.append(name.decode("utf-8", "replace"))
    return names


_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")  # the words of a CamelCase name (``ItNr``: ``It``, ``Nr``)


def numbered_stem(name: str, number_words: frozenset[str]) -> str | None:
    """The thing a CamelCase name numbers when its last word is a number's (``ItNr``: ``it``, elastix's iteration
    column; ``EpochNo``: ``epoch``), its other words run together in lower case; else None. (A name of words apart,
    ``Iteration No``, is ``fields.plan_template``'s.)"""
    if len(name) > MAX_NAME or not name.isalpha():
        return None
    words = _CAMEL.findall(name)
    if len(words) < 2 or "".join(words) != name or words[-1].lower() not in number_words:
        return None
    return "".join(words[:-1]).lower()
