"""Horizontal tables in a text log: a header row naming the columns, then one row of numbers per step (DESIGN.md,
"Records, not lines": record kind (b)).

``E    #       LOSS TOK2VEC  LOSS TEXTCAT  CATS_SCORE  SCORE`` (spaCy), ``Epoch  GPU_mem  box_loss  cls_loss``
(YOLO), a hand-written ``epoch | train_loss | val_loss`` - optionally with a rule row under the header (``---
------``, ``━━━``, ``═══``, ``+----+``) and borders (``│ ┃ |``) - then rows like ``  0     200   0.00   36.43``.
A column's name is one or several words (columns are apart by two blanks or more, a tab or a border; a rule row
under the header gives the columns exactly); a row's cells go to the columns by their character alignment (right
or left aligned numbers) when they are not as many as the columns. A cell that is no number (a time ``0:01:02``, a
word) is skipped; ``n/N`` is a counter; ``3.2G`` a number with its unit.

The engine (``engine.py``) reads a table as it reads every log: per template, its numbers column-wise. This module
only names a row template's cells: ``Tables.header_for`` finds the header governing a row (the nearest line above
that is neither a row, a rule nor blank, through progress-bar redraws; above the block, the one an earlier block
ended with, kept in the state) and gives one name per blank-separated cell of the row (``""`` for a cell to skip),
which ``fields.plan_template`` reads as a table's header. The step is the column named like a step (the dialect's
``step_names``, ``table_names`` such as spaCy's ``#``), else the integer column that increases over the row's
samples. A table whose header names a model's layers (``params``, ``module``: a model summary printed once) is no
series: ``SKIP``.

Three more shapes, each tried on every log: a cell holding an array as numpy and torch print it is its number
(DeepXDE's ``[2.57e-01]``; ``[]`` is no value), and one of several numbers (``[1.2e-01, 3.4e-02]``, one loss term
each) is aligned to its column as one cell and not read (its total is their sum, which the engine does not make from
fields: reading any one term as the column would be wrong). A header of two lines (``join_two``: Vowpal Wabbit's
``average  since  example`` over ``loss  last  counter``) names each column by the upper word over it and its own,
``average loss``, ``example counter``; a notice line between a header and its rows (``[info] ...``) is passed over.
A few lines heading nothing between two rows (``_INTERRUPTION_LINES``: a ``RuntimeWarning`` and its source line)
do not end the table: the rows after them are the same table's, in one read or split over several (the state keeps
how many such lines the block ended with, ``tbl_open``, and its last two lines, ``tbl_last``).

All work is per template (a few of its lines) or a search among the block's line codes: never per line in Python.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Sequence

import numpy as np

from .dialect import DIALECT, Dialect
from .fields import before_bar, says_what_it_names, unglued
from .marked_rows import mark_shape
from .step_column import monotone_cells
from .templates import NAN_MARK, Grouping
from .text_tail_rows import numbers_then_text

SKIP = ["\x00skip"]  # the rows of a table that is no series (a model summary)
MAX_HEADER = 1024  # bytes: a longer line is no header
MAX_COLUMNS = 64
MAX_NAME = 48  # characters of one column's name
HEADER_LOOKS = 4096  # templates looked at per block to tell rows from breaks
MAX_CACHE = 4096
MAX_SHAPES = 32  # shapes of rows drawing a bar whose header is kept between reads
MAX_SHAPE_ROWS = 64  # row templates of one shape looked at for its header
_BORDERS = "|│┃║¦"
_BORDER_BYTES = b"|"  # the ASCII border, glued to a cell that fills its width
_INTERRUPTIONS = 4  # runs of lines heading nothing passed over between a table's rows
_INTERRUPTION_LINES = 6  # ... of at most this many lines each (three warnings, each with its source line)
_IDLE_LINES = 6  # blank lines and bar redraws passed over between a table's row and an interruption
_RULE_CHARS = frozenset("-=_+:|.~*#─━│┃═║┄┅┈┉╌╍┌┍┎┏┐┑┒┓└┕┖┗┘┙┚┛├┝┞┟┠┡┢┣┤┥┦┧┨┩┪┫┬┭┮┯┰┱┲┳┴┵┶┷┸┹┺┻┼┽┾┿╀╁╂╃╄╅╆╇╈╉╊╋"
                        "╒╓╔╕╖╗╘╙╚╛╜╝╞╟╠╡╢╣╤╥╦╧╨╩╪╫╬╭╮╯╰ \t")
_RULE_DASHES = frozenset("-=_─━═┄┅┈┉╌╍~")
# bytes a row's template may hold besides its number marks: blanks, borders, a counter's "/", a time's ":", a unit
_ROW_BYTES = b" \t\x01|/:,%()[]<>+-.*x"
_ROW_LETTERS = 10  # letters a row's template may hold (units ``G``, ``ms``, a bar's ``it/s``, a class ``all``)
_LONG_WORD = re.compile(rb"[A-Za-z_]{5}")  # ... in words of four letters at most


def is_rule(line: bytes) -> bool:
    """A rule row: dashes, equal signs or box drawing, with blanks, junctions and borders between."""
    if not line.strip() or len(line) > MAX_HEADER * 4:
        return False
    text = line.decode("utf-8", "replace")
    return all(ch in _RULE_CHARS for ch in text) and sum(ch in _RULE_DASHES for ch in text) >= 3


_BAR_GLYPHS = "█▉▊▋▌▍▎▏━╸╺■□▮▯#"
_CLEARED = 16  # trailing blanks of a redraw erased by blanks (a bar's label printed over its own width)


def is_bar(line: bytes) -> bool:
    """A progress bar's redraw or what is left of one, which never ends a table above its rows (fastprogress
    prints a table's header once, then a bar per epoch, then the epoch's row): a bar (a percent with ``|`` or bar
    glyphs: ``|███---| 12.50% [4/32 00:00<00:01]``, ``45%|███``), a line of bar glyphs only (``█``), or a short
    label over blanks (``Epoch 1/6 :`` and the blanks that erased its bar)."""
    if len(line) > MAX_HEADER * 4:
        return False
    text = line.decode("utf-8", "replace")
    body = text.strip()
    if not body:
        return False
    if all(ch in _BAR_GLYPHS or ch == " " for ch in body):
        return True
    if len(text) - len(text.rstrip(" ")) >= _CLEARED and len(body.split()) <= 4 and body.endswith(":"):
        return True
    pct = text.find("%")
    if pct <= 0 or not text[pct - 1].isdigit():
        return False
    return "|" in text or any(ch in _BAR_GLYPHS[:-1] for ch in text)


_ROW_LIKE: dict[bytes, bool] = {}


def closes_a_list(line: bytes) -> bool:
    """A line closing a bracket it did not open (`` 303.85  342.04 -111.01 ...]``): the end of a list printed over
    several lines (numpy's, pycma's ``incumbent solution: [ 307.37 ...``), no table's row or record."""
    end = line[-MAX_HEADER:].rstrip()
    return end.endswith(b"]") and b"[" not in line[:MAX_HEADER * 4]


def _row_like(template: bytes, line: bytes) -> bool:
    """Whether lines of ``template`` (``line``: one of them) are a table's rows: number marks, with at most a few
    letters besides blanks, borders and the punctuation of counters and times (units ``G``, ``ms``, a bar's
    ``it/s``, a class ``all``), in words of four letters at most (the template masks the letter e: the words are
    looked at in the line), and a cell of the line a number (``step  loss  lr``, short words whose e's the
    template masks, is a header). What the template alone decides is remembered per template (a long read meets
    the same ones in every block); what the line decides is looked at in the line each time: a rule of dashes
    and a row of numbers share a template (``\x01  \x01``), and a decision remembered from one file's rule made
    another file's rows no rows, by which file the process read first."""
    shape = _ROW_LIKE.get(template)
    if shape is None:
        shape = (b"\x01" in template and len(template.translate(None, _ROW_BYTES)) <= _ROW_LETTERS
                 and not closes_a_list(template))
        if len(_ROW_LIKE) < MAX_CACHE and len(template) <= MAX_HEADER:
            _ROW_LIKE[template] = shape
    head = line[:MAX_HEADER * 4]
    return shape and _LONG_WORD.search(head) is None and any(
        _number_cell(tok) for tok in unglued(before_bar(head)).split()[:MAX_COLUMNS]
    ) or numbers_then_text(line)  # numbers, then free text (an optimiser's ``Method  Actions`` cells)


_NORM = re.compile(r"(?<!\S)\|[A-Za-z][^\s|]{0,15}\|(?!\S)")  # a norm written as one (``|g|``): a name, no borders


def _segments(text: str) -> list[tuple[str, int, int]]:
    """The columns of a header line: runs apart by two blanks or more, a tab or a border; (name, start, end)."""
    out: list[tuple[str, int, int]] = []
    start = -1
    i, n = 0, len(text)
    norms = {k for m in _NORM.finditer(text) for k in (m.start(), m.end() - 1)} if "|" in text else set()
    while i < n:
        ch = text[i]
        gap = ch in _BORDERS and i not in norms or ch == "\t" or (
            ch == " " and (start < 0 or i + 1 == n or text[i + 1] in " \t"))
        if gap:
            if start >= 0:
                seg = text[start:i].rstrip()
                out.append((seg, start, start + len(seg)))
                start = -1
        elif start < 0:
            start = i
        i += 1
    if start >= 0:
        seg = text[start:].rstrip()
        out.append((seg, start, start + len(seg)))
    return out


_DEFINED = re.compile(r"[A-Za-z]\w{0,15}=[A-Za-z][\w.*/+-]{0,40}")  # a name, ``=``, what it stands for


def defines_a_sum(name: str) -> bool:
    """A column's name that defines what it stands for, a name ``=`` an expression of other names (pyproximal's
    ``J=f+eps*g``: the cost, the data term plus the weighted regulariser), one word with an operator after its ``=``
    and no number standing alone there (``lr=0.1``, ``step=30`` are a record's fields)."""
    if not _DEFINED.fullmatch(name):
        return False
    rhs = name.partition("=")[2]
    return any(op in rhs for op in "+-*/")


def _is_column_name(name: str, dialect: Dialect) -> bool:
    """A table column's name: up to ``name_words`` words, a letter among them, none a number (``step: 30`` is a
    record's field), no ``=`` but in a definition (``J=f+eps*g``: ``defines_a_sum``)."""
    if not name or len(name) > MAX_NAME or "=" in name and not defines_a_sum(name) or len(
            name.split()) > dialect.name_words:
        return False
    if any(_number_cell(w.encode("utf-8", "replace")) for w in name.split()):
        return False
    if name in dialect.table_names:
        return True
    if not any(ch.isalpha() for ch in name):
        return False
    word = name.split()[0]
    return not (word[:1].isdigit() or word[:1] in "-+." and word[1:2].isdigit())  # a number is no name


def parse_header(line: bytes, rule: bytes | None = None,
                 dialect: Dialect = DIALECT) -> tuple[tuple[str, int, int], ...] | None:
    """The columns (name, start, end; character positions) of a header row, None when the line is none. With the
    rule row under it (``rule``), the columns are the rule's runs of dashes; else the runs apart by two blanks, a
    tab or a border; a header of single words apart by one blank each (``epoch train_loss val_loss``) is one
    column a word."""
    if len(line) > MAX_HEADER:
        return None
    text = before_bar(line).decode("utf-8", "replace").rstrip()
    listed = _listed_header(text, dialect)
    if listed is not None:
        return listed
    segs = _segments(text)
    if not segs or len(segs) > MAX_COLUMNS:
        return None
    if segs[0][0].split()[0].lower() in dialect.coefficient_headers and len(segs) >= 3:
        return tuple(segs)  # a fitted model's coefficient table (``coef  std err  z  P>|z|  [0.025  0.975]``)
    if rule is not None:
        spans = _rule_spans(rule.decode("utf-8", "replace"))
        if 2 <= len(spans) <= MAX_COLUMNS:
            by_rule = []
            for a, b in spans:
                # a name over several runs of dashes is as many names, one blank apart (``Generation Evaluation``
                # over ``---------- ----------``): each run takes the words over it
                name = " ".join(s if _runs_over(spans, sa, sb) < 2 else text[max(sa, a):min(sb, b)].strip()
                                for s, sa, sb in segs if sa < b and sb > a)
                by_rule.append((name, a, b))
            if sum(bool(n) for n, _a, _b in by_rule) >= 2 and all(
                    not n or _is_column_name(n, dialect) for n, _a, _b in by_rule):
                return tuple(by_rule)
    segs = _paren_groups(segs)
    if len(segs) == 1 or any(" " in s for s, _a, _b in segs) and len(text.split()) >= 3 and all(
            _is_column_name(w, dialect) for w in _paren_words(text)):
        words = []
        for s, a, _b in segs:
            at = a
            for w in s.split(" "):
                if w:
                    words.append((w, at, at + len(w)))
                at += len(w) + 1
        if says_what_it_names([w for w, _a, _b in words]):
            return None  # a name and what it says, words one blank apart (``training targets: e``): no header
        words = _paren_groups(words)
        if len(segs) == 1:
            segs = words
        elif not all(_is_column_name(s, dialect) for s, _a, _b in segs):
            segs = words
    if len(segs) < 2 or not all(_is_column_name(s, dialect) for s, _a, _b in segs):
        return None
    if split_prefixes(tuple(segs), dialect) is not None:
        return tuple(segs)  # the splits as the columns (``train  valid``): a table of a metric per row
    if len(segs) == 2 and not any(s in dialect.table_names or s.lower() in dialect.epoch_names
                                  or s.lower() in dialect.step_names for s, _a, _b in segs) and not (
            segs[0][0].lower() in dialect.evaluation_columns and _names_a_metric(segs[1][0])):
        # two words are a phrase, not a table's header, unless one names the step (or the first a search's
        # evaluations and the second a metric: NOMAD's ``BBE OBJ``)
        return None
    return tuple((_clean(s), a, b) for s, a, b in segs)


def _names_a_metric(name: str) -> bool:
    """Whether ``name`` names a metric the reader knows (a loss, an objective, a score...)."""
    from ..roles import infer_role

    return infer_role(name).role != "other"


_MAX_GROUP = 64  # words of one parenthesised group


def _paren_groups(segs: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """The header's columns with a parenthesised group of words, the parentheses apart from its words (NOMAD's
    ``BBE ( SOL ) OBJ``: the point tried), one column (``( SOL )``): over a row's parenthesised group of numbers,
    one cell (``_list_heads``). A group left open or longer than ``_MAX_GROUP`` words is left as it is."""
    if not any(s == "(" for s, _a, _b in segs):
        return segs
    out: list[tuple[str, int, int]] = []
    k = 0
    while k < len(segs):
        s, a, b = segs[k]
        if s == "(":
            end = next((j for j in range(k + 1, min(len(segs), k + _MAX_GROUP)) if segs[j][0] == ")"), None)
            if end is not None and end > k + 1:
                out.append(("( " + " ".join(w for w, _a, _b in segs[k + 1:end]) + " )", a, segs[end][2]))
                k = end + 1
                continue
        out.append((s, a, b))
        k += 1
    return out


def _paren_words(text: str) -> list[str]:
    """``text``'s blank-separated words, a parenthesised group one word (``_paren_groups``)."""
    if "(" not in text:
        return text.split()
    return [w for w, _a, _b in _paren_groups([(w, 0, 0) for w in text.split()])]


def _runs_over(spans: list[tuple[int, int]], a: int, b: int) -> int:
    """How many of a rule's runs of dashes (``spans``) the characters ``a``-``b`` overlap."""
    return sum(1 for sa, sb in spans if sa < b and sb > a)


_COMMENT_MARKS = "#%;/"  # marks opening a comment line in a data file (``#``, gnuplot's and pycma's ``%``, ``//``)
_LISTED = re.compile(rf'\b(?:columns|column_names|names|fields|header)\s?[=:]\s?"([^"]{{1,{MAX_HEADER}}})"')
LISTED = -1  # a listed column's position: none (its cells are the row's in order)


def _listed_header(text: str, dialect: Dialect) -> tuple[tuple[str, int, int], ...] | None:
    """The columns a comment line names as a list (a data file's commented header: pycma's ``% # columns="iteration,
    evaluation, sigma, ..."``, a ``# step, loss, lr`` over rows of numbers one blank apart), each at no position
    (``LISTED``: the row's cells take them in order); None when the line is no such comment. A run of one-word
    statistics before a name of several words opening with one shares that name's other words (``bestever, best,
    median, worst objective function value``: four statistics of the objective function value)."""
    body = text.lstrip()
    if not body or body[0] not in _COMMENT_MARKS:
        return None
    body = body.lstrip(_COMMENT_MARKS + " \t")
    m = _LISTED.search(body)
    listed = m.group(1) if m else body if "=" not in body else ""
    names = [" ".join(n.split()) for n in listed.split(",")]
    if len(names) < 3 or len(names) > MAX_COLUMNS or not all(
            n and len(n) <= MAX_NAME and any(ch.isalpha() for ch in n) for n in names):
        return None
    heads = dialect.statistic_words | dialect.population_words
    out = list(names)
    for k, n in enumerate(names):
        words = n.split()
        if len(words) > 1 and words[0].lower() in heads:
            j = k - 1
            while j >= 0 and " " not in names[j] and names[j].lower() in heads:
                out[j] = names[j] + " " + " ".join(words[1:])
                j -= 1
    return tuple((n, LISTED, LISTED) for n in out)


def _clean(name: str) -> str:
    """A column's name without what a bracket spanning several columns leaves on it (ultralytics' ``Box(P  R
    mAP50  mAP50-95):`` heads four columns: ``P`` ... ``mAP50-95``) or a closing colon."""
    name = name.rstrip(":")
    if "(" in name and ")" not in name:
        name = name[name.index("(") + 1:] or name
    elif ")" in name and "(" not in name:
        name = name.replace(")", "") or name
    return name


def _rule_spans(text: str) -> list[tuple[int, int]]:
    """The runs of dashes of a rule row (apart by blanks, junctions or borders)."""
    out = []
    start = -1
    for i, ch in enumerate(text + " "):
        if ch in _RULE_DASHES:
            if start < 0:
                start = i
        elif start >= 0:
            out.append((start, i))
            start = -1
    return out


_TOKEN = re.compile(rb"[^ \t\n\r\x0b\x0c]++")  # a blank-separated cell, as ``bytes.split`` cuts them: linear
_TOKEN_STR = re.compile(r"[^ \t\n\r\x0b\x0c]++")


def _cells(row: bytes) -> list[tuple[bytes, int, int]]:
    """The blank-separated cells of a row before its progress bar (``bytes.split``'s; a border glued between two
    cells parts them: ``fields.unglued``), with their character positions."""
    body = unglued(before_bar(row))
    if body.isascii():
        return [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(body)]
    # a character cut short at the row's end (a read ending inside a border ``│``) is no cell: it would be one of
    # its own, and the row's cells as many as the header's words (``Valid Loss``: two) would take those names
    text = codecs.getincrementaldecoder("utf-8")("replace").decode(body) if body[-1] >= 0x80 else body.decode(
        "utf-8", "replace")
    return [(m.group().encode("utf-8"), m.start(), m.end()) for m in _TOKEN_STR.finditer(text)]


def _number_cell(tok: bytes) -> bool:
    """A cell that holds one number (a unit of up to three letters after it, ``3.2G``), or a counter ``n/N``; a border
    glued to it (ElegantRL's ``|-1514.98``: a fixed-width field that fills its width) is no part of it."""
    tok = tok.rstrip(b":,;").strip(_BORDER_BYTES)
    if tok[:1] == b"[" and tok[-1:] == b"]":
        tok = tok[1:-1]  # an array of one number as numpy and torch print it (DeepXDE's ``[2.57e-01]``)
        if not tok or b"," in tok or b"[" in tok:
            return False
    if b"/" in tok:
        a, _, b = tok.partition(b"/")
        return a.isdigit() and b.isdigit()
    core = tok.rstrip(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ%")
    if not core or len(tok) - len(core) > 3:
        return False
    try:
        float(core)
    except ValueError:
        return core in (b"nan", b"NaN", b"+.+", b"inf", b"-inf", b"-nan")
    return True


def header_words(line: bytes) -> tuple[tuple[str, int, int], ...]:
    """The blank-separated words of a header row (name, start, end), borders aside: its columns when a row has as
    many cells as it has words (``mAP@.5 mAP@.5:.95`` one blank apart are two columns then)."""
    text = before_bar(line).decode("utf-8", "replace")
    out = []
    at = 0
    for w in text.split(" "):
        if w and w not in _BORDERS:
            out.append((_clean(w.strip("\t")), at, at + len(w)))
        at += len(w) + 1
    return tuple(out)


def align(columns: tuple[tuple[str, int, int], ...], samples: Sequence[bytes], dialect: Dialect = DIALECT,
          words: tuple[tuple[str, int, int], ...] = (), label: int = 0) -> RowNames | None:
    """One name per blank-separated cell of the row ``samples[0]`` (``""``: a cell to skip; a border, a word, a
    time), or None when the row does not fit the header. Cells as many as the columns (or as the header's words)
    go to them in order; else each to the column its characters overlap most (the nearest one within two
    characters). The first ``label`` cells are the row's label (``! Initial Validation``: ``split_label``), one cell
    over their span, so that a row leaving a column empty (nequip's ``#``) still lines up."""
    cells = _cells(samples[0])
    if label > 1 and len(cells) >= label:
        cells[0] = (cells[0][0], cells[0][1], cells[label - 1][2])
    keep = [k for k in _list_heads(cells) if cells[k][0].decode("utf-8", "replace") not in _BORDERS and not (
        0 < k < label)]
    numeric = [k for k in keep if _number_cell(cells[k][0])]
    if len(numeric) < 1 or len(keep) > 2 * len(columns) + 2:
        return None
    names = [""] * len(cells)
    if len(keep) != len(columns) and len(keep) == len(words) and all(
            _is_column_name(w, dialect) for w, _a, _b in words):
        columns = words
    if columns[0][1] == LISTED:  # a listed header's names: the row's cells in order (the names beyond them unused)
        if len(keep) > len(columns):
            return None
        for k, (name, _a, _b) in zip(keep, columns, strict=False):
            names[k] = name
    elif len(keep) == len(columns):
        for k, (name, _a, _b) in zip(keep, columns, strict=True):
            names[k] = name
    else:
        columns = _split_shared(columns, [cells[k] for k in keep])
        # each cell to the column it overlaps most, the best pairs first (a cell under a column takes it before a
        # cell beside it: pandas' unnamed index ``10`` two characters left of ``train_loss`` over ``0.004103``)
        pairs = []
        for k in keep:
            _tok, a, b = cells[k]
            for c, (_name, ca, cb) in enumerate(columns):
                overlap = min(b, cb) - max(a, ca)
                gap = -overlap if overlap < 0 else 0
                s = overlap if overlap > 0 else (0.5 - gap / 8 if gap <= 2 else 0.0)
                if s > 0:
                    pairs.append((-s, k, c))
        taken: set[int] = set()
        placed: set[int] = set()
        at: dict[int, int] = {}
        for _s, k, c in sorted(pairs):
            if c not in taken and k not in placed:
                taken.add(c)
                placed.add(k)
                names[k] = columns[c][0]
                at[c] = k
        for c in range(1, len(columns)):
            # an abbreviation one blank before a word, one of the two over a cell and the other over none: one name
            # (PINTS' ``Min. step`` over one number, in a header of words one blank apart)
            if (c - 1 in at) != (c in at) and columns[c - 1][0].endswith(".") \
                    and columns[c][1] == columns[c - 1][2] + 1:
                names[at.get(c - 1, at.get(c, 0))] = f"{columns[c - 1][0]} {columns[c][0]}"
    for k in range(len(cells)):
        if k not in numeric:
            names[k] = ""
    named = [k for k in numeric if names[k]]
    positions = dialect.step_names | dialect.epoch_names
    if not named or len(keep) < len(columns) and all(names[k].lower() in positions for k in named):
        return None  # a short row naming only positions (a truncated row's cells under the epoch): no record
    out = RowNames(str(dialect.table_names.get(n, n)) for n in names)
    if "f" in out and any(_GRAD_NORM.fullmatch(str(dialect.aliases.get(n, n))) for n in out if n):
        out[out.index("f")] = "f value"  # an optimiser's ``f`` beside its gradient's norm: the function's value
    out.partial_first = any(n in dialect.partial_first_steps for n in names)
    for k, n in enumerate(out):
        if n and n[-1:] == "#" and n[:-1].lower() in dialect.step_names:  # a step word glued to a number sign
            out[k] = n[:-1]  # (OR-Tools PDLP's ``iter#``: the iteration's number, the step; fixpdlp)
    low = [n.lower() for n in out]
    # a column named by a time unit (``s``, pymoo's PSO ``S``) is no step, though a record's ``s:12`` is (llm.c)
    out.named_step = any(n in dialect.step_names and n not in dialect.time_units or n in dialect.epoch_names
                         or n.split()[-1:] == ["epoch"] for n in low if n)
    if not out.named_step:
        # a column named with a step word last (``max_global_step``) over integers in every sample: the step
        ints = [k for k in named if all(len(c) == len(cells) and c[k][0].isdigit() for c in map(_cells, samples))]
        parts = {k: _STEP_WORDS.split(names[k].lower()) for k in ints}
        by_name = [k for k in ints if len(parts[k]) > 1 and parts[k][-1] in dialect.step_names
                   and parts[k][-1] not in dialect.time_units]
        if by_name:
            out[by_name[0]] = "step"
            out.named_step = True
    if not out.named_step:
        # a table's first column counting a search's evaluations (``BBE``, ``nfev``) over integers: the step
        first = [k for k in named if k == keep[0] and low[k] in dialect.evaluation_columns
                 and _whole_column(samples, k, len(cells))]
        if first:
            out[first[0]] = "step"
            out.named_step = out.evaluations = True
    if not out.named_step:
        # a column counting the run's units so far (``number_of_trees`` over 0.0, 1.0, ...): the step
        counts = [k for k in named if _STEP_WORDS.split(names[k].lower())[:2] == ["number", "of"]
                  and _STEP_WORDS.split(names[k].lower())[-1] in dialect.step_count_units
                  and _whole_column(samples, k, len(cells))]
        if counts:
            out[counts[0]] = "step"
            out.named_step = True
    if not out.named_step:
        step = _monotone_column(samples, [k for k in named if cells[k][0].isdigit()])
        if step is not None:
            out[step] = "step"
    return out


_GRAD_NORM = re.compile(r"(?i)grad(ient)?[ _]?norm")  # a column of the gradient's norm (``|g|``: ``Dialect.aliases``)
_STEP_WORDS = re.compile(r"[\s_./-]+")  # what parts a column's name into words (``max_global_step``)


def _split_shared(columns: tuple[tuple[str, int, int], ...], cells: list[tuple[bytes, int, int]]
                  ) -> tuple[tuple[str, int, int], ...]:
    """The columns with a column of several words one blank apart split into its words when as many cells overlap
    it most as it has words (pycma's ``Iterat #Fevals`` over ``    1     12``: two columns; ``function value`` over
    one number stays one)."""
    most: dict[int, int] = {}
    for _tok, a, b in cells:
        over = [min(b, cb) - max(a, ca) for _n, ca, cb in columns]
        c = max(range(len(columns)), key=over.__getitem__)
        if over[c] > 0:
            most[c] = most.get(c, 0) + 1
    out: list[tuple[str, int, int]] = []
    for c, (name, ca, cb) in enumerate(columns):
        words = name.split(" ")
        if len(words) > 1 and most.get(c) == len(words) and len(name) == cb - ca:
            at = ca
            for w in words:
                out.append((w, at, at + len(w)))
                at += len(w) + 1
        else:
            out.append((name, ca, cb))
    return tuple(out)


def _list_heads(cells: list[tuple[bytes, int, int]]) -> list[int]:
    """The cells of a row with a bracketed list of several numbers as one (numpy's and torch's ``[1.2e-01,
    3.4e-02]``, DeepXDE's loss terms): its first blank-separated piece stands for it (no number alone: the list is
    aligned to its column, then skipped - its total is a sum the reader does not make from fields)."""
    out = []
    inside = b""
    for k, (tok, _a, _b) in enumerate(cells):
        if not inside:
            out.append(k)
            if tok[:1] == b"[" and not tok.endswith(b"]"):
                inside = b"]"
            elif tok == b"(" and _closes(cells, k):
                inside = b")"  # a parenthesised group of numbers (NOMAD's point tried ``(   1  -1  0  )``): one cell
        elif tok.rstrip(b",;:").endswith(inside):
            inside = b""
    return out


def _closes(cells: list[tuple[bytes, int, int]], k: int) -> bool:
    """Whether the ``(`` cell ``k`` opens a group of numbers closed by a ``)`` cell within ``_MAX_GROUP`` cells."""
    for tok, _a, _b in cells[k + 1:k + 1 + _MAX_GROUP]:
        if tok == b")":
            return True
        if not _number_cell(tok):
            return False
    return False


class RowNames(list[str]):
    """The names of a row's cells (``align``), and what the table says of its rows besides."""

    partial_first = False  # its losses sum the steps since the row before: the row at step 0 is one update's
    named_step = False  # its step (or epoch) column is named so (not found from the samples' values)
    splits = False  # a metric's row under a header of splits (``split_named``): the table's record is its epoch's
    #: its step column counts a search's evaluations (``Dialect.evaluation_columns``): each row's values are one
    #: evaluation's, a draw from the space searched (``engine._mark_evaluations``, ``signals/search_evals.py``)
    evaluations = False


def _whole_column(samples: Sequence[bytes], k: int, n: int) -> bool:
    """Whether cell ``k`` of every sample with ``n`` cells is a whole number (``3``, ``3.0``), in one at least."""
    seen = False
    for s in samples:
        row = [tok for tok, _a, _b in _cells(s)]
        if len(row) != n:
            continue
        try:
            v = float(row[k])
        except ValueError:
            return False
        if not v.is_integer() or v < 0:
            return False
        seen = True
    return seen


def _monotone_column(samples: Sequence[bytes], ints: list[int]) -> int | None:
    """The step among the integer cells ``ints`` of the samples (in line order), by the one rule of every table
    (``step_column.monotone_cells``)."""
    rows = [[tok for tok, _a, _b in _cells(s)] for s in samples]
    n = len(rows[0])
    rows = [r for r in rows if len(r) == n]
    return monotone_cells(rows, ints)


def is_summary(columns: tuple[tuple[str, int, int], ...], dialect: Dialect = DIALECT) -> bool:
    """A header that names a model's layers (``from  n  params  module  arguments``; ``Layer (type)  Output Shape
    Param #``): a model summary, printed once, no series."""
    words = {w.strip("():#").lower() for name, _a, _b in columns for w in name.split()}
    return bool(words & dialect.summary_table_words)


def names_a_table(columns: tuple[tuple[str, int, int], ...], dialect: Dialect = DIALECT) -> bool:
    """Whether a header's columns name a training table: one of them is a step or an epoch, or a metric's name (a
    loss, a score, a rate...), or they are a population's statistics (``avg std min max``: an evolutionary
    algorithm's, ``objective.population_best``)."""
    from ..objective import population_best
    from ..roles import infer_role

    for name, _a, _b in columns:
        low = str(dialect.table_names.get(name, name)).lower()
        if low in dialect.step_names or low in dialect.epoch_names or infer_role(name).role != "other":
            return True
    return population_best([name for name, _a, _b in columns if name]) is not None


_LABEL_WORDS = 2  # words of a row's label naming its split (``Initial Validation``)


def split_label(row: bytes, dialect: Dialect = DIALECT) -> tuple[str, int] | None:
    """(prefix, cells) of the split naming a row and how many cells its label takes (``trainset  0.63  1.45``:
    ``("", 1)``; ``validset ...``: ``val_``), a row whose label is a split's name (``Dialect.split_rows``), maybe after
    a word qualifying it (``Initial Validation``) and a mark setting the row apart (``! Train``:
    ``Dialect.row_marks``), and whose other cells are numbers, else None."""
    if len(row) > MAX_HEADER:
        return None
    mark = row[:1].decode("latin-1") in dialect.row_marks and row[1:2] == b" "
    if not (row[:1].isalpha() or mark and row[1:].lstrip(b" ")[:1].isalpha()):
        return None
    cells = _cells(row)
    if len(cells) < 2 or len(cells) > MAX_COLUMNS + 1 + _LABEL_WORDS:
        return None
    at = 1 if mark else 0
    for k in range(at, min(at + _LABEL_WORDS, len(cells) - 1)):
        word = cells[k][0]
        if not word.isalpha():
            return None
        prefix = dialect.split_rows.get(word.decode("latin-1").lower())
        if prefix is not None:
            if not all(_number_cell(tok) or tok.lower() in _NAN_CELLS for tok, _a, _b in cells[k + 1:]):
                return None
            return str(prefix), k + 1
    return None


def split_row(row: bytes, dialect: Dialect = DIALECT) -> str | None:
    """The prefix of the split naming a row (``split_label``), else None."""
    got = split_label(row, dialect)
    return None if got is None else got[0]


_NAN_CELLS = frozenset({b"nan", b"-nan", b"inf", b"-inf"})


def split_prefixes(columns: tuple[tuple[str, int, int], ...], dialect: Dialect = DIALECT) -> list[str] | None:
    """The name prefixes of a header whose columns are splits and nothing else (``train  valid  test``: ``""``,
    ``val_``, ``test_``; ``Dialect.split_rows``), two or more, each its own; else None. Such a table prints a metric
    per row, a split per column (hippynn's per-epoch evaluation)."""
    if not 2 <= len(columns) <= MAX_COLUMNS:
        return None
    out = [dialect.split_rows.get(name.lower()) for name, _a, _b in columns]
    if any(p is None for p in out) or len(set(out)) != len(out):
        return None
    return [str(p) for p in out]


def named_row(row: bytes, dialect: Dialect = DIALECT) -> tuple[str, int] | None:
    """(name, how many cells open the row) of a row naming its metric then giving numbers only (``T-RMSE:  1.07
    1.11``, ``Loss-Err:  25.76  28.68``, ``Accuracy :  0.91  0.88``): a name of words (``Dialect.name_words`` at
    most, a letter first) closed by a colon, glued or a cell of its own, then two number cells or more; else None."""
    if len(row) > MAX_HEADER or not row.lstrip()[:1].isalpha():
        return None
    cells = _cells(row)
    k = 0
    while k < len(cells) and not cells[k][0].endswith(b":"):
        k += 1
    k += 1  # the cells up to the colon's name the row
    if k > dialect.name_words + 1 or len(cells) - k < 2 or len(cells) - k > MAX_COLUMNS:
        return None
    if not all(_number_cell(tok) or tok.lower() in _NAN_CELLS for tok, _a, _b in cells[k:]):
        return None
    words = [tok.decode("utf-8", "replace") for tok, _a, _b in cells[:k]]
    name = " ".join(words).rstrip(":").strip()
    if not name or not _is_column_name(name, dialect) or any(_number_cell(w.encode()) for w in name.split()):
        return None
    return name, k


def split_named(columns: tuple[tuple[str, int, int], ...], prefixes: list[str], row: bytes,
                dialect: Dialect = DIALECT) -> RowNames | None:
    """One name per blank-separated cell of a row under a header of splits (``split_prefixes``): the row's own name
    (``named_row``) prefixed by the split over each number (``Loss`` under ``train``, ``val_Loss`` under ``valid``);
    as many numbers as splits go to them in order, fewer each to the split it overlaps most (none two to one); the
    cells naming the row ``""``. None when the row is no named row or does not fit the header."""
    got = named_row(row, dialect)
    if got is None:
        return None
    name, k = got
    cells = _cells(row)
    nums = cells[k:]
    if len(nums) > len(columns):
        return None
    out = RowNames([""] * len(cells))
    if len(nums) == len(columns):
        for j, c in enumerate(range(len(columns))):
            out[k + j] = prefixes[c] + name
    else:
        taken: set[int] = set()
        for j, (_tok, a, b) in enumerate(nums):
            over = [min(b, cb) - max(a, ca) for _n, ca, cb in columns]
            c = max(range(len(columns)), key=over.__getitem__)
            if over[c] <= 0 or c in taken:
                return None
            taken.add(c)
            out[k + j] = prefixes[c] + name
    out.splits = True
    return out


class Tables:
    """The headers of one block's tables, found on demand (see the module docstring). ``first``: lines before it
    were carried over from earlier blocks (their place is not here)."""

    def __init__(self, lines: Sequence[bytes], grouping: Grouping, first: int, st: dict):
        self.lines = lines
        self.grouping = grouping
        self.first = first
        self.st = st
        self._breaks: np.ndarray | None = None
        self._kind: dict[int, bool] = {}
        self._first: np.ndarray | None = None  # the first line of each template
        self._shapes: dict[bytes, list[int]] | None = None  # row templates drawing a bar, by their shape
        self._open_before = int(st.get("tbl_open", -1))  # lines heading nothing since the earlier block's last row
        # the earlier block's last two lines
        self._last_before = [str(x).encode("latin-1") for x in st.get("tbl_last", ["", ""])]

    def _is_break(self, code: int) -> bool:
        """Whether lines of template ``code`` end a table region above a row: neither a row, a rule, a blank line
        nor a progress bar's redraw (a bar holding a header, YOLO's ``Class Images ... 100%||``, is a header)."""
        hit = self._kind.get(code)
        if hit is None:
            t = self.grouping.templates[code]
            line = self._first_line(code)
            if not t.strip() or _row_like(t, line) or is_rule(t) or is_rule(line) or (  # (dashes are number marks)
                    split_row(line) is not None) or named_row(line) is not None:
                hit = False
            elif b"%||" in t or is_bar(line):  # a bar ends a table only when it holds a header (YOLO's Class ...)
                hit = self._bar_header(code)
            else:
                hit = True
            self._kind[code] = hit
        return hit

    def _first_line(self, code: int) -> bytes:
        if self._first is None:
            codes = self.grouping.codes
            self._first = np.zeros(len(self.grouping.templates), dtype=np.int64)
            at = np.arange(len(codes))
            self._first[codes[::-1]] = at[::-1]
        return self.lines[int(self._first[code])]

    def _bar_header(self, code: int) -> bool:
        return _parse_cached(self._first_line(code), None) is not None

    def breaks(self) -> np.ndarray:
        if self._breaks is None:
            codes = self.grouping.codes
            n_t = len(self.grouping.templates)
            is_break = np.ones(n_t, dtype=bool)
            for c in range(min(n_t, HEADER_LOOKS)):
                is_break[c] = self._is_break(c)
            self._breaks = np.flatnonzero(is_break[codes])
        return self._breaks

    def header_for(self, i: int, samples: Sequence[bytes]) -> list[str] | None:
        """The names of the cells of row template whose first line is ``i`` (samples: a few of its lines, the first
        one first), ``SKIP`` for a model summary's rows, None when no header governs it."""
        rep = samples[0]
        labelled = split_label(rep)
        split = None if labelled is None else labelled[0]
        is_named = named_row(rep) is not None
        if len(rep) > MAX_HEADER * 4 or split is None and not is_named and not _row_like(
                self.grouping.templates[self.grouping.codes[i]], rep) and not self._headed_text_row(i, rep):
            return None
        code = int(self.grouping.codes[i])
        found = self._locate(i)
        shape = self._shape(code)
        if shape is not None and (found is None or found[3][1] == "other"):
            found = self._shape_head(shape, code, i) or found  # a row of the shape of rows a header heads
        elif shape is not None and found is not None and found[3][1] == "table":
            self._keep_shape(shape, found)
        if found is None:
            return None
        header, rule, top, parsed = found
        columns, kind = parsed
        if kind == "summary":
            return SKIP
        if kind == "splits":  # a metric per row, a split per column
            prefixes = split_prefixes(columns)
            return None if prefixes is None else split_named(columns, prefixes, rep)
        if is_named and split is None and not _row_like(self.grouping.templates[self.grouping.codes[i]], rep) and (
                not self._headed_text_row(i, rep)):
            return None  # a named row under another table's header: its own record
        if kind != "table":
            return None  # prose ("Using cpu device"), not the names of a table's columns
        key = (header, rule if top is None else b"\x00" + top, self.grouping.templates[self.grouping.codes[i]])
        names = _ALIGNED.get(key)
        if names is None:
            names = align(columns, samples, words=header_words(header) if top is None else columns,
                          label=0 if labelled is None else labelled[1])
            if names is not None and names.named_step and len(samples) > 1 and len(_ALIGNED) < MAX_CACHE:
                _ALIGNED[key] = names  # its step by name: the same for every block's samples (one sample, maybe
                # the read's last line cut short, is too few: what it names must not outlive its read)
        if split and names is not None:  # a validation split's row: its cells are that split's (``val_TotalLoss``)
            positions = DIALECT.step_names | DIALECT.epoch_names | {"step"}
            named = RowNames(n and (n if n.lower() in positions else split + n) for n in names)  # its step: the row's
            named.partial_first, named.named_step = names.partial_first, names.named_step
            named.evaluations = names.evaluations
            return named
        return names

    def _locate(self, i: int) -> _Found | None:
        """(header, rule, line over it, parsed) of the header governing line ``i``, found over the lines above it (or
        kept from an earlier block), else None."""
        breaks = self.breaks()
        k = int(np.searchsorted(breaks, i)) - 1
        j = int(breaks[k]) if k >= 0 else -1
        if j >= self.first:
            j = self._over_interruption(j, i)
        if j >= self.first:
            header, rule, top = self._head_at(j, i)
        else:
            last = self.st.get("tbl_head")
            if not last:
                return None
            header = last[0].encode("latin-1")
            rule = last[1].encode("latin-1") if last[1] is not None else None
            top = last[2].encode("latin-1") if len(last) > 2 and last[2] is not None else None
        parsed = _parse_cached(header, rule) if top is None else _parse_two(top, header)
        return None if parsed is None else (header, rule, top, parsed)

    def _shape(self, code: int) -> bytes | None:
        """A row drawing a progress bar (``  3/11  0G  0.09311 ...  64: 100%|| 4/4 [..]``): its cells before the bar,
        blanks aside, a NaN as a number (the row's shape, whatever its bar's state and its values' widths); or a row
        led by a one-letter mark (``marked_rows.mark_shape``: PDLP's ``A``/``C`` rows, notices between them); None
        for any other row."""
        t = self.grouping.templates[code]
        if b"%||" not in t:  # (or a row led by a kind's letter: its table's rows, notices between them)
            return mark_shape(t)
        if len(t) > MAX_HEADER * 4:
            return None
        cut = before_bar(t).replace(NAN_MARK, b"\x01").translate(None, b" \t")
        return cut if b"\x01" in cut else None

    def _shape_head(self, shape: bytes, code: int, i: int) -> _Found | None:
        """The header of a table's rows of ``shape`` drawn with their bar, redrawn between its states with lines
        heading nothing between them (a warning each batch: more than ``_INTERRUPTIONS`` runs), for such a row at
        line ``i`` whose own lines above find none: the one over the nearest row of that shape above it in the block
        (another bar state, another width of its values), else the one kept from an earlier read, else the one over
        the first such row below it."""
        if self._shapes is None:
            self._shapes = {}
            for c in range(min(len(self.grouping.templates), HEADER_LOOKS)):
                sh = self._shape(c)
                if sh is not None and len(self._shapes.get(sh, ())) < MAX_SHAPE_ROWS:
                    self._shapes.setdefault(sh, []).append(c)
        firsts = sorted(self._first_at(c) for c in self._shapes.get(shape, ()) if c != code)
        above = [f for f in firsts if f < i][::-1]
        below = [f for f in firsts if f > i]
        for f in above:
            got = self._locate(f)
            if got is not None and got[3][1] == "table":
                return got
        kept = (self.st.get("tbl_shapes") or {}).get(shape.decode("latin-1"))
        if kept:
            header = kept[0].encode("latin-1")
            rule = kept[1].encode("latin-1") if kept[1] is not None else None
            top = kept[2].encode("latin-1") if kept[2] is not None else None
            parsed = _parse_cached(header, rule) if top is None else _parse_two(top, header)
            if parsed is not None and parsed[1] == "table":
                return header, rule, top, parsed
        for f in below:
            got = self._locate(f)
            if got is not None and got[3][1] == "table":
                return got
        return None

    def _first_at(self, code: int) -> int:
        self._first_line(code)
        assert self._first is not None
        return int(self._first[code])

    def _keep_shape(self, shape: bytes, found: _Found) -> None:
        """The header over rows of ``shape``, kept for the next reads (at most ``MAX_SHAPES`` shapes)."""
        header, rule, top = found[0], found[1], found[2]
        if max(len(header), len(rule or b""), len(top or b"")) > MAX_HEADER or len(shape) > MAX_HEADER:
            return
        kept = self.st.setdefault("tbl_shapes", {})
        key = shape.decode("latin-1")
        value = [header.decode("latin-1"), None if rule is None else rule.decode("latin-1"),
                 None if top is None else top.decode("latin-1")]
        if kept.get(key) != value and (key in kept or len(kept) < MAX_SHAPES):
            kept[key] = value

    def _headed_text_row(self, i: int, rep: bytes) -> bool:
        """Whether line ``i`` (``rep``), numbers and one cell of text (a name: pandas' ``MCValue      0    49.992``),
        is a table's row by the header right over it (a table printed header and row per message, the header after
        a log's prefix: ``[INFO] 09:34:    agent_name  worker  loss``)."""
        cells = _cells(rep[:MAX_HEADER])
        text = [tok for tok, _a, _b in cells if not _number_cell(tok)]
        if len(text) != 1 or len(cells) < 3 or not text[0][:1].isalpha():
            return False
        parsed = _parse_cached(self._above(i, 1), None)
        if parsed is None or parsed[1] != "table" or len(cells) > len(parsed[0]):
            return False
        return text[0].decode("utf-8", "replace") not in {name for name, _a, _b in parsed[0]}

    def _over_interruption(self, j: int, i: int) -> int:
        """The break line heading the rows above ``j`` when the lines from ``j`` up are a few that head nothing
        between two rows (a warning printed amid a table's rows: ``...: RuntimeWarning: overflow`` and its source
        line), else ``j``; below ``first`` when the header is an earlier block's."""
        breaks = self.breaks()
        for _hop in range(_INTERRUPTIONS):
            line, rule, top = self._head_at(j, i)
            parsed = _parse_cached(line, rule) if top is None else _parse_two(top, line)
            if parsed is not None and (parsed[1] != "other" or top is not None or rule is not None):
                return j  # (a line of prose heads no rows: passed over as a warning is, when rows are around it)
            k = int(np.searchsorted(breaks, j))
            m = self._run_start(k)
            r = self._over_idle(int(breaks[m]) - 1)  # the line over the run of breaks: a row of the table?
            if r == self.first and is_rule(self.lines[r]):
                r -= 1  # the rule under the earlier block's header
            if r < self.first:  # the block opens with the run: a row of the table ended the earlier block?
                return -1 if 0 <= self._open_before <= _INTERRUPTION_LINES - (k - m + 1) else j
            if r >= 1 and is_rule(self.lines[r]) and m > 0 and int(breaks[m - 1]) == r - 1:
                r -= 1  # the run between a header (and its rule) and its first rows: the header heads them
                head, rule, top = self._head_at(r, i)
                return r if (_parse_cached(head, rule) if top is None else _parse_two(top, head)) is not None else j
            if m > 0 and int(breaks[m - 1]) == r and self._heads(r, i):
                return r  # the run between a header (past bar redraws) and its first rows: the header heads them
            if (m > 0 and int(breaks[m - 1]) == r) or not self.lines[r].strip() or not _row_like(
                    self.grouping.templates[self.grouping.codes[r]], self.lines[r]):
                return j
            j = int(breaks[m - 1]) if m > 0 else -1
            if j < self.first:
                return j
        return j

    def _heads(self, r: int, i: int) -> bool:
        """Whether break line ``r`` is itself a table's header (of one line, or of two with the line over it) that
        rows below it, up to line ``i``, may be under (not a line under a header: a row of another table's)."""
        head, rule, top = self._head_at(r, i)
        parsed = _parse_cached(head, rule) if top is None else _parse_two(top, head)
        return head == self.lines[r] and parsed is not None and parsed[1] == "table"

    def _over_idle(self, r: int) -> int:
        """The line at or over ``r`` that is neither blank nor a progress bar's redraw (thinc's bar drawn and erased
        with ``\\r`` between a table's rows), up to ``_IDLE_LINES`` lines up; below ``first``: the earlier block's."""
        for _hop in range(_IDLE_LINES):
            if r < self.first:
                return r
            line = self.lines[r]
            if line.strip() and (b"%||" not in line and not is_bar(line) or _row_like(
                    self.grouping.templates[self.grouping.codes[r]], line)):
                return r  # (a table's row drawing a bar is no idle line: YOLOv5's ``0/9  0G  0.1 ..: 0%|| 0/3``)
            r -= 1
        return r

    def _run_start(self, k: int) -> int:
        """The first of the run of adjacent break lines ending at ``breaks[k]`` (up to ``_INTERRUPTION_LINES``)."""
        breaks = self.breaks()
        m = k
        while m > 0 and int(breaks[m - 1]) == int(breaks[m]) - 1 >= self.first and k - m < _INTERRUPTION_LINES - 1:
            m -= 1
        return m

    def _open_after(self) -> int:
        """How many lines heading nothing the block ends with after a table's row (0: it ends with a row), or -1 (no
        table's rows may follow): the next block's rows after a few such lines are the same table's."""
        codes = self.grouping.codes
        last = len(codes) - 1
        if last > self.first and self.lines[last] == b"":
            last -= 1  # what follows the block's last newline
        idle = self._over_idle(last)  # (a bar drawn and erased after the block's last row)
        if idle < self.first <= last:
            return self._open_before  # a block of a bar's redraws only: what the earlier one ended with holds
        last = idle
        if last < self.first or not self.lines[last].strip():
            return -1
        code = int(codes[last])
        if is_rule(self.lines[last]) and last > self.first and self._is_break(int(codes[last - 1])):
            return 0 if _parse_cached(self.lines[last - 1], self.lines[last]) is not None else -1  # a header, a rule
        if not self._is_break(code):
            return 0 if _row_like(self.grouping.templates[code], self.lines[last]) else -1
        if _parse_cached(self.lines[last], None) is not None:
            return 0  # a header: its rows may follow a few lines heading nothing
        breaks = self.breaks()
        k = len(breaks) - 1
        m = self._run_start(k)
        run = k - m + 1
        r = self._over_idle(int(breaks[m]) - 1)
        if r == self.first and is_rule(self.lines[r]):
            r -= 1  # the rule under the earlier block's header
        if r < self.first:
            before = self._open_before
        elif r >= 1 and is_rule(self.lines[r]) and m > 0 and int(breaks[m - 1]) == r - 1:
            before = 0  # the run under a header and its rule, before its first rows
        elif m > 0 and int(breaks[m - 1]) == r and self._heads(r, len(codes)):
            before = 0  # the run under a header (past bar redraws), before its first rows
        elif (m > 0 and int(breaks[m - 1]) == r) or not self.lines[r].strip() or not _row_like(
                self.grouping.templates[int(codes[r])], self.lines[r]):
            return -1
        else:
            before = 0
        return before + run if before >= 0 and before + run <= _INTERRUPTION_LINES else -1

    def _head_at(self, j: int, i: int) -> tuple[bytes, bytes | None, bytes | None]:
        """The header governing rows below the break line ``j`` (before line ``i``): (header, rule under it, the
        line over it when the header is two lines, a name's words one over the other per column: Vowpal Wabbit's
        ``average  since ...`` over ``loss  last ...``). A line between the header and the rows that is no header
        (a notice ``[info] ...``) is passed over: the line over it heads the rows when it is a header."""
        line = self.lines[j]
        above = self._above(j, 1)
        if above.strip() and _parse_cached(line, None) is None and not is_rule(line) \
                and _parse_cached(above, None) is not None:
            j, line = j - 1, above
            above = self._above(j + 1, 2)
        rule = self._rule_below(j, i) if j >= 0 else None
        if rule is None and above.strip() and _parse_two(above, line) is not None:
            return line, None, above
        if rule is None and is_rule(above) and above.strip():
            group = self._above(j, 2)
            if group.strip() and _GROUP_JOINT not in group and _parse_two(group + _GROUP_JOINT + above, line):
                return line, None, group + _GROUP_JOINT + above
        return line, rule, None

    def _above(self, j: int, up: int) -> bytes:
        """The line ``up`` (1 or 2) lines over line ``j`` (over the block's first ones: the earlier block's last
        lines, kept in the state)."""
        at = j - up
        if at < self.first <= j:
            return self._last_before[at - self.first] if at - self.first >= -len(self._last_before) else b""
        return self.lines[at] if at >= 0 else b""

    def _rule_below(self, j: int, i: int) -> bytes | None:
        for r in range(j + 1, min(i, j + 3)):
            line = self.lines[r]
            if line.strip():
                return line if is_rule(line) else None
        return None

    def keep_last(self) -> None:
        """The block's last break line (and the rule under it), for the rows of the next block: at most a few lines
        from its end are looked at (the rows after it)."""
        codes = self.grouping.codes
        n = len(codes)
        if n > self.first:
            self.st["tbl_open"] = self._open_after()
            end = n - 1 if self.lines[n - 1] == b"" else n  # (what follows the block's last newline aside)
            kept = [self._above(end, 2), self._above(end, 1)]
            self.st["tbl_last"] = [x.decode("latin-1") if len(x) <= MAX_HEADER else "" for x in kept]
        j = n - 1
        stop = max(self.first, n - 64)
        while j >= stop and not self._is_break(int(codes[j])):
            j -= 1
        if j < stop:  # none among the last lines: the last of the block's breaks
            breaks = self.breaks()
            j = int(breaks[-1]) if len(breaks) else -1
        if j >= self.first:
            j = self._over_interruption(j, n)
        if j < self.first:
            return  # no break in the block: the earlier one holds
        line, rule, top = self._head_at(j, n)
        if len(line) > MAX_HEADER or (top is None and _parse_cached(line, None) is None):
            self.st.pop("tbl_head", None)
            return
        self.st["tbl_head"] = [line.decode("latin-1"), None if rule is None else rule.decode("latin-1")[:MAX_HEADER],
                               None if top is None else top.decode("latin-1")]


_Columns = tuple[tuple[str, int, int], ...]
_Found = tuple[bytes, bytes | None, bytes | None, tuple[_Columns, str]]  # a header, its rule, the line over it, parsed
_PARSED: dict[tuple[bytes, bytes | None], tuple[_Columns, str] | None] = {}
_ALIGNED: dict[tuple[bytes, bytes | None, bytes], RowNames] = {}


def join_two(top: bytes, bottom: bytes, dialect: Dialect = DIALECT) -> _Columns | None:
    """The columns of a header of two lines, a column's name in words one over the other (``average  since`` over
    ``loss     last``: ``average loss``, ``since last``): the bottom line's words, each with the top line's word over
    it (overlapping its characters) in front; None unless the bottom line is a header, the top line's words are apart
    by two blanks or more, every one of them is over exactly one of the bottom line's, and both lines are names
    only."""
    if len(top) > MAX_HEADER or len(bottom) > MAX_HEADER or parse_header(bottom, None, dialect) is None:
        return None
    upper, lower = header_words(top), header_words(bottom)
    if [w for w, _a, _b in upper] == [w for w, _a, _b in lower]:
        return None  # the header redrawn (a bar holding it, drawn at 0 % then 100 %): one header, no line of two
    if len(_segments(before_bar(top).decode("utf-8", "replace"))) != len(upper):
        return None  # the upper words are apart by two blanks or more, as columns are (no phrase)
    if not 2 <= len(upper) <= len(lower) <= MAX_COLUMNS or not all(
            _is_column_name(w, dialect) for w, _a, _b in upper + lower):
        return None
    over: dict[int, str] = {}
    c = 0
    for name, a, b in upper:
        while c < len(lower) and lower[c][2] <= a:
            c += 1  # the bottom words ending before this top word
        if c == len(lower) or lower[c][1] >= b or c in over:
            return None  # no bottom word under it, or two top words over one
        if c + 1 < len(lower) and lower[c + 1][1] < b:
            return None  # a top word over two bottom words
        over[c] = name
    return tuple((f"{over[k]} {name}" if k in over else name, a, b) for k, (name, a, b) in enumerate(lower))


_GROUP_JOINT = b"\n"  # joins a group line and the rule under it into one "top" (no line holds a newline)
_TAB = 8


def join_grouped(group: bytes, rule: bytes, bottom: bytes, dialect: Dialect = DIALECT) -> _Columns | None:
    """The columns of a header under a line of group names, the two apart by a rule row whose runs of dashes span
    each group's columns (DEAP's ``MultiStatistics``: ``fitness`` and ``size`` over their dashes, then ``gen  nevals
    avg  max  min ...`` repeating the per-chapter names): the header's words, each one under a run of dashes named
    ``<group> <word>``; a word under a group that is already a column outside every group (the ``gen`` each chapter
    repeats) is the same column again, skipped (``""``). Positions with tabs expanded (a tab-separated table pads
    its group names to its columns' expanded width). None unless every run of dashes has a group name over it, of
    words that name columns, and at least one header word under it."""
    if max(len(group), len(rule), len(bottom)) > MAX_HEADER or parse_header(bottom, None, dialect) is None:
        return None
    g, r, b = (before_bar(x).decode("utf-8", "replace").expandtabs(_TAB) for x in (group, rule, bottom))
    spans = _rule_spans(r)
    words = [(m.group(), m.start(), m.end()) for m in re.finditer(r"\S+", b)]
    if not 1 <= len(spans) <= MAX_COLUMNS or not 2 <= len(words) <= MAX_COLUMNS:
        return None
    names: list[str] = []
    for a, z in spans:
        name = " ".join(w for w in g[a:z].replace("|", " ").split())
        if not name and "|" in g:  # a run of dashes under no group (gplearn's ``Gen``, ``Time Left``): no group
            names.append("")
            continue
        if not name or not _is_column_name(name, dialect) or not any(a <= wa and wz <= z for _w, wa, wz in words):
            return None
        names.append(name)
    if not all(names):
        return _grouped_columns(b, spans, names, dialect)
    outside = {w for w, wa, wz in words if not any(a <= wa and wz <= z for a, z in spans)}
    out = []
    for w, wa, wz in words:
        k = next((i for i, (a, z) in enumerate(spans) if a <= wa and wz <= z), -1)
        out.append((w if k < 0 else "" if w in outside else f"{names[k]} {w}", wa, wz))
    return tuple(out) if outside or len(spans) > 1 else None


def _grouped_columns(bottom: str, spans: list[tuple[int, int]], names: list[str], dialect: Dialect) -> _Columns | None:
    """The header's own columns (``parse_header``: names of several words, ``OOB Fitness``), each under a group's run
    of dashes named ``<group>/<name>`` (gplearn's ``Population Average`` and ``Best Individual`` over ``Length
    Fitness`` each: ``Best Individual/Fitness``, a section as in ``rollout/ep_rew_mean``), the others (under a run of
    dashes with no group over it: ``Gen``) as they are. None unless a group has a column under it."""
    if not any(names):
        return None
    columns = parse_header(bottom.encode("utf-8", "replace"), None, dialect)
    if columns is None or any(a < 0 for _n, a, _b in columns):
        return None
    out = []
    grouped = False
    for name, ca, cb in columns:
        k = next((i for i, (a, z) in enumerate(spans) if a <= ca and cb <= z), -1)
        grouped = grouped or k >= 0 and bool(names[k])
        out.append((f"{names[k]}/{name}" if k >= 0 and names[k] else name, ca, cb))
    return tuple(out) if grouped else None


_TWO: dict[tuple[bytes, bytes], tuple[_Columns, str] | None] = {}


def _headed(columns: _Columns | None) -> tuple[_Columns, str] | None:
    """A header's columns and what they head (``summary``: a model's layers; ``table``: a training table; else
    ``other``), or None for no header."""
    if columns is None:
        return None
    return columns, "summary" if is_summary(columns) else "splits" if split_prefixes(columns) is not None else (
        "table" if names_a_table(columns) else "other")


def _parse_two(top: bytes, bottom: bytes) -> tuple[_Columns, str] | None:
    """``_parse_cached`` for a header of two lines (``join_two``); remembered per pair of lines."""
    if len(top) > MAX_HEADER or len(bottom) > MAX_HEADER:
        return None
    key = (top, bottom)
    if key in _TWO:
        return _TWO[key]
    group, joint, rule = top.partition(_GROUP_JOINT)
    got = _headed(join_grouped(group, rule, bottom) if joint else join_two(top, bottom))
    if len(_TWO) < MAX_CACHE:
        _TWO[key] = got
    return got


def _parse_cached(line: bytes, rule: bytes | None) -> tuple[_Columns, str] | None:
    """A header's columns and what they head (``summary``: a model's layers; ``table``: a training table; else
    ``other``), or None for a line that is no header; remembered per line (headers are printed again)."""
    key = (line, rule)
    if key in _PARSED:
        return _PARSED[key]
    got = _headed(parse_header(line, rule))
    if len(_PARSED) < MAX_CACHE and len(line) <= MAX_HEADER:
        _PARSED[key] = got
    return got
