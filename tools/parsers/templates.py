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
# NAN_MARK, which the reader takes as NaN; inf is spelled as a number that overflows to inf. One pattern per spelling,
# each starting with its word: the scan for it is a fast search for a literal (a pattern opening with an alternation
# or a class is tried at every byte). Fixed-length words between lookarounds, possessive: linear. Applied one after
# another they rewrite what one alternation would (a rewritten word is never next to a letter).
NAN_MARK = b"+.+"
INF_NUMBER = b"9e999"
MASK_WORDS: tuple[tuple[bytes, bytes], ...] = (
    (b"infinity", INF_NUMBER), (b"Infinity", INF_NUMBER), (b"inf", INF_NUMBER), (b"Inf", INF_NUMBER),
    (b"INF", INF_NUMBER), (b"nan", NAN_MARK), (b"NaN", NAN_MARK), (b"NAN", NAN_MARK),
)
MASKS: tuple[tuple[bytes, re.Pattern[bytes], bytes], ...] = tuple(
    (word, re.compile(re.escape(word) + rb"(?<![A-Za-z_]" + re.escape(word) + rb")(?:\.0++)?+(?![A-Za-z_0-9])"), repl)
    for word, repl in MASK_WORDS)
_MASK_FIRST = frozenset(w[:1] for w, _ in MASK_WORDS)  # "i", "I", "n", "N"


def _value_table() -> bytes:
    out = bytearray(range(256))
    for c in range(256):
        if c == 10 or c in NUMBER_CHARS:
            continue
        out[c] = ord(",")
    return bytes(out)


VALUE_TABLE = _value_table()
VALUE_DELETE = WORD_CHARS + _NON_ASCII


def mask_numbers(data: bytes, words: Sequence[bytes] | None = None) -> bytes:
    """``data`` with ``MASKS`` applied (those of ``words`` only, when given; each only when its word is there)."""
    for word, pattern, repl in MASKS:
        if (words is None or word in words) and word in data:
            data = pattern.sub(repl, data)
    return data


def has_mask_word(template: bytes) -> bool:
    """Whether a template holds a word ``MASKS`` rewrites (its lines must be masked and grouped again): the whole
    word, not ``inference`` or ``nano``."""
    return any(word in template and pattern.search(template) is not None for word, pattern, _ in MASKS)


_LETTER_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")


def masked_template(template: bytes) -> bytes | None:
    """The template of a masked template's lines, when the template alone tells: every word ``MASKS`` names stands
    alone in it (no letter, ``_`` or number mark beside it), so each is a whole word in every line of the template
    (a line's bytes beside it are the template's, or non-ASCII bytes, which the template drops and which are no
    letters either) and becomes a number mark. None when a mark beside a word hides what the line has there
    (``nan.0``, ``-inf``, ``5nan``): its lines are masked by the patterns then."""
    out = template
    for word, _ in MASK_WORDS:
        at = out.find(word)
        while at >= 0:
            end = at + len(word)
            if at and (out[at - 1] in _LETTER_BYTES or out[at - 1] == 1) or end < len(out) and (
                    out[end] in _LETTER_BYTES or out[end] == 1):
                return None
            at = out.find(word, end)
        out = out.replace(word, _MARK)
    return out


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
    masked: bool = False  # lines were rewritten (nan/inf masks): a text of the lines made before is stale


def group_lines(lines: list[bytes], joined: bytes | None = None) -> Grouping:
    """Lines grouped by template (in order of first appearance); ``joined`` is ``b"\\n".join(lines)`` when the caller
    has it. Lines holding nan/inf words are masked (``MASKS``), in place, and only theirs (found by their template):
    a log without them pays nothing. Where the template tells (``masked_template``) the words are replaced as they
    are, and the template with them; the other masked lines go through the patterns and are templated again."""
    codes, uniques = _factorize(templates_of(b"\n".join(lines) if joined is None else joined), len(lines))
    masked = [k for k, t in enumerate(uniques) if _has_mask_word_cached(t)]
    if not masked:
        counts = np.bincount(codes, minlength=len(uniques)) if len(codes) else np.zeros(0, dtype=np.int64)
        return Grouping(codes, uniques, counts)
    renamed: dict[int, bytes] = {}
    for k in masked:
        t = _masked_template_cached(uniques[k])
        if t is not None:
            renamed[k] = t
    if renamed and not _replace_words(lines, codes, list(renamed), [uniques[k] for k in renamed]):
        renamed = {}
    every = [renamed.get(k, t) for k, t in enumerate(uniques)]
    index: dict[bytes, int] = {}
    remap = np.array([index.setdefault(t, len(index)) for t in every], dtype=np.int64)
    new_codes = remap[codes]
    rest = [k for k in masked if k not in renamed]
    if rest:
        at = np.flatnonzero(np.isin(codes, rest))
        words = [w for w, _ in MASK_WORDS if any(w in uniques[k] for k in rest)]
        redone = mask_numbers(b"\n".join([lines[i] for i in at.tolist()]), words)  # masks never touch a newline
        for i, line in zip(at.tolist(), redone.split(b"\n"), strict=True):
            lines[i] = line
        sub_codes, sub_uniques = _factorize(templates_of(redone), len(at))
        new_codes[at] = np.array([index.setdefault(t, len(index)) for t in sub_uniques], dtype=np.int64)[sub_codes]
    new_codes, order = _first_appearance(new_codes, len(index))
    distinct = list(index)
    uniques = [distinct[k] for k in order]
    counts = np.bincount(new_codes, minlength=len(uniques)) if len(new_codes) else np.zeros(0, dtype=np.int64)
    return Grouping(new_codes, uniques, counts, True)


def _replace_words(lines: list[bytes], codes: np.ndarray, ks: list[int], templates: list[bytes]) -> bool:
    """The words of ``MASKS`` replaced as they are in the lines of templates ``ks`` (each a whole word there:
    ``masked_template``), in place; False, with nothing changed, when a line holds a word its template does not show
    (a word split by a non-ASCII byte the template drops: ``na\\xffn``), which the patterns then judge."""
    at = np.flatnonzero(np.isin(codes, ks))
    text = b"\n".join([lines[i] for i in at.tolist()])
    per_template = np.bincount(codes[at], minlength=max(ks) + 1)[ks].tolist()
    for word, repl in MASK_WORDS:  # a line's words are among its template's: equal counts, the same words
        expected = sum(n * t.count(word) for t, n in zip(templates, per_template, strict=True))
        if not expected:
            continue
        if text.count(word) != expected:
            return False
        text = text.replace(word, repl)
        templates = [t.replace(word, _MARK) for t in templates]
    for i, line in zip(at.tolist(), text.split(b"\n"), strict=True):
        lines[i] = line
    return True


_MASKED_TEMPLATE: dict[bytes, bytes | None] = {}


def _masked_template_cached(template: bytes) -> bytes | None:
    if template in _MASKED_TEMPLATE:
        return _MASKED_TEMPLATE[template]
    out = masked_template(template)
    if len(_MASKED_TEMPLATE) < MAX_MASK_WORD_CACHE and len(template) <= 4096:
        _MASKED_TEMPLATE[template] = out
    return out


_MASK_WORD: dict[bytes, bool] = {}
MAX_MASK_WORD_CACHE = 8192


def _has_mask_word_cached(template: bytes) -> bool:
    hit = _MASK_WORD.get(template)
    if hit is None:
        hit = has_mask_word(template)
        if len(_MASK_WORD) < MAX_MASK_WORD_CACHE and len(template) <= 4096:
            _MASK_WORD[template] = hit
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
