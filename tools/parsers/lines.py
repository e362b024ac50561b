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
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np

from .marked_rows import is_marked

LINE_CAP = 16 << 10  # bytes: a longer line is cut here (a dumped tensor is no metric line)

# Control bytes that end a line: \r and \b (redraws), NUL and the other C0 controls but \t, \n and ESC.
_BREAKS = bytes(c for c in range(32) if c not in (9, 10, 27)) + b"\x7f"
_TO_NEWLINE = bytes.maketrans(_BREAKS, b"\n" * len(_BREAKS))
# ESC [ params intermediates final; ESC ] ... BEL/ST; ESC + one byte. Possessive: no backtracking.
ANSI = re.compile(rb"\x1b\[[0-?]{0,64}+[ -/]{0,16}+[@-~]?|\x1b\][^\x07\x1b\n]{0,512}+(?:\x07|\x1b\\)?|\x1b[ -~]?")
# A cursor-up n (``ESC[nA``; ``ESC[nF``: to the line's start) then a clear to the end of the screen (``ESC[J``,
# ``ESC[0J``): a display redrawn in place (a multi-line progress block); bounded digits, no backtracking.
UP_CLEAR = re.compile(rb"\x1b\[([0-9]{0,4}+)([AF])\x1b\[0?J")
_BACKSPACES = re.compile(rb"\x08++")  # from a literal: the scan for it is a fast search
# A Keras 2 bar: [=====>.......] (kernel.keras_bars)
KERAS_BAR = re.compile(rb"\[[=>.]{2,256}+\]")


class TextLines(Sequence[bytes]):
    """The lines of ``text`` (``text.split(b"\\n")``, line i is ``text[starts[i]:ends[i]]``), each cut out only when
    asked for: the engine looks at a few lines of each template, so a block of a million short lines needs no
    million line objects (their making was a sixth of the read)."""

    __slots__ = ("_at", "_to", "ends", "starts", "text")

    def __init__(self, text: bytes, bounds: tuple[np.ndarray, np.ndarray] | None = None):
        from .kernel import line_bounds

        self.text = text
        self.starts, self.ends = line_bounds(text) if bounds is None else bounds
        self._at, self._to = self.starts.data, self.ends.data  # memoryviews: items as ints, at C speed

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, i: int) -> bytes: ...

    @overload
    def __getitem__(self, i: slice) -> list[bytes]: ...

    def __getitem__(self, i: int | slice) -> bytes | list[bytes]:
        if isinstance(i, slice):
            a, b, step = i.indices(len(self))
            if step != 1:
                return [self[k] for k in range(a, b, step)]
            return self.text[int(self.starts[a]):int(self.ends[b - 1])].split(b"\n") if a < b else []
        return self.text[self._at[i]:self._to[i]]  # IndexError past the end, as a list's

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.text.split(b"\n"))


@dataclass
class Lines:
    lines: Sequence[bytes]  # a list, or the block's text as lines (``TextLines``) when the kernel reads it whole
    cut: int  # lines longer than LINE_CAP, cut
    controls: int  # control bytes (NUL, \x01 ...) that ended a line: not text
    text: bytes | None = None  # ``b"\n".join(lines)`` when at hand (no line was cut): the next steps work on it whole
    masked: bool = False  # the nan/inf words are masked already (templates.MASKS, by the C kernel, before the split)


BAR = re.compile(rb"%\|[^|\n]{0,256}+\|")  # a literal start: the scan for it is a fast search (kernel.cut_bars)
GLUED_BAR = re.compile(rb"\]( {1,3}+\d{1,3}+%\|\|)")
# a line written right after a bar's last redraw, before its newline (tqdm on stdout, a logger on stderr, one file:
# ``94%|| 30/32 [00:02<00:00, 30.43it/s]2026-12-05 23:38:06 INFO Train loss: 0.51``): the bar ends at its ``]``
# (the redraw padded with blanks to the last one's width first: tez's ``mae=1.9] [train] mae=3.1176, ...``)
GLUED_LINE = re.compile(rb"%\|\| {0,8}+\d{1,12}+/\d{1,12}+ \[[^\]\n]{0,256}+\](?= {0,8}+[^\s\]])")
_GLUED_HINT = re.compile(rb"\] {0,8}+[^\s\]]")  # (a bracket closed and text right after it: the block may hold one)


def _cut_bars(data: bytes) -> bytes:
    """tqdm bars (``37%|####      |``) as ``37%||``, and bars redrawn without ``\\r`` (``...it/s]  38%|``) on lines of
    their own (``BAR``, ``GLUED_BAR``; in C by ``kernel``), as is a line glued after a bar (``GLUED_LINE``). Bounded
    patterns from a literal start: linear."""
    from .kernel import break_glued, cut_bars

    data = cut_bars(data)
    if _found(b"] ", data):
        data = break_glued(data)
    return GLUED_LINE.sub(rb"\g<0>\n", data) if _GLUED_HINT.search(data) else data


