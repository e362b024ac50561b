"""The engine's template step (tools/parsers/templates.py): lines grouped by template, nan/inf words masked.

The masks are replaced as plain words where the template shows each is a whole word, and by the patterns
elsewhere; both must give what the patterns give on every line of a masked template, whatever the line holds."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from training_check.tools.parsers.templates import (
    NAN_MARK,
    group_lines,
    has_mask_word,
    mask_numbers,
    masked_template,
    templates_of,
)

PIECES = ["nan", "NaN", "NAN", "inf", "Inf", "INF", "infinity", "Infinity", "-inf", "nan.0", "inf.00", "info",
          "nanoGPT", "inference", "enan", "5nan", "nan5", "_nan", "xnan", "na\xffn", "\xe9nan", "nan\xe9", "loss",
          "=", ":", " ", "  ", ",", "|", "1", "0.5", "1e-3", "-2", "step", "e", "E", "[", "]", "'", "+"]


def _expected(lines: list[bytes]) -> list[bytes]:
    """What the patterns make of each line: a line is masked when its template holds a whole mask word."""
    return [mask_numbers(ln) if has_mask_word(templates_of(ln)) else ln for ln in lines]


def _check(lines: list[bytes]) -> None:
    want = _expected(lines)
    got = list(lines)
    g = group_lines(got)
    assert got == want
    # a line's template is the template of what it now holds, and equal templates share a code
    for i, ln in enumerate(got):
        assert g.templates[int(g.codes[i])] == templates_of(ln), (ln, g.templates[int(g.codes[i])])
    assert len(set(g.templates)) == len(g.templates)
    assert g.counts.tolist() == np.bincount(g.codes, minlength=len(g.templates)).tolist()


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map("".join), min_size=1, max_size=30))
def test_masking_by_template_gives_what_the_patterns_give(texts: list[str]) -> None:
    _check([t.encode("latin-1") for t in texts])


def test_masked_template_only_where_the_template_tells() -> None:
    assert masked_template(b"s:\x01 trl:nan lr:\x01 norm:nan") == b"s:\x01 trl:\x01 lr:\x01 norm:\x01"
    assert masked_template(b"loss=Infinity acc=NaN") == b"loss=\x01 acc=\x01"
    assert masked_template(b"loss=\x01inf") is None  # -inf: the sign's mark is beside the word
    assert masked_template(b"loss=nan\x01") is None  # nan.0 or nan5: the template cannot tell
    assert masked_template(b"loss=nan info") is None  # "inf" inside a word


def test_a_word_split_by_a_byte_the_template_drops_goes_to_the_patterns() -> None:
    lines = [b"loss: nan", b"loss: na\xffn", b"loss: 0.5"]  # the second line's template is the first's
    _check(lines)
    got = list(lines)
    group_lines(got)
    assert got == [b"loss: " + NAN_MARK, b"loss: na\xffn", b"loss: 0.5"]


def test_many_nan_lines_are_masked_by_plain_replace_in_one_pass() -> None:
    lines = [f"s:{i} trl:{'nan' if i % 2 else '2.5'} lr:0.001 norm:{'nan' if i % 3 else 'inf'}".encode()
             for i in range(5000)]
    _check(lines)
