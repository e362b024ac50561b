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


Unit = tuple[bytes, bytes | None, int]  # a word with the byte on each side (b"\n" at a line's end), what it becomes
# (None: no word, a letter is beside it), how often the template holds it


def masked_template(template: bytes) -> tuple[bytes, tuple[Unit, ...]] | None:
    """The template of a masked template's lines, and how their words become numbers, when the template alone tells:
    a word ``MASKS`` names with no letter, ``_`` or number mark on either side is a whole word; one with a letter
    beside it (``INFO``, ``inference``) is none. Each is looked for with the byte on each side of it, which a line of
    the template has too unless a non-ASCII byte the template drops sits there (``nan\\xe9nan``): the counts of
    these units in the lines then fall short of the template's and the patterns judge (``_replace_words``). Each
    whole word is replaced with the bytes around it (``=nan,`` -> ``=+.+,``). None when a number mark beside a word
    hides what a line has there (``nan.0``, ``-inf``, ``5nan``): its lines are masked by the patterns then."""
    t = b"\n" + template + b"\n"
    units: list[Unit] = []
    for word, repl in MASK_WORDS:
        found: dict[bytes, int] = {}
        at = t.find(word)
        while at >= 0:
            end = at + len(word)
            if t[at - 1] == 1 or t[end] == 1:
                return None
            unit = t[at - 1:end + 1]
            found[unit] = found.get(unit, 0) + 1
            at = t.find(word, end)
        for unit, n in found.items():
            if t.count(unit) != n:
                return None  # two words sharing a byte between them ("nan nan"): one count would miss one
            whole = unit[0] not in _LETTER_BYTES and unit[-1] not in _LETTER_BYTES
            units.append((unit, unit[:1] + repl + unit[-1:] if whole else None, n))
        for unit, becomes, _n in units[-len(found):] if found else ():
            if becomes is not None:
                t = t.replace(unit, unit[:1] + _MARK + unit[-1:])
    return t[1:-1], tuple(units)


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
    joined: bytes | None = None  # ``b"\\n".join(lines)`` as the lines now are, when at hand


def group_lines(lines: list[bytes], joined: bytes | None = None) -> Grouping:
    """Lines grouped by template (in order of first appearance); ``joined`` is ``b"\\n".join(lines)`` when the caller
    has it. Lines holding nan/inf words are masked (``MASKS``), in place, and only theirs (found by their template):
    a log without them pays nothing. Where the template tells (``masked_template``) the words are replaced as they
    are, and the template with them; the other masked lines go through the patterns and are templated again."""
    from .kernel import factorize_templates

    if joined is None:
        joined = b"\n".join(lines)
    codes, uniques = factorize_templates(joined)
    masked = [k for k, t in enumerate(uniques) if _has_mask_word_cached(t)]
    if not masked:
        counts = np.bincount(codes, minlength=len(uniques)) if len(codes) else np.zeros(0, dtype=np.int64)
        return Grouping(codes, uniques, counts, joined=joined)
    plain = {k: m for k in masked if (m := _masked_template_cached(uniques[k])) is not None}
    rest = [k for k in masked if k not in plain]
    if plain:
        done = _replace_words(lines, codes, plain, None if rest else joined)
        if done is None:
            plain, rest = {}, masked
        elif not rest:
            joined = done
    every = [plain[k][0] if k in plain else t for k, t in enumerate(uniques)]
    index: dict[bytes, int] = {}
    remap = np.array([index.setdefault(t, len(index)) for t in every], dtype=np.int64)
    new_codes = remap[codes]
    if rest:
        joined = None
        at = np.flatnonzero(np.isin(codes, rest))
        words = [w for w, _ in MASK_WORDS if any(w in uniques[k] for k in rest)]
        redone = mask_numbers(b"\n".join([lines[i] for i in at.tolist()]), words)  # masks never touch a newline
        for i, line in zip(at.tolist(), redone.split(b"\n"), strict=True):
            lines[i] = line
        sub_codes, sub_uniques = factorize_templates(redone)
        new_codes[at] = np.array([index.setdefault(t, len(index)) for t in sub_uniques], dtype=np.int64)[sub_codes]
    new_codes, order = _first_appearance(new_codes, len(index))
    distinct = list(index)
    uniques = [distinct[k] for k in order]
    counts = np.bincount(new_codes, minlength=len(uniques)) if len(new_codes) else np.zeros(0, dtype=np.int64)
    return Grouping(new_codes, uniques, counts, True, joined)


def _replace_words(lines: list[bytes], codes: np.ndarray, plain: dict[int, tuple[bytes, tuple[Unit, ...]]],
                   joined: bytes | None) -> bytes | None:
    """The words of the lines of templates ``plain`` replaced as ``masked_template`` says, in place: in the whole
    block's text at once when ``joined`` is given (every masked template is one of them: no other line holds such a
    word), else in those lines' text; the block's new text, or b"" when only those lines were done. None, with nothing
    changed, when a line holds fewer such words than its template shows (a word split by a non-ASCII byte the
    template drops: ``na\\xffn``), which the patterns then judge."""
    ks = list(plain)
    at: np.ndarray | None = None
    if joined is None:
        at = np.flatnonzero(np.isin(codes, ks))
        joined = b"\n".join([lines[i] for i in at.tolist()])
    text = b"\n" + joined + b"\n"
    per_template = np.bincount(codes if at is None else codes[at], minlength=max(ks) + 1)[ks].tolist()
    expected: dict[bytes, int] = {}
    replace: dict[bytes, bytes] = {}
    for k, n in zip(ks, per_template, strict=True):
        for unit, repl, times in plain[k][1]:
            expected[unit] = expected.get(unit, 0) + n * times
            if repl is not None:
                replace[unit] = repl
    for unit, n in expected.items():  # a line holds no more of a unit than its template: equal sums, equal lines
        if text.count(unit) != n:
            return None
    for unit in sorted(replace, key=lambda u: _WORD_RANK[u[1:-1]]):  # longer words first (Infinity before Inf)
        text = text.replace(unit, replace[unit])
    text = text[1:-1]
    if at is None:
        lines[:] = text.split(b"\n")
        return text
    for i, line in zip(at.tolist(), text.split(b"\n"), strict=True):
        lines[i] = line
    return b""


_WORD_RANK = {w: i for i, (w, _) in enumerate(MASK_WORDS)}


_MASKED_TEMPLATE: dict[bytes, tuple[bytes, tuple[Unit, ...]] | None] = {}


def _masked_template_cached(template: bytes) -> tuple[bytes, tuple[Unit, ...]] | None:
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