_LITERALS: dict[bytes, re.Pattern[bytes]] = {}


def _found(literal: bytes, data: bytes) -> bool:
    """``literal in data``, faster for a short literal: the regular-expression engine's search for a literal prefix
    beats ``in`` for two or three bytes (about 0.25 against 0.8 ms/MB)."""
    pattern = _LITERALS.get(literal)
    if pattern is None:
        pattern = _LITERALS[literal] = re.compile(re.escape(literal))
    return pattern.search(data) is not None


_NUMBER_TEXT = rb"[-+]?+(?:[0-9.][0-9.eE+-]{0,39}+|nan|NaN|inf)"
# a (name, value) pair of a printed list of tuples (``[('average_q', 4.6), ('average_loss', nan)]``, a statistics
# API's repr; a lone tuple in prose is left as printed): its comma after the quoted name becomes ``:`` so the name is
# the value's key, as in a dict; bounded, anchored on a literal ``('``: linear
_PAIR = re.compile(rb"(?:(?<=\[)|(?<=, ))\('([A-Za-z_][A-Za-z0-9_./@-]{0,63}+)', (?=" + _NUMBER_TEXT + rb"\))")
_WRAPPERS: dict[bytes, re.Pattern[bytes]] = {}
# a value named with the range of steps it sums up (NumPyro's bar postfix ``avg. loss [501-600]: 1494.2839``, the mean
# of steps 501..600): the value, at the range's end (``avg. loss: 1494.2839, step: 600``); bounded, anchored on a
# literal `` [``: linear
_RANGE = re.compile(rb" \[([0-9]{1,12}+)-([0-9]{1,12}+)\]: (" + _NUMBER_TEXT + rb")(?![0-9A-Za-z.])")


# an ellipsis glued between a word and a number (geneticalgorithm2's bar ``GA is running...2 gen from 25...best value =
# 3.97``): blanks around it, so the number is a field of its own; fixed-length lookarounds: linear. The literal
# first, its neighbours looked at after it: the search runs at the literal's memchr-like speed, not a lookbehind
# tried at every byte
_GLUED_ELLIPSIS = re.compile(rb"\.\.\.(?:(?<=[A-Za-z]\.\.\.)(?=[0-9])|(?<=[0-9]\.\.\.)(?=[A-Za-z]))")


def ellipsis_apart(data: bytes) -> bytes:
    """``data`` with each ellipsis glued between a word and a number (``running...2``, ``25...best``) set apart by
    blanks (``running ... 2``): the number is then a field, not a word's tail."""
    return _GLUED_ELLIPSIS.sub(b" ... ", data)


def step_ranges(data: bytes) -> bytes:
    """``data`` with each value named with a range of steps ``name [a-b]: v`` read as ``name: v, step: b`` (see
    ``_RANGE``); a range that goes back (``[9-3]``) is left as printed."""
    def one(m: re.Match[bytes]) -> bytes:
        a, b = m.group(1), m.group(2)
        if int(a) > int(b):
            return m.group(0)
        return b": " + m.group(3) + b", step: " + b

    return _RANGE.sub(one, data)


# a value printed with its error (a Monte Carlo estimate's ``Energy=-8.31 ± 0.12``, the uncertainties package's
# ``0.52+/-0.03``, a spread ``0.5 ± 10%``): the value; the error goes, no field of its own. Only after a number (a
# digit, ``nan``, ``inf``); bounded blanks and number, anchored on a literal ``±`` (``+/-``: ``_ERROR_PM``): linear
_AFTER_NUMBER = rb"(?:(?<=[0-9])|(?<=\bnan)|(?<=\bNaN)|(?<=\binf)) {0,3}+"
_ERROR = re.compile(_AFTER_NUMBER + rb"\xc2\xb1 {0,3}+" + _NUMBER_TEXT + rb"%?+(?![0-9A-Za-z_.])")
_ERROR_PM = re.compile(_AFTER_NUMBER + rb"\+/- {0,3}+" + _NUMBER_TEXT + rb"%?+(?![0-9A-Za-z_.])")


