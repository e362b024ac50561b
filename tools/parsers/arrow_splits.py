"""A metric's values per split after an arrow: ``name -> Split: value | Split: value``.

A display printing each metric once with its splits' values after an arrow (torchfitter's rich progress bar: ``loss
-> Train: 3.43e+00 | Validation: 2.56e+00 • MeanAbsoluteError -> Train: 1.47e+00 | Validation: 1.37e+00``): each
split's word names that split's value of the metric before the arrow, read under the split's word then the metric's
(``Train loss``, ``Validation loss``, ``Train MeanAbsoluteError``: the words a logger prints them under beside it,
``Train loss: 2.04e+00 | Validation loss 1.79e+00``, so both are one series). The arrows are dialect data
(``Dialect.split_arrows``), the split words ``Dialect.split_rows``.

Bounded: from a split's word back to its arrow past at most ``MAX_SPLITS`` splits (``| value`` then ``Split:``), each
value at most ``MAX_VALUE`` bytes, the metric's name at most ``Dialect.name_words`` words: a look back of bounded
length at each field's name, no regex.
"""

from __future__ import annotations

from .dialect import DIALECT, Dialect

MAX_SPLITS = 8  # splits looked back past from a split's word to its arrow
MAX_VALUE = 40  # bytes of a split's value looked back past
MAX_WORD = 64  # bytes of a word looked back past
_BLANKS = frozenset(b" \t")
_LETTERS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_WORD_CHARS = _LETTERS | frozenset(b"0123456789_./@-") | frozenset(range(128, 256))


def _skip_blanks(line: bytes, i: int) -> int:
    while i >= 0 and line[i] in _BLANKS:
        i -= 1
    return i


def _metric_before(line: bytes, i: int, dialect: Dialect) -> str | None:
    """The metric's name ending at or before ``line[i]`` (blanks skipped): up to ``name_words`` words one blank apart,
    each starting with a letter (a glyph set between records, rich's ``•``, is none)."""
    i = _skip_blanks(line, i)
    words: list[str] = []
    while i >= 0 and len(words) < dialect.name_words:
        j = i
        while j >= 0 and i - j < MAX_WORD and line[j] in _WORD_CHARS:
            j -= 1
        word = line[j + 1:i + 1].decode("utf-8", "replace")
        if not word or not word[0].isalpha():
            break
        words.append(word)
        if j < 1 or line[j] != 32 or line[j - 1] not in _WORD_CHARS:
            break
        i = j - 1
    return " ".join(reversed(words)) if words else None


def arrow_metric(line: bytes, start: int, dialect: Dialect = DIALECT) -> str | None:
    """The metric named before the arrow that the split's word at ``line[start]`` follows, directly (``loss ->
    Train``) or after the splits before it (``loss -> Train: 3.43 | Validation``); else None."""
    i = start - 1
    for _ in range(MAX_SPLITS):
        i = _skip_blanks(line, i)
        for arrow in dialect.split_arrows:
            if i + 1 >= len(arrow) and line[i + 1 - len(arrow):i + 1] == arrow:
                return _metric_before(line, i - len(arrow), dialect)
        if i < 0 or line[i] != 0x7C:  # "|" between two splits
            return None
        i = _skip_blanks(line, i - 1)
        j = i
        while j >= 0 and i - j < MAX_VALUE and line[j] not in _BLANKS:
            j -= 1
        if j == i or j < 0 or line[j] not in _BLANKS:
            return None
        i = _skip_blanks(line, j)
        if i < 0 or line[i] != 0x3A:  # the split's ":"
            return None
        i = _skip_blanks(line, i - 1)
        j = i
        while j >= 0 and i - j < MAX_WORD and line[j] in _LETTERS:
            j -= 1
        if line[j + 1:i + 1].decode("latin-1").lower() not in dialect.split_rows:
            return None
        i = j
    return None
