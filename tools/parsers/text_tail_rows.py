"""A table's row of numbers then free text (an optimiser's own iteration table: pybads' `` Iteration  f-count
f(x)  MeshScale  Method  Actions`` over ``   3     52   0.0621888   0.25   Refine grid   Train``, pyvbmc's ``...
Convergence  Action`` over ``   0  10  -18.97 ... inf   start warm-up``): the number cells first, the text cells
after them (one word or several, or none at all), never a number among them. The number cells are read by the
header's alignment; the text cells are no values. Checked on the line alone, in linear time over at most
``MAX_TAIL`` bytes of text."""

from __future__ import annotations

MIN_NUMBERS = 3  # number cells before the text (fewer: a record's prose, ``3 epochs done``)
MAX_WORDS = 6  # words of the text cells
MAX_TAIL = 96  # bytes of the text cells
MAX_LINE = 512
_WORD_PUNCT = b"()[]-_'.,:/"


def _is_number(tok: bytes) -> bool:
    if tok in (b"inf", b"-inf", b"nan", b"NaN", b"+inf", b"+.+"):  # (``+.+``: a NaN or inf masked)
        return True
    try:
        float(tok)
    except ValueError:
        return False
    return True


def _is_word(tok: bytes) -> bool:
    core = tok.translate(None, _WORD_PUNCT)
    return core.isalpha() and core.isascii() and tok[:1].isalpha() or tok[:1] == b"(" and core.isalpha()


def numbers_then_text(line: bytes) -> bool:
    """Whether ``line`` is ``MIN_NUMBERS`` number cells or more, then one to ``MAX_WORDS`` words of text (letters and
    a word's punctuation, no digit): a row whose last cells are free text."""
    return text_start(line) >= 0


def text_start(line: bytes) -> int:
    """Where the text cells of a row of numbers then free text (``numbers_then_text``) start, -1 for no such row."""
    if len(line) > MAX_LINE or not line[:1].isspace() and not line[:1].isdigit() and line[:1] != b"-":
        return -1
    toks = line.split()
    k = 0
    while k < len(toks) and _is_number(toks[k]):
        k += 1
    tail = toks[k:]
    if k < MIN_NUMBERS or not tail or len(tail) > MAX_WORDS or sum(map(len, tail)) > MAX_TAIL or not all(
            _is_word(t) for t in tail):
        return -1
    at = 0
    for tok in toks[:k]:
        at = line.index(tok, at) + len(tok)
    return at