# a Fortran double-precision number (scipy's L-BFGS-B ``f=  2.46423D+00``, ``1.0d-02``): a mantissa with its point,
# ``D``/``d`` and an exponent; read as ``e`` (the same length: offsets kept). Anchored on the literal ``.`` (about
# 1 GB/s), bounded counts; the digits before the point are looked at after a match (at most 40 back): a ``D`` inside
# a word (``v1.2Dx``, ``model_2.0d3``) is no exponent
_FORTRAN_EXP = re.compile(rb"\.[0-9]{1,40}+([Dd])[+-]?+[0-9]{1,3}+(?![0-9A-Za-z_.])")
_DIGITS = frozenset(b"0123456789")
_WORDISH = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.")


def fortran_exponents(data: bytes) -> bytes:
    """``data`` with each Fortran double-precision exponent ``D``/``d`` of a number (``2.46423D+00``) as ``e``
    (``2.46423e+00``), byte for byte: a number as ``float()`` reads it, wherever numbers are read."""
    out: bytearray | None = None
    for m in _FORTRAN_EXP.finditer(data):
        i = start = m.start()
        while i > 0 and start - i < 40 and data[i - 1] in _DIGITS:
            i -= 1
        if i > 0 and data[i - 1] in _WORDISH:
            continue  # (``v1.2d-3``, ``x_0.5D+1``: a word's tail)
        if out is None:
            out = bytearray(data)
        out[m.start(1)] = 0x65  # e
    return data if out is None else bytes(out)


def without_errors(data: bytes, plus_minus: bool = True) -> bytes:
    """``data`` with each value printed with its error (``v ± e``, and ``v +/- e`` with ``plus_minus``: ``_ERROR``,
    ``_ERROR_PM``) as the value alone. (Each block is looked at for ``±``, whose last byte a search finds at memchr
    speed; ``+/-`` only in a log whose lines showed one: ``engine._cached_plan``, ``engine._read_block``.)"""
    if b"\xb1" in data:
        data = _ERROR.sub(b"", data)
    return _ERROR_PM.sub(b"", data) if plus_minus else data


def _wrapper(opening: bytes) -> re.Pattern[bytes]:
    pattern = _WRAPPERS.get(opening)
    if pattern is None:  # the wrapper, its number, an optional rest after a comma (``, grad_fn=<..>``), the ``)``
        pattern = _WRAPPERS[opening] = re.compile(
            rb"(?<![A-Za-z0-9_.])" + re.escape(opening) + rb"(" + _NUMBER_TEXT + rb")(?:,[^()\n]{0,128}+)?+\)")
    return pattern


def unwrap_reprs(data: bytes, openings: Sequence[bytes]) -> bytes:
    """``data`` with each number printed in a wrapper's repr (``np.float64(0.53)``: ``Dialect.wrapper_reprs``) as
    the number alone, and the pairs of a printed tuple list (``('loss', 0.53)``) as ``('loss': 0.53)``: a name then
    its value, as the engine reads a key. Each pattern bounded from a literal start: linear; no newline touched."""
    absent: set[bytes] = set()  # heads not in ``data`` (``np.``): their openings are not looked for one by one
    for opening in openings:
        head = opening[:opening.find(b".") + 1] or opening
        if head in absent:
            continue
        if head != opening and head not in data:
            absent.add(head)
        elif opening in data:
            data = _wrapper(opening).sub(rb"\1", data)
    if b"('" in data:
        data = _PAIR.sub(rb"('\1': ", data)
    return data


# a repr of a named value (``Result(name='objective', type='objective', value=17.8)``, ``Metric(key='loss', value=0.3,
# timestamp=1700000000000, step=3)``): a class's name (a capital first), its fields inside parentheses on one line
# (at most ``_REPR_SPAN`` bytes, no parenthesis inside); each start's scan stops at the next parenthesis or line end,
# so the scans are disjoint: linear. Its fields ``key=value``: a quoted string or a run of anything but a comma.
_REPR_SPAN = 1024
_NAMED_REPR = re.compile(rb"(?<![A-Za-z0-9_.])[A-Z][A-Za-z0-9_]{0,63}+\(([a-z_][^()\n]{0,%d}+)\)" % _REPR_SPAN)
_REPR_FIELD = re.compile(rb" {0,4}+([a-z_][a-z0-9_]{0,31}+)=('[^'\n]{0,128}+'|\"[^\"\n]{0,128}+\"|[^,'\"\n]{0,128}+)"
                         rb" {0,4}+(?:,|$)")
_REPR_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_./@ -]{0,63}+")
_REPR_NUMBER = re.compile(_NUMBER_TEXT)
_REPR_FIELDS = 16  # fields of one repr, at most


