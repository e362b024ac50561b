"""Templates of log lines (log-template mining, as Drain does, but in bulk): the second step of the engine.

A line's template is the line with each run of number characters (``NUMBER_CHARS``: digits, ``.``, signs, the
exponent's ``e``) one mark, after ``nan`` / ``inf`` are spelled as numbers. Lines of one template share every other
character in the same order and have their numbers between the same separators, so the same translate that turns
separators into commas (``VALUE_TABLE``: letters and ``_`` vanish, every other byte a comma, number characters stay)
gives each of them the same fields in the same places: the numbers of a template are then read column-wise by
pandas' C reader. A template that recurs is a series; one seen once (a config dump, a banner, the final summary) is
not.

Masking is data (``MASKS``), as in Drain3's masking instructions: each is a byte string and what it becomes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

NUMBER_CHARS = b"0123456789.+-eE"
_NON_ASCII = bytes(range(128, 256))
WORD_CHARS = bytes(c for c in range(256) if (chr(c).isalpha() and c < 128 and c not in b"eE") or c == ord("_"))
# Whole words only (never a word's middle: "info", "nanoGPT"; Lightning's "nan.0" is one): nan becomes the sentinel
# NAN_MARK, which the reader takes as NaN; inf is spelled as a number that overflows to inf. Fixed-length words
# between lookarounds, possessive: linear. Each pattern left to right, the inf one first (a word after a rewritten
# one sees the byte it saw before: the same as all words at once, which is what the C kernel does, kernel.mask_words).
NAN_MARK = b"+.+"
_INF = re.compile(rb"(?:[Ii]nf(?<![A-Za-z_][Ii]nf)(?:inity)?+|INF(?<![A-Za-z_]INF))(?:\.0++)?+(?![A-Za-z_0-9])")
_NAN = re.compile(rb"(?:nan|NaN|NAN)(?<![A-Za-z_][nN][aA][nN])(?:\.0++)?+(?![A-Za-z_0-9])")
MASKS: tuple[tuple[tuple[bytes, ...], re.Pattern[bytes], bytes], ...] = (
    ((b"inf", b"Inf", b"INF"), _INF, b"9e999"),
    ((b"nan", b"NaN", b"NAN"), _NAN, NAN_MARK),
)
MASK_HINTS = tuple(h for hints, _, _ in MASKS for h in hints)  # a line holding none of these has no word to mask


def _value_table() -> bytes:
    out = bytearray(range(256))
    for c in range(256):
        if c == 10 or c in NUMBER_CHARS:
            continue
        out[c] = ord(",")
    return bytes(out)


VALUE_TABLE = _value_table()
VALUE_DELETE = WORD_CHARS + _NON_ASCII


def mask_numbers(data: bytes) -> bytes:
    """``data`` with ``MASKS`` applied (each only when one of its words is there)."""
    for hints, pattern, repl in MASKS:
        if any(h in data for h in hints):
            data = pattern.sub(repl, data)
    return data


_MARK = b"\x01"  # a number's place in a template (control bytes never reach a line)
_MARK_TABLE = bytes.maketrans(NUMBER_CHARS, _MARK * len(NUMBER_CHARS))
_DUP = b"\x02"  # a mark right after a mark, dropped (control bytes never reach a line)


def templates_of(joined: bytes) -> bytes:
    """The templates of ``\\n``-joined lines: each run of number characters one mark (so that two lines of one
    template have their numbers between the same separators: ``a  1 b`` and ``a 1  b`` differ), non-ASCII gone."""
    marked = joined.translate(_MARK_TABLE, _NON_ASCII)
    if len(marked) < 2:
        return marked
    # a mark after a mark becomes 2 (arithmetic, no branch per byte), and the 2s go in one translate
    arr = np.frombuffer(marked, dtype=np.uint8)
    is_mark = arr == 1
    out = arr.copy()
    out[1:] += is_mark[1:] & is_mark[:-1]
    return out.tobytes().translate(None, _DUP)


def value_text(lines: Sequence[bytes]) -> bytes:
    """The lines as comma-separated fields: numbers where the template has them, nothing else."""
    return b"\n".join(lines).translate(VALUE_TABLE, VALUE_DELETE) + b"\n"


@dataclass
class Grouping:
    codes: np.ndarray  # template index per line
    templates: list[bytes]
    counts: np.ndarray
    joined: bytes | None = None  # ``b"\\n".join(lines)`` as the lines now are, when at hand


def group_lines(lines: Sequence[bytes], joined: bytes | None = None, premasked: bool = False) -> Grouping:
    """Lines grouped by template (in order of first appearance); ``joined`` is ``b"\\n".join(lines)`` when the caller
    has it. The nan/inf words of the lines are masked (``MASKS``), in place, unless ``premasked`` (the C kernel did
    it on the block's text before it was split: ``lines.split_lines``): only the lines whose template holds one of
    ``MASK_HINTS`` can hold such a word (a line's letters are its template's), so only theirs are looked at, and
    templated again."""
    from .kernel import factorize_templates

    if joined is None:
        joined = b"\n".join(lines)
    codes, uniques = factorize_templates(joined)
    hinted = [] if premasked else [k for k, t in enumerate(uniques) if _has_hint_cached(t)]
    if not hinted:
        counts = np.bincount(codes, minlength=len(uniques)) if len(codes) else np.zeros(0, dtype=np.int64)
        return Grouping(codes, uniques, counts, joined)
    if not isinstance(lines, list):
        raise TypeError("group_lines: lines not masked yet must be a list (their words are masked in place)")
    at = np.flatnonzero(np.isin(codes, hinted))
    redone = mask_numbers(b"\n".join([lines[i] for i in at.tolist()]))  # masks never touch a newline
    for i, line in zip(at.tolist(), redone.split(b"\n"), strict=True):
        lines[i] = line
    index = {t: k for k, t in enumerate(uniques)}
    sub_codes, sub_uniques = factorize_templates(redone)
    codes = codes.copy()
    codes[at] = np.array([index.setdefault(t, len(index)) for t in sub_uniques], dtype=np.int64)[sub_codes]
    codes, order = _first_appearance(codes, len(index))
    every = list(index)
    uniques = [every[k] for k in order]
    counts = np.bincount(codes, minlength=len(uniques)) if len(codes) else np.zeros(0, dtype=np.int64)
    return Grouping(codes, uniques, counts)  # (lines rewritten: no text of them at hand)


_HINT: dict[bytes, bool] = {}
MAX_HINT_CACHE = 8192


def _has_hint_cached(template: bytes) -> bool:
    hit = _HINT.get(template)
    if hit is None:
        hit = any(h in template for h in MASK_HINTS)
        if len(_HINT) < MAX_HINT_CACHE and len(template) <= 4096:
            _HINT[template] = hit
    return hit


def _first_appearance(codes: np.ndarray, n_codes: int) -> tuple[np.ndarray, list[int]]:
    """``codes`` renumbered in order of first appearance, and the old code of each new one (unused codes gone)."""
    first = np.full(n_codes, len(codes), dtype=np.int64)
    np.minimum.at(first, codes, np.arange(len(codes)))
    rank = np.argsort(first, kind="stable")
    remap = np.empty(n_codes, dtype=np.int64)
    remap[rank] = np.arange(n_codes)
    return remap[codes], rank[first[rank] < len(codes)].tolist()


def _factorize(templates: bytes, n: int) -> tuple[np.ndarray, list[bytes]]:
    """(code per line, the distinct templates in order of first appearance) of ``n`` newline-separated templates:
    pandas' C reader tokenises them as one column of categories (hashing in C, no object per line)."""
    import csv
    import io

    import pandas as pd

    if not templates.strip(b"\n"):
        return np.zeros(n, dtype=np.int64), [b""]
    col = pd.read_csv(io.BytesIO(templates), header=None, names=["t"], sep="\x02", quoting=csv.QUOTE_NONE,
                      dtype="category", na_filter=False, skip_blank_lines=False, encoding="latin-1",
                      engine="c")["t"]
    cats = col.cat.categories.tolist()
    if len(col) not in (n, n - 1) or not all(isinstance(c, str) for c in cats):
        # the reader split lines otherwise than at newlines, or took every template for a number ("inf", "nan"):
        # object by object, then
        uniq: dict[bytes, int] = {}
        obj = np.array([uniq.setdefault(t, len(uniq)) for t in templates.split(b"\n")], dtype=np.int64)
        return obj, list(uniq)
    found = [c.encode("latin-1") for c in cats]
    codes = col.cat.codes.to_numpy().astype(np.int64)
    if len(codes) < n:  # the text ends with a newline: the last, empty line is no row of the reader
        if b"" not in found:
            found.append(b"")
        codes = np.concatenate((codes, np.full(n - len(codes), found.index(b""), dtype=np.int64)))
    codes, order = _first_appearance(codes, len(found))  # pandas sorts categories
    return codes, [found[k] for k in order]


GROUPED = b"\x01,\x01"  # a template holding this may hold a number with thousands separators (``[1,000]``)
_DIGITS = b"0123456789"


def ungroup(line: bytes) -> bytes:
    """``line`` with the separators of its grouped numbers dropped (River's ``[1,000]``, ``8,680.19``): a first group
    of 1-3 digits (no digit, ``.`` or ``,`` before it), then groups of exactly three digits each after a ``,``, then
    an optional decimal part, and no ``,`` and digit after it (``1,2,3``, ``0.5,0.6``, ``3,14``: a list, kept).
    Linear: each comma is looked at once, and at most three bytes before it."""
    c = line.find(b",")
    if c < 0:
        return line
    n = len(line)
    parts: list[bytes] = []
    last = 0
    while c >= 0:
        s = c
        while s > 0 and c - s < 4 and line[s - 1] in _DIGITS:
            s -= 1
        j = c
        cuts: list[int] = []
        if 1 <= c - s <= 3 and (s == 0 or line[s - 1] not in b"0123456789.,"):
            while line[j:j + 1] == b"," and line[j + 1:j + 4].isdigit() and len(line[j + 1:j + 4]) == 3 \
                    and line[j + 4:j + 5] not in (b"0", b"1", b"2", b"3", b"4", b"5", b"6", b"7", b"8", b"9"):
                cuts.append(j)
                j += 4
        if not cuts:
            c = line.find(b",", c + 1)
            continue
        k = j
        if line[k:k + 1] == b"." and line[k + 1:k + 2].isdigit():
            k += 1
            while k < n and line[k] in _DIGITS:
                k += 1
        if not (line[k:k + 1] == b"," and line[k + 1:k + 2].isdigit()):  # else a list: kept as printed
            for cut in cuts:
                parts.append(line[last:cut])
                last = cut + 1
        c = line.find(b",", k)
    if not parts:
        return line
    parts.append(line[last:])
    return b"".join(parts)


def ungroup_numbers(lines: list[bytes], grouping: Grouping) -> bool:
    """Rewrite, in place, the lines of each template whose grouped numbers (``ungroup``) are grouped the same way in
    every line of it (``[1,000] MAE:`` … ``[10,000] MAE:``: one number each); a template where the same places hold
    a list in some line (``pos 3,14`` beside ``pos 3,140``) is kept as printed. True when a line changed (the lines
    are then to be grouped again)."""
    from .kernel import factorize_templates

    hinted = [k for k, t in enumerate(grouping.templates) if GROUPED in t]
    if not hinted:
        return False
    # a template's first and last lines first: one holding a list there is no grouped template (its lines not read)
    where = np.flatnonzero(np.isin(grouping.codes, hinted))
    of = grouping.codes[where]
    ks, first = np.unique(of, return_index=True)
    _, last = np.unique(of[::-1], return_index=True)
    kept = [int(k) for k, a, b in zip(ks.tolist(), where[first].tolist(), where[::-1][last].tolist(), strict=True)
            if _grouped_alike([lines[a], lines[b]])]
    if not kept:
        return False
    at = np.flatnonzero(np.isin(grouping.codes, kept)).tolist()
    new = [ungroup(lines[i]) for i in at]
    codes, uniques = factorize_templates(b"\n".join(new))
    became: dict[int, int] = {}  # old template -> its one new template, or -1 (none, or several)
    for i, code in zip(at, codes.tolist(), strict=True):
        old = int(grouping.codes[i])
        was = became.setdefault(old, code)
        if was != code:
            became[old] = -1
    changed = False
    for i, line in zip(at, new, strict=True):
        k = became[int(grouping.codes[i])]
        if k >= 0 and uniques[k] != grouping.templates[int(grouping.codes[i])]:
            lines[i] = line
            changed = True
    return changed


def _grouped_alike(lines: list[bytes]) -> bool:
    """Whether ``lines`` (of one template) lose the same separators in ``ungroup``, and some."""
    from .kernel import factorize_templates

    if not lines:
        return True
    new = [ungroup(line) for line in lines]
    return new[0] != lines[0] and len(factorize_templates(b"\n".join(new))[1]) == 1


RUN_TOGETHER_DECIMALS = 4  # the fewest decimals of numbers printed with a fixed precision that may run together
SIGNED_DECIMALS = 2  # ... when each number after the first opens with its minus sign (in a row of numbers)
_ROW_WORD = 5
_LONG_WORD = re.compile(rb"[A-Za-z_]{%d}" % _ROW_WORD)  # a word this long: the line is no row of numbers


def _signed_digits(s: bytes) -> bool:
    return s.isdigit() or s[:1] == b"-" and s[1:].isdigit()


def _split_cell(tok: bytes, signed_ok: bool = False) -> bytes:
    """A cell of several numbers printed with one fixed number of decimals and no blank between them (a value wider
    than its column: fastai's ``381127566817363723550720.00000036742151059038390070542336.0000000.308594``), the
    numbers apart by a blank; else the cell as it is. Each number's decimals are as many as the last one's (at least
    ``RUN_TOGETHER_DECIMALS``), and each number after the first has an integer part: ``1.2.3``, ``2024.01.15``,
    ``192.168.1.1``, ``1.0.20240101`` stay. With ``signed_ok`` (the cell is in a row of numbers), fewer decimals
    (``SIGNED_DECIMALS``) do when each number after the first opens with its minus sign: two fixed-width fields
    glued where a negative one fills its width (ElegantRL's ``12.72-117.12``; a minus after a digit opens a
    number)."""
    segs = tok.split(b".")
    d = len(segs[-1])
    if len(segs) < 3 or not segs[-1].isdigit() or not _signed_digits(segs[0]):
        return tok
    signed = d < RUN_TOGETHER_DECIMALS
    if signed and (not signed_ok or d < SIGNED_DECIMALS):
        return tok
    nums = []
    whole = segs[0]
    for s in segs[1:-1]:
        if len(s) <= d or not s[:d].isdigit() or not _signed_digits(s[d:]) or signed and s[d:d + 1] != b"-":
            return tok
        nums.append(whole + b"." + s[:d])
        whole = s[d:]
    nums.append(whole + b"." + segs[-1])
    return b" ".join(nums)


def split_run_together(line: bytes) -> bytes:
    """``line`` with each blank-separated cell of numbers that ran together (``_split_cell``) apart; in a row of
    numbers (no word of ``_ROW_WORD`` letters: a table's row, not prose such as ``lr range 0.09-0.11``) the
    signed ones too; linear."""
    if line.count(b".") < 2:
        return line
    parts = line.split(b" ")
    signed_ok = _LONG_WORD.search(line) is None
    out = [_split_cell(p, signed_ok) if p.count(b".") >= 2 else p for p in parts]
    return line if out == parts else b" ".join(out)


RUN_TOGETHER_LOOKS = 4096  # templates looked at per block for numbers that ran together


def split_run_together_numbers(lines: Sequence[bytes], grouping: Grouping) -> list[bytes] | None:
    """The lines, as a new list, with the numbers that ran together in the lines of each template whose first line
    holds such numbers (``split_run_together``) apart, each a number (one field of a table's row, as in the rows
    whose values fit their columns); None when no template's first line holds any (the lines are then as they were).
    A template is looked at by its first line (the first ``RUN_TOGETHER_LOOKS`` templates): a row whose numbers ran
    together has fewer cells than the table's other rows, so it never shares their template."""
    codes = grouping.codes
    n_t = min(len(grouping.templates), RUN_TOGETHER_LOOKS)
    if not len(codes) or not n_t:
        return None
    firsts = np.zeros(len(grouping.templates), dtype=np.int64)
    at = np.arange(len(codes))
    firsts[codes[::-1]] = at[::-1]
    hit = []
    for k in range(n_t):
        line = lines[int(firsts[k])]
        if line.count(b".") >= 2 and split_run_together(line) is not line:
            hit.append(k)
    if not hit:
        return None
    out = list(lines)
    for i in np.flatnonzero(np.isin(codes, hit)).tolist():
        out[i] = split_run_together(out[i])
    return out


BEST_MARK_LOOKS = 4096  # templates looked at per block for a best mark before a cell


def best_marks(template: bytes, marks: bytes = b"*") -> list[int]:
    """Which of the template's mark bytes (counted among its bytes of that value, in order) flag the number right
    after them (a new best: hippynn's ``Loss  :    *    2.4951   *    2.0084``): a mark opening a cell, three blanks or
    more before it (a column's gap: no operator's spacing, ``a * b``, ``a  *  b``), after something else on the line
    (a bullet opens it), glued to the number or blanks apart, in a row of two numbers or more."""
    if template.count(_MARK) < 2 or not any(m in template for m in marks):
        return []
    out = []
    seen: dict[int, int] = {}
    body = len(template) - len(template.lstrip(b" \t"))
    for m in re.finditer(b"[" + re.escape(marks) + b"]", template):
        i, c = m.start(), template[m.start()]
        k = seen.get(c, 0)
        seen[c] = k + 1
        if i - 3 > body and not template[i - 3:i].strip(b" \t") and _BLANKS_MARK.match(template, i + 1):
            out.append((c << 32) | k)
    return out


_BLANKS_MARK = re.compile(rb"[ \t]*+\x01")  # blanks, then a number's mark


def unmark_best(lines: Sequence[bytes], grouping: Grouping, marks: bytes = b"*") -> list[bytes] | None:
    """The lines, as a new list, with each best mark (``best_marks``) of the lines of each template holding one a
    blank (the row's cells at their places: one template whether or not a cell is marked, the number the cell's);
    None when no template holds one (the lines are then as they were). Lines of one template hold its bytes other
    than numbers in the same order: the template says which of a line's marks to blank."""
    codes = grouping.codes
    n_t = min(len(grouping.templates), BEST_MARK_LOOKS)
    if not len(codes) or not n_t:
        return None
    every = b"\n".join(grouping.templates[:n_t])
    if not any(m in every for m in marks):
        return None  # (one look at the block's templates: most logs print no mark)
    hit: dict[int, list[int]] = {}
    for k in range(n_t):
        t = grouping.templates[k]
        if any(m in t for m in marks):
            which = best_marks(t, marks)
            if which:
                hit[k] = which
    if not hit:
        return None
    out = list(lines)
    keys = np.fromiter(hit, dtype=np.int64)
    for i in np.flatnonzero(np.isin(codes, keys)).tolist():
        out[i] = _blank_marks(out[i], hit[int(codes[i])], marks)
    return out


def _blank_marks(line: bytes, which: list[int], marks: bytes) -> bytes:
    """``line`` with the marks ``which`` (mark byte << 32 | its count among the line's bytes of that value) blank:
    one pass over the line's marks."""
    at: dict[int, list[int]] = {}
    for m in re.finditer(b"[" + re.escape(marks) + b"]", line):
        at.setdefault(line[m.start()], []).append(m.start())
    buf = bytearray(line)
    for w in which:
        got = at.get(w >> 32, ())
        if (w & 0xFFFFFFFF) < len(got):
            buf[got[w & 0xFFFFFFFF]] = 0x20
    return bytes(buf)


def reads_as_float(seg: bytes) -> bool:
    """Whether ``seg`` is a number as ``float()`` reads it, or the NaN mark (``NAN_MARK``)."""
    if seg == NAN_MARK:
        return True
    try:
        float(seg)
    except ValueError:
        return False
    return True
