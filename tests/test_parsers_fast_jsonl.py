"""The JSONL block fast path (pandas' C reader on flat all-number records of one shape) gives the very points and
state of the record-by-record pass."""

from __future__ import annotations

import pytest
from training_check.tools.parsers.base import Emitter
from training_check.tools.parsers.jsonl import JsonLinesFormat, _parse_plain

from tests.helpers import emitted_points


def _rows(n: int, start: int = 0) -> str:
    return "".join(f'{{"step": {i}, "loss": {3 + (i % 97) / 100:.4f}, "lr": {3e-4 * (1 - (i % 1000) / 2000):.4e}, '
                   f'"grad_norm": {1 + (i % 13) / 10:.4f}}}\n' for i in range(start, start + n))


BLOCKS = {
    "plain": _rows(300),
    "compact, no step key": "".join(f'{{"loss":{i / 7!r},"acc":{i}}}\n' for i in range(1, 50)),
    "iteration key, spaces": "".join(f' {{ "iteration" : {i} , "loss" : -{i}.5e+3 }} \n' for i in range(1, 20)),
    "steps repeat": "".join(f'{{"step": {i // 2}, "loss": {i}.25}}\n' for i in range(40)),
    "step back (no start event)": _rows(5, 10) + _rows(5, 0),
    "zeros": '{"step": 0, "loss": 0.0}\n{"step": 10, "loss": 0.5}\n{"step": 20, "loss": 10.05}\n',
    "big exponent": '{"step": 1, "loss": 1e-05}\n{"step": 2, "loss": 2e-300}\n{"step": 3, "loss": 3e-308}\n',
}
ODD = {  # each must take the record-by-record pass
    "nan value": _rows(3) + '{"step": 3, "loss": NaN, "lr": 1.0000e-04, "grad_norm": 1.0000}\n',
    "keys swapped": '{"step": 1, "loss": 2.5}\n{"loss": 2.5, "step": 2}\n',
    "key missing": '{"step": 1, "loss": 2.5}\n{"step": 2}\n',
    "extra key": '{"step": 1, "loss": 2.5}\n{"step": 2, "loss": 2.5, "acc": 1}\n',
    "digit in a key": '{"step": 1, "l1": 2.5, "l2": 3}\n{"step": 2, "l2": 2.5, "l1": 3}\n',
    "digit in the spacing": '{"step": 1, "loss": 2}\n{"step": 2,5 "loss": 2}\n',
    "digit before the brace": '{ "step": 1, "loss": 2 }\n{ "step": 2, "loss": 2 5}\n',
    "digit after the brace": '{"step": 1, "loss": 2} \n{"step": 2, "loss": 2}5\n',
    "digit before the first key": '{"step": 1, "loss": 2}\n{5"step": 2, "loss": 2}\n',
    "digit at the line start": '{"step": 1, "loss": 2}\n5{"step": 2, "loss": 2}\n',
    "digit at the line end": '{"step": 1, "loss": 2}\n{"step": 2, "loss": 2}5\n',
    "digit at the line start, spaces": ' {"step": 1, "loss": 2}\n5 {"step": 2, "loss": 2}\n',
    "digit at the line end, spaces": '{"step": 1, "loss": 2} \n{"step": 2, "loss": 2} 5\n',
    "digit inserted in a key": '{"step": 1, "loss": 2}\n{"step": 2, "lo5ss": 2}\n',
    "string value": '{"step": 1, "loss": 2}\n{"step": 2, "loss": "2"}\n',
    "null value": '{"step": 1, "loss": 2}\n{"step": 2, "loss": null}\n',
    "nested": '{"step": 1, "loss": 2}\n{"step": 2, "loss": {"a": 1}}\n',
    "event first line": '{"event": "start"}\n{"step": 1, "loss": 2}\n',
    "total_steps": '{"current_steps": 1, "total_steps": 10, "loss": 2}\n{"current_steps": 2, "total_steps": 10, '
                   '"loss": 1}\n',
    "empty fraction": '{"step": 1, "loss": 2.5}\n{"step": 2, "loss": 2.}\n',
    "empty integer": '{"step": 1, "loss": 2.5}\n{"step": 2, "loss": .5}\n',
    "leading zero": '{"step": 1, "loss": 25}\n{"step": 2, "loss": 05}\n',
    "leading zero step": '{"step": 1, "loss": 25}\n{"step": 02, "loss": 5}\n',
    "negative empty integer": '{"step": 1, "loss": -2.5}\n{"step": 2, "loss": -.5}\n',
    "negative empty fraction": '{"step": 1, "loss": -2.5e-3}\n{"step": 2, "loss": -2.e-3}\n',
    "exponent's leading zeros are JSON, a mantissa's not": '{"step": 1, "loss": 2.5e-05}\n'
                                                          '{"step": 2, "loss": 02.5e-05}\n',
    "negative leading zero": '{"step": 1, "loss": -25}\n{"step": 2, "loss": -05}\n',
    "empty value": '{"step": 1, "loss": 25}\n{"step": 2, "loss": }\n',
    "negative zero int": '{"step": 1, "loss": -2}\n{"step": 2, "loss": -0}\n',
    "blank line": _rows(3) + "\n" + _rows(3, 3),
    "noise line": _rows(3) + "step 3 saved\n" + _rows(3, 3),
    "no final newline": _rows(3)[:-1],
    "only a step": '{"step": 1}\n{"step": 2}\n',
    "boolean": '{"step": 1, "ok": true}\n{"step": 2, "ok": true}\n',
    "duplicate key": '{"step": 1, "loss": 2, "loss": 3}\n{"step": 2, "loss": 2, "loss": 3}\n',
    "huge step": '{"step": 1, "loss": 2}\n{"step": 99999999999999999999, "loss": 3}\n',
}