def _named_value(m: re.Match[bytes]) -> bytes:
    from .dialect import DIALECT

    inner = m.group(1)
    fields: dict[bytes, bytes] = {}
    pos = 0
    while pos < len(inner) and len(fields) < _REPR_FIELDS:
        f = _REPR_FIELD.match(inner, pos)
        if f is None or f.end() == pos:
            return m.group(0)  # not a repr of fields alone (a list inside, a call): left as printed
        fields.setdefault(f.group(1), f.group(2).strip())
        pos = f.end()
    if pos < len(inner):
        return m.group(0)
    name = next((fields[k] for k in DIALECT.repr_name_fields if k in fields), None)
    value = next((fields[k] for k in DIALECT.repr_value_fields if k in fields), None)
    if name is None or value is None or len(name) < 3 or name[:1] not in b"'\"" or name[-1:] != name[:1]:
        return m.group(0)
    name = name[1:-1]
    if _REPR_NAME.fullmatch(name) is None or _REPR_NUMBER.fullmatch(value) is None:
        return m.group(0)
    positions = DIALECT.step_names | DIALECT.epoch_names
    at = [k + b": " + v + b" " for k, v in fields.items() if k.decode() in positions and v.isdigit() and len(v) <= 18]
    return b"".join(at) + name + b": " + value


def named_values(data: bytes) -> bytes:
    """``data`` with each repr of a named value (``Result(name='objective', type='objective', value=17.8)``: a
    field of ``Dialect.repr_name_fields`` holding a quoted name, one of ``Dialect.repr_value_fields`` a number) as
    the name then its value (``objective: 17.8``), after the fields of a step's or an epoch's name holding a whole
    number (``Metric(key='loss', value=0.3, timestamp=.., step=3)``: ``step: 3 loss: 0.3``); any other repr left as
    printed. Looked for only in a block holding ``value=``; no newline touched: the same per line whatever the
    reads."""
    from .dialect import DIALECT

    if not any(k + b"=" in data for k in DIALECT.repr_value_fields):
        return data
    return _NAMED_REPR.sub(_named_value, data)


# a mapping passed as an argument of a repr call on a line (Ray Train's ``TrainingReport(checkpoint=Checkpoint(
# filesystem=local, path=/tmp/..), metrics={'epoch': 1, 'loss': 8.66}, validation=False)``, ``Result(metrics=dict(
# loss=0.5, step=3))``): the call is the mapping alone, a record as the engine reads one. One pass per line holding
# ``={`` or ``=dict(`` over its brackets and quoted strings (a quote opens a string only after a blank, a bracket,
# ``=``, ``,`` or ``:``: an apostrophe in prose does not); bounded: lines of at most ``_MAPPING_LINE`` bytes, brackets
# nested at most ``_MAPPING_DEPTH`` deep, strings closed on their line; anything else (unbalanced, no number entry)
# left as printed. Linear: each line is scanned once, each scan a regular-expression search from a literal class.
_MAPPING_LINE = 8192
_MAPPING_DEPTH = 16
_MAPPING_HIT = re.compile(rb"=(?:\{|dict\()")
_BRACKETS = re.compile(rb"[][(){}'\"]")
_OPENS = {ord("("): ord(")"), ord("["): ord("]"), ord("{"): ord("}")}
_QUOTE_AFTER = frozenset(b" ([{=,:")
_IDENT_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_CALL_CHARS = _IDENT_CHARS | frozenset(b".")
_KWARG = re.compile(rb"(?:(?<=\()|(?<=, ))([A-Za-z_][A-Za-z0-9_]{0,63}+)=(?!=)")
_NUMBER_ENTRY = re.compile(rb"['\"]: {0,4}+[-+]?+(?:[0-9.]|nan|inf)")


def _brackets(line: bytes) -> tuple[dict[int, int], dict[int, int]] | None:
    """({opening bracket's offset: its closing one's}, {opening: the opening it sits in, -1 at the top}) of
    ``line``, strings skipped; None when they do not nest (a closing bracket of another kind, too deep)."""
    close: dict[int, int] = {}
    parent: dict[int, int] = {}
    stack: list[int] = []
    pos = 0
    while True:
        m = _BRACKETS.search(line, pos)
        if m is None:
            return close, parent
        i = m.start()
        c = line[i]
        pos = i + 1
        if c in (39, 34):  # a quote
            if i and line[i - 1] not in _QUOTE_AFTER:
                continue  # an apostrophe in a word
            end = line.find(bytes((c,)), pos)
            if end < 0:
                return close, parent
            pos = end + 1
        elif c in _OPENS:
            if len(stack) >= _MAPPING_DEPTH:
                return None
            parent[i] = stack[-1] if stack else -1
            stack.append(i)
        elif stack:
            if _OPENS[line[stack[-1]]] != c:
                return None
            close[stack.pop()] = i


