"""The fast paths' proof, attacked: a plain block with random characters inserted, replaced or deleted either
leaves the fast path (False, nothing emitted) or gives exactly the line parser's points for the cleaned text."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from training_check.tools.parsers.base import Emitter
from training_check.tools.parsers.detect import LINE_FORMATS
from training_check.tools.parsers.engine import TextLogFormat
from training_check.tools.parsers.text import clean_block

from tests.helpers import edited, emitted_points, same_points

# the characters a proof must tell apart: number characters, separators, the words' letters, line ends, bytes a
# cleaner changes (CR, escape codes), a non-ASCII byte
POOL = list(b"0123456789.eE+- :,%{}\"\t\nstrlnomiafupvdcgk_\r\x1b") + [0xC3, 0xA9]

ENGINE = {  # formats with no reader (and no fast path) of their own: the text-log engine reads them
    "llmc": "".join(f"s:{i} trl:{3 + i / 7:.4f} lr:{3e-4 * (1 - i / 50):.4e} norm:{1 + i % 3}.25\n"
                    + (f"s:{i} tel:{3.2 - i / 100}\n" if i % 4 == 0 else "") for i in range(12)),
    "nanogpt": "".join((f"step {i}: train loss {3 + i / 9:.4f}, val loss {3.1 + i / 11:.4f}\n" if i % 4 == 0 else "")
                       + f"iter {i}: loss {3 + i / 7:.4f}, time {30 + i % 3}.25ms, mfu {i % 5 - 1:.2f}%\n"
                       for i in range(10)),
}
PLAIN = {
    "jsonl": "".join(f'{{"step": {i}, "loss": {3 + i / 7!r}, "lr": {1e-3 * (i + 1):.4e}}}\n' for i in range(12)),
    "csv": "".join(f"{i},{3 + i / 7!r},{1e-3 * i:.4e}\n" for i in range(12)),
}
CSV_STATE = {"header": ["step", "loss", "lr"], "sep": ",", "step_col": 0, "n": 0}


def _emitter(fmt: str) -> Emitter:
    return Emitter(dict(CSV_STATE) if fmt == "csv" else {})


@st.composite
def mutated(draw, fmt: str) -> bytes:
    data = bytearray((PLAIN.get(fmt) or ENGINE[fmt]).encode())
    return edited(draw, data, POOL)


def _check(fmt: str, data: bytes) -> None:
    parser = LINE_FORMATS[fmt]
    fast = _emitter(fmt)
    if not parser.parse_plain(data, fast):
        assert len(fast) == 0 and fast.state == _emitter(fmt).state
        return
    slow = _emitter(fmt)
    text, _ = clean_block(data)
    parser.parse(text, slow)
    assert same_points(emitted_points(fast), emitted_points(slow)), data
    assert fast.state == slow.state, data


def test_the_plain_blocks_take_the_fast_path():
    for fmt, text in PLAIN.items():
        em = _emitter(fmt)
        assert LINE_FORMATS[fmt].parse_plain(text.encode(), em) and len(em)


@pytest.mark.parametrize("fmt", list(PLAIN))
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_blocks(fmt, data):
    _check(fmt, data.draw(mutated(fmt)))


# small blocks with every line shape and number spelling, for the exhaustive single-edit test below
SMALL = {
    "jsonl": b'{"step": 1, "loss": 2.5e-05, "lr": -1.5}\n{"step": 2, "loss": 3.5e-05, "lr": -2.5}\n'
             b'{"step": 3, "loss": 4.5e-05, "lr": -3.5}\n',
    "csv": b"1,2.5,1e-3\n2,3.5,2e-3\n3,4.5,3e-3\n",
}


def _single_edits(data: bytes):
    for at in range(len(data) + 1):
        for ch in POOL:
            yield data[:at] + bytes([ch]) + data[at:]
            if at < len(data):
                yield data[:at] + bytes([ch]) + data[at + 1:]
        if at < len(data):
            yield data[:at] + data[at + 1:]


@pytest.mark.parametrize("fmt", list(SMALL))
def test_every_single_edit_of_a_small_block(fmt):
    """Every one-byte insertion, replacement and deletion of the pool's bytes, at every position."""
    assert LINE_FORMATS[fmt].parse_plain(SMALL[fmt], _emitter(fmt))
    kept = 0
    for data in _single_edits(SMALL[fmt]):
        _check(fmt, data)
        kept += LINE_FORMATS[fmt].parse_plain(data, _emitter(fmt))
    assert kept  # edits inside the numbers keep the fast path


@pytest.mark.parametrize("fmt", list(ENGINE))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_blocks_through_the_engine(fmt, data):
    """A mutated llm.c / nanoGPT block is hostile input like any: the engine reads it, whole or a line at a time,
    into whole steps and float values, and never raises."""
    raw = data.draw(mutated(fmt))
    for blocks in ([raw], raw.splitlines(keepends=True)):
        em, engine = Emitter(), TextLogFormat()
        for block in blocks:
            engine.parse_plain(block, em)
        engine.finish(em)
        for _key, steps, values in emitted_points(em):
            assert len(steps) == len(values) and all(isinstance(s, int) for s in steps)
            assert all(isinstance(v, float) for v in values)
    untouched = Emitter()
    TextLogFormat().parse_plain(ENGINE[fmt].encode(), untouched)
    assert emitted_points(untouched)  # the block before its edits reads