def _pair(state: dict | None = None) -> tuple[Emitter, Emitter]:
    return Emitter(state), Emitter(state)


@pytest.mark.parametrize("state", [None, {"sig": "other", "run_start": True, "first_step": 0, "last_step": 400,
                                          "n": 7, "step_key": "step", "last_keys": ["loss"]}])
@pytest.mark.parametrize("name", list(BLOCKS))
def test_jsonl_fast_path_gives_the_record_points_and_state(name, state):
    text = BLOCKS[name]
    fast, slow = _pair(state)
    assert _parse_plain(text.encode(), fast, JsonLinesFormat()._parse_lines) is True
    JsonLinesFormat()._parse_lines(text, slow)
    assert emitted_points(fast) == emitted_points(slow) and emitted_points(fast)
    assert fast.state == slow.state
    assert (fast.runs, fast.set_aside, fast.started_new_run) == (slow.runs, slow.set_aside, slow.started_new_run)


@pytest.mark.parametrize("name", list(ODD))
def test_jsonl_odd_blocks_leave_the_fast_path(name):
    text = ODD[name]
    em = Emitter({"n": 3})
    assert _parse_plain(text.encode(), em, JsonLinesFormat()._parse_lines) is False
    assert len(em) == 0 and em.state == {"n": 3}


def test_jsonl_blocks_in_turn_keep_the_state():
    blocks = [_rows(100), '{"event": "start"}\n', _rows(50), _rows(30, 50), '{"step": 80, "loss": "x", "name": "b"}\n',
              _rows(20, 0)]
    fast, slow = _pair()
    for b in blocks:
        fmt = JsonLinesFormat()
        if not fmt.parse_plain(b.encode(), fast):  # as the reader does
            fmt.parse(b, fast)
        JsonLinesFormat()._parse_lines(b, slow)
        assert fast.state == slow.state
    assert emitted_points(fast) == emitted_points(slow) and fast.runs == slow.runs == 2


def test_jsonl_fast_path_values():
    em = Emitter()
    text = '{"loss": 2.5e-05, "step": 3.0}\n{"loss": 1.0e-05, "step": 4.9}\n{"loss": 7.5e-01, "step": 6.0}\n'
    assert _parse_plain(text.encode(), em, JsonLinesFormat()._parse_lines)
    assert emitted_points(em) == [("loss", [3, 4, 6], [2.5e-05, 1e-05, 0.75])]
    assert em.state == {"step_key": "step", "n": 3, "sig": em.state["sig"], "first_step": 3, "run_start": False,
                        "last_step": 6, "last_keys": ["loss"]}