def _back(line: bytes, end: int, chars: frozenset[int]) -> int:
    """Where the run of ``chars`` ending at ``end`` starts (at most 64 back)."""
    start = end
    while start > 0 and end - start < 64 and line[start - 1] in chars:
        start -= 1
    return start


def _as_dict(line: bytes, opening: int, close: dict[int, int], children: dict[int, list[int]]) -> bytes:
    """``dict(a=1, b=F(c=2))``'s text (its ``(`` at ``opening``) as a dict's, ``{'a': 1, 'b': F(c=2)}``: its own
    keywords quoted, those of the calls inside it left."""
    end = close[opening]
    inside = [(o, close.get(o, end)) for o in children.get(opening, ())]  # in order
    out = [b"{"]
    pos = opening + 1
    k = 0
    for m in _KWARG.finditer(line, opening, end):
        while k < len(inside) and inside[k][1] < m.start():
            k += 1
        if k < len(inside) and inside[k][0] < m.start():
            continue  # a keyword of a call inside
        out += [line[pos:m.start()], b"'", m.group(1), b"': "]
        pos = m.end()
    out += [line[pos:end], b"}"]
    return b"".join(out)


def _mapping_call(line: bytes) -> bytes:
    """``line`` with the first repr call holding a mapping argument with a number entry as that mapping alone."""
    if len(line) > _MAPPING_LINE:
        return line
    found = _brackets(line)
    if found is None:
        return line
    close, parent = found
    children: dict[int, list[int]] = {}
    for o, p in parent.items():  # (in the order of the line: the dict keeps it)
        children.setdefault(p, []).append(o)
    for m in _MAPPING_HIT.finditer(line):
        eq = m.start()
        if eq == 0 or line[eq - 1] not in _IDENT_CHARS or _back(line, eq, _IDENT_CHARS) == eq:
            continue
        opening = m.end() - 1  # the ``{`` or ``dict(``'s ``(``
        call = parent.get(opening, -1)
        if opening not in close or call < 0 or line[call] != ord("(") or call not in close:
            continue
        name = _back(line, call, _CALL_CHARS)
        if name == call or line[name] not in _IDENT_CHARS or line[name] in b"0123456789":
            continue
        mapping = line[opening:close[opening] + 1] if line[opening] == ord("{") else _as_dict(line, opening, close,
                                                                                               children)
        if _NUMBER_ENTRY.search(mapping) is None:
            continue
        return line[:name] + mapping + line[close[call] + 1:]
    return line


def mapping_calls(data: bytes) -> bytes:
    """``data`` with each repr call holding a mapping argument (``Report(checkpoint=.., metrics={'loss': 0.5, 'epoch':
    1}, validation=False)``, ``metrics=dict(loss=0.5)``) as that mapping alone (``{'loss': 0.5, 'epoch': 1}``): the
    record it holds, whatever the call's other arguments print (paths, parentheses, flags). The first mapping with a
    number entry; per line (no newline touched): the same whatever the reads."""
    # (one search: both forms when the block holds a brace (memchr), else the call's form alone)
    if not (_MAPPING_HIT.search(data) is not None if b"{" in data else _found(b"=dict(", data)):
        return data
    out: list[bytes] = []
    done = 0
    for m in _MAPPING_HIT.finditer(data):
        if m.start() < done:
            continue
        start = data.rfind(b"\n", 0, m.start()) + 1
        end = data.find(b"\n", m.end())
        end = len(data) if end < 0 else end
        out += [data[done:start], _mapping_call(data[start:end])]
        done = end
    out.append(data[done:])
    return b"".join(out)


def erase_cleared(data: bytes) -> tuple[bytes, int]:
    """(``data`` as a terminal shows it where a cursor-up n then a clear to the end of the screen (``UP_CLEAR``)
    redraws a display, the largest n met): what the n lines above held from the cursor's column (the line's start
    for ``ESC[nF``) on, and the current line's text before the codes, is erased; the codes become a clear (``ESC[J``:
    a display drawn there, for ``hold_display``; the escape codes go later) and what follows is written there. Only
    the data given is reached (a cursor-up past its start stops there). Linear: a byte erased is looked at once more,
    then gone; a byte kept only while the cursor's column reaches it."""
    if UP_CLEAR.search(data) is None:
        return data, 0
    kept = bytearray()
    pos = 0
    most = 0
    for m in UP_CLEAR.finditer(data):
        kept += data[pos:m.start()]
        pos = m.end()
        start = kept.rfind(b"\n") + 1  # the current line's start; the cursor's column after its last \r
        col = len(kept) - max(start, kept.rfind(b"\r", start) + 1)
        n = int(m.group(1) or 1)
        most = max(most, n)
        at = start
        for _ in range(n):
            if at == 0:
                break
            at = kept.rfind(b"\n", 0, at - 1) + 1
        if m.group(2) == b"F" or at == start:
            del kept[at:]
        else:
            del kept[min(at + col, kept.find(b"\n", at)):]
        kept += b"\x1b[J"
    kept += data[pos:]
    return bytes(kept), most


MAX_HELD_DISPLAY = 64  # lines of a display held for the next read (a larger cursor-up: nothing held)
FIRST_DISPLAY = 8  # ... before any cursor-up is met: a display drawn after a clear, of at most this many lines
_CLEARS = (b"\x1b[J", b"\x1b[0J")


def hold_display(data: bytes, n: int) -> tuple[bytes, bytes]:
    """(``data`` without the display the next read's cursor-up may erase, that display's lines): ``data`` being
    complete lines already erased (``erase_cleared``), the lines from the last one opening with a clear (``ESC[J``)
    to the end, when more than one and at most ``n`` (the largest cursor-up met, or ``FIRST_DISPLAY``). A line alone
    after its clear is not held (a table's row written after a clear). Held lines are read with the next read, as one
    read of both would read them: the same points whatever the reads (a display still shown when the file ends stays
    unread: a bar's display, no record). Only the last ``n`` lines are looked at."""
    if n > MAX_HELD_DISPLAY or not data.endswith(b"\n"):
        return data, b""
    cut = len(data) - 1
    for k in range(n):  # the display's lines: k + 1 <= n
        cut = data.rfind(b"\n", 0, cut) + 1
        if data.startswith(_CLEARS, cut):
            return (data[:cut], data[cut:]) if k >= 1 else (data, b"")
        if not cut:
            break
        cut -= 1
    return data, b""


def split_lines(data: bytes, mask: bool = True) -> Lines:
    """The lines of ``data`` (complete lines), cleaned as the module docstring says. Each rarer step runs only when
    its byte is in the block (a search at memchr speed)."""
    if b"\x1b" in data:
        from .kernel import strip_ansi

        data = strip_ansi(erase_cleared(data)[0])
    from .kernel import keras_bars, line_breaks

    data, controls = line_breaks(data)
    if b"(" in data:
        from .dialect import DIALECT

        data = named_values(mapping_calls(unwrap_reprs(data, DIALECT.wrapper_reprs)))
    data = without_errors(fortran_exponents(data), plus_minus=False)
    if _found(b"]: ", data):
        data = step_ranges(data)
    if _found(b"...", data):
        data = ellipsis_apart(data)
    if b"{" in data:
        from .kernel import break_records

        data = break_records(data)
    if b"%" in data and _found(b"%|", data):
        data = _cut_bars(data)
    if b"[" in data:
        data = keras_bars(data)
    if not _has_long_line(data):
        from .kernel import HAVE_KERNEL, mask_words

        if not HAVE_KERNEL:
            return Lines(data.split(b"\n"), 0, controls, data)
        if mask:  # the block's words at once, before the split (not its lines again after it)
            data = mask_words(data)
        return Lines(TextLines(data), 0, controls, data, mask)
    lines = data.split(b"\n")
    cut = 0
    for i, ln in enumerate(lines):
        if len(ln) > LINE_CAP:
            lines[i] = ln[:LINE_CAP]
            cut += 1
    return Lines(lines, cut, controls, None if cut else data)


def line_breaks_reference(data: bytes) -> bytes:
    """Each line break as one newline (``kernel.line_breaks`` makes the same in one pass): a Windows line end is one
    break, not a line and an empty one; a run of backspaces (Keras' meter erasing itself) a break and an empty line,
    not one each; every other control byte (``_BREAKS``) one break."""
    if b"\r" in data and _found(b"\r\n", data):
        data = data.replace(b"\r\n", b"\n")
    if b"\x08" in data:
        data = _BACKSPACES.sub(b"\n\n", data)
    return data.translate(_TO_NEWLINE)


def _has_long_line(data: bytes) -> bool:
    """Whether a line of ``data`` is longer than ``LINE_CAP``: some aligned window of half that size holds no
    newline (a few finds, each stopping at the window's first newline)."""
    half = LINE_CAP // 2
    find = data.find
    return any(find(b"\n", i, i + half) < 0 for i in range(0, len(data) - half + 1, half))


WRAP_LOOKS = 256  # lines of the common length looked at to tell a wrapping terminal
WRAP_MIN = 80  # a terminal narrower than this does not hard-wrap records worth joining
_DIGITS_TO_0 = bytes.maketrans(b"123456789", b"000000000")


def line_lengths(lines: Sequence[bytes], text: bytes | None = None) -> np.ndarray:
    """The length of each line; from ``text`` (``b"\\n".join(lines)``) when given: its newlines, in bulk."""
    if isinstance(lines, TextLines):
        return lines.ends - lines.starts
    if text is None:
        return np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    from .kernel import line_bounds

    starts, ends = line_bounds(text)
    return ends - starts


def join_wrapped(lines: Sequence[bytes], st: dict, lengths: np.ndarray | None = None) -> Sequence[bytes]:
    """Lines a terminal hard-wrapped (a copy of a terminal's scrollback: every cut line exactly as wide as the
    terminal) joined again. The width is the longest line length, shared by three or more lines that each go on
    in a line shaped unlike their own start; it is remembered in ``st`` for the blocks after."""
    width = int(st.get("wrap", 0))
    if st.get("no_wrap"):
        return lines
    if width and _refuted(lines, st, width, lengths):
        return lines
    if not width:
        if lengths is None:
            lengths = line_lengths(lines)
        long = lengths[lengths >= WRAP_MIN]
        common = np.bincount(long) if len(long) else np.zeros(1, dtype=np.int64)
        w = int(common.argmax())
        if common[w] < 3:
            _keep_alone(lines, lengths, st)  # undecided: lines printed alone so far, for the block that decides
            st["longest"] = max(int(st.get("longest", 0)), int(long.max()) if len(long) else 0)
            return lines
        if w < max(int(long.max()), int(st.pop("longest", 0))):  # a line longer than the width (here or in an earlier
            # read): no terminal wrapped this log (remembered, so that
            st["no_wrap"] = True  # a later block whose long lines are all alike does not read as wrapped)
            return lines
        at = np.flatnonzero(lengths == w)
        at = at[np.linspace(0, len(at) - 1, min(len(at), WRAP_LOOKS)).astype(np.int64)]  # a sample, evenly spread
        # how records start: long lines after a line that is not as long (a cut line's rest goes on mid-record)
        heads = {lines[i][:2] for i in at.tolist() if i == 0 or lengths[i - 1] != w}
        record_starts = _record_starts(lines, lengths, w)
        cut = [i for i in at.tolist()
               if i + 1 < len(lines) and lines[i + 1] and _shape(lines[i + 1]) != _shape(lines[i])
               and lines[i + 1][:2] not in heads  # a line that starts as records do is a record ("| end of epoch")
               and not is_marked(lines[i + 1])  # (a table's row led by its kind's letter: PDLP's ``C`` after ``A``)
               and _shape(lines[i + 1]) not in record_starts  # (or as short records after short ones do: a time stamp)
               and not lines[i].rstrip().endswith((b"}", b"]", b")"))  # a closed record is no cut one
               and not _rule_opened(lines[i])]  # (nor a banner, ``=====...=====2026-12-06 15:25:30``)
        if len(cut) < max(3, len(at) // 2) or len({lines[i] for i in cut[:WRAP_LOOKS]}) < 3:
            _keep_alone(lines, lengths, st)  # (one long line printed again and again, a warning, is no terminal's
            st["longest"] = int(long.max())  # wrap): undecided, what this block showed kept for the next
            return lines
        rests = [i + 1 for i in cut[:WRAP_LOOKS]]
        earlier = set(st.pop("alone", ()))
        if _printed_alone(lines, lengths, w, rests) or any(
                lines[i].translate(_DIGITS_TO_0).decode("latin-1") in earlier for i in rests):
            st["no_wrap"] = True
            return lines  # the "rest" is a line of its own (Keras' "Epoch 2/12" after a record as wide as the others)
        width = st["wrap"] = w
    if lengths is None or len(lengths) != len(lines):
        lengths = line_lengths(lines)
    starts = np.flatnonzero((lengths >= width - 2) & (lengths <= width))  # only such a line can be cut
    if not len(starts):
        return lines
    out: list[bytes] = []
    pos = 0
    for k in starts.tolist():
        if k < pos:
            continue  # taken into the record before
        out.extend(lines[pos:k])
        pending = b""
        j = k
        while j < len(lines):
            ln = lines[j]
            if pending and _shape(ln) == _shape(pending):
                out.append(pending)  # the next line starts like the record did: a new record, not a wrap
                pending = b""
            joined = pending + ln
            pending = b""
            j += 1
            if width - 2 <= len(ln) <= width and not ln.rstrip().endswith((b"}", b"]")) and len(joined) < LINE_CAP:
                pending = joined
                continue
            out.append(joined)
            break
        if pending:
            out.append(pending)
        pos = j
    out.extend(lines[pos:])
    return out


MAX_ALONE = 64  # shapes of short lines printed alone kept while the wrap is undecided
ALONE_LOOKS = 1024  # lines of the file looked at for them (a log without long lines never decides: its cost bounded)


def _keep_alone(lines: Sequence[bytes], lengths: np.ndarray, st: dict) -> None:
    """The shapes (digits as 0) of short lines printed after a short line, in the blocks read before the wrap is
    decided: the block that decides knows a would-be rest printed alone earlier (Keras' first ``Epoch 1/12``)."""
    seen = int(st.get("alone_seen", 0))
    n = min(len(lines), ALONE_LOOKS - seen)  # the file's first ALONE_LOOKS lines, whatever the reads' sizes
    if n <= 0:
        return
    st["alone_seen"] = seen + n
    kept = st.setdefault("alone", [])
    for i in np.flatnonzero(lengths[:n] < WRAP_MIN).tolist():
        if len(kept) >= MAX_ALONE:
            return
        if (i == 0 or lengths[i - 1] < WRAP_MIN) and lines[i].strip():
            shape = lines[i].translate(_DIGITS_TO_0).decode("latin-1")
            if shape not in kept:
                kept.append(shape)


def _refuted(lines: Sequence[bytes], st: dict, width: int, lengths: np.ndarray | None) -> bool:
    """Whether this block shows that the width an earlier block took for a terminal's wrap is none: a would-be rest
    of a cut line is printed alone (Keras' ``Epoch 6/20`` after records that were all as wide so far). Then the
    file is read again without joining (``st["revise"]``, engine.py)."""
    if lengths is None or len(lengths) != len(lines):
        lengths = line_lengths(lines)
    at = np.flatnonzero(lengths[:-1] == width)
    if not len(at):
        return False
    at = at[np.linspace(0, len(at) - 1, min(len(at), WRAP_LOOKS)).astype(np.int64)]
    rests = [i + 1 for i in at.tolist() if lines[i + 1] and _shape(lines[i + 1]) != _shape(lines[i])]
    # (the block's first line is left out: what came before it, the last read's end, is not here)
    if not rests or not _printed_alone(lines, lengths, width, rests, first=1):
        return False
    st["revise"] = {"wrap": 0, "no_wrap": True}
    return True


def _printed_alone(lines: Sequence[bytes], lengths: np.ndarray, width: int, rests: list[int], first: int = 0) -> bool:
    """Whether a line shaped as one of the would-be rests ``rests`` (digits aside) is also printed where no line of
    the terminal's ``width`` comes before it: then it is a line of its own, not the rest of a cut one (a sample of
    such places is looked at)."""
    shapes = {lines[i].translate(_DIGITS_TO_0) for i in rests}
    after_wide = np.concatenate(([False], lengths[:-1] == width))
    alone = np.flatnonzero(np.isin(lengths, sorted({len(x) for x in shapes})) & ~after_wide)
    alone = alone[alone >= first]
    alone = alone[np.linspace(0, len(alone) - 1, min(len(alone), WRAP_LOOKS)).astype(np.int64)]
    return any(lines[j].translate(_DIGITS_TO_0) in shapes for j in alone.tolist())


def _record_starts(lines: Sequence[bytes], lengths: np.ndarray, width: int) -> set[bytes]:
    """How short lines printed after a short line start (``_shape``), in a sample: records of the log, not the
    rests of lines a terminal cut at ``width`` (a rest starting alike is a record of that kind: ignite's banner as
    wide as the others, then a time-stamped record as the short ones are)."""
    short = lengths < width - 2
    at = np.flatnonzero(short[1:] & short[:-1]) + 1
    at = at[np.linspace(0, len(at) - 1, min(len(at), WRAP_LOOKS)).astype(np.int64)] if len(at) else at
    seen = Counter(_shape(lines[i]) for i in at.tolist() if lines[i])
    return {s for s, k in seen.items() if k >= 2}


_RULE_CHARS = frozenset(b"=-*#~_")
RULE_RUN = 10  # a line opening with this many of one rule character is a banner's rule, printed whole


def _rule_opened(line: bytes) -> bool:
    """Whether ``line`` opens with a rule (``RULE_RUN`` of one of ``=-*#~_``): a banner a trainer prints whole each
    epoch (torchkeras' ``=====...=====2026-12-06 15:25:30``, its time stamp after the rule), as wide as every other
    banner, never a record a terminal cut at its width."""
    head = line.lstrip()[:RULE_RUN]
    return len(head) == RULE_RUN and head[0] in _RULE_CHARS and head.count(head[:1]) == RULE_RUN


def _shape(line: bytes) -> bytes:
    """How a line starts, digits masked: records of one log start alike (``[12/22 20:00:22] ...``)."""
    return line[:8].translate(_DIGITS_TO_0)
