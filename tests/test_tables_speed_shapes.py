"""The table readers' block paths on the shapes real files have (which used to take the line-by-line pass): Lightning
CSVs with empty cells and CRLF ends, files whose header comes again, LLaMA-Factory JSON lines with nulls and time
strings, model-card tables repeated. Each gives the line-by-line pass's very points and state, and takes the block
path; random and single-byte edits either leave it or still give the line pass's points."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from training_check.tools.parsers.base import Emitter
from training_check.tools.parsers.detect import LINE_FORMATS
from training_check.tools.parsers.jsonl import _parse_plain as jsonl_all_numbers
from training_check.tools.parsers.text import clean_block
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource

from tests.helpers import edited, emitted_points, same_points


def _lightning(rows: int, crlf: bool = False) -> bytes:
    out = ["step,train_loss,lr,grad_norm,val_loss,val_acc"]
    for i in range(1, rows + 1):
        out.append(f"{i},{2.3 - i / 1000:.6f},0.001,{0.6 + i % 7 / 10:.7f},,")
        if i % 50 == 0:
            out.append(f"{i},,,,{2.1 - i / 2000:.4f},{0.1 + i / 10000:.4f}")
    end = "\r\n" if crlf else "\n"
    return (end.join(out) + end).encode()


def _llamafactory(rows: int, start: int = 5) -> bytes:
    out = []
    for i in range(start, start + 5 * rows, 5):
        ev = f"{1.6 - i / 10000:.4f}" if i % 100 == 0 else "null"
        out.append(f'{{"current_steps": {i}, "total_steps": 8712, "loss": {1.75 - i / 9000:.4f}, "eval_loss": {ev}, '
                   f'"predict_loss": null, "reward": null, "learning_rate": {5e-05 * (1 - i / 9000)!r}, '
                   f'"epoch": {i / 8712:.2f}, "percentage": {i / 87.12:.2f}, '
                   f'"elapsed_time": "0:{i // 60:02d}:{i % 60:02d}", '
                   f'"remaining_time": "{i % 4} days, {i % 24}:06:09"}}')
    return ("\n".join(out) + "\n").encode()


CARD = (b"| Training Loss | Epoch | Step | Validation Loss | Wer    |\n"
        b"|:-------------:|:-----:|:----:|:---------------:|:------:|\n"
        b"| 0.0111        | 7.63  | 1000 | 0.3210          | 0.7888 |\n"
        b"| No log        | 15.27 | 2000 | 0.3585          | -      |\n"
        b"| 0.0003        | 22.9  | 3000 | 0.3937          | 0.7432 |\n")

SHAPES = {  # format, the block as a file starts, how the line pass reads it
    "lightning csv": ("csv", _lightning(120)),
    "lightning csv, CRLF": ("csv", _lightning(120, crlf=True)),
    "csv header again (appended run)": ("csv", _lightning(60) + _lightning(60)),
    "csv leading blank line, fractional and empty steps": ("csv", b"epoch,loss\n\n0.5,2.5\n1.5,2.25\n,2.0\n"),
    "llamafactory jsonl with nulls and times": ("jsonl", _llamafactory(200)),
    "llamafactory jsonl, steps restart": ("jsonl", _llamafactory(50) + _llamafactory(50)),
    "jsonl CRLF": ("jsonl", _llamafactory(20).replace(b"\n", b"\r\n")),
    "model card table": ("markdown_table", CARD),
    "model card repeated": ("markdown_table", CARD * 40),
    "model card with prose around": ("markdown_table", b"## Training results\n\n" + CARD + b"\n### Versions\n" + CARD),
}


def _slow(fmt: str, data: bytes, state: dict | None = None) -> Emitter:
    em = Emitter(state)
    text, _ = clean_block(data)
    LINE_FORMATS[fmt].parse(text, em)
    return em


@pytest.mark.parametrize("name", list(SHAPES))
def test_the_block_path_reads_what_the_line_pass_reads(name):
    fmt, data = SHAPES[name]
    fast = Emitter()
    assert LINE_FORMATS[fmt].parse_plain(data, fast)  # taken: no line-by-line fallback on this shape
    slow = _slow(fmt, data)
    assert emitted_points(fast) == emitted_points(slow) and len(fast) > 0
    assert fast.state == slow.state and fast.total_steps == slow.total_steps and fast.runs == slow.runs


def test_the_block_path_points_of_a_lightning_csv_and_a_card():
    em = Emitter()
    assert LINE_FORMATS["csv"].parse_plain(_lightning(100), em)
    pts = dict((k, (s, v)) for k, s, v in emitted_points(em))
    assert list(pts) == ["train_loss", "lr", "grad_norm", "val_loss", "val_acc"]  # the order rows first give them
    assert pts["val_loss"] == ([50, 100], [2.075, 2.05]) and pts["train_loss"][0] == list(range(1, 101))
    em = Emitter()
    assert LINE_FORMATS["markdown_table"].parse_plain(CARD * 2, em)
    pts = dict((k, (s, v)) for k, s, v in emitted_points(em))
    assert pts["train_loss"] == ([1000, 3000, 1000, 3000], [0.0111, 0.0003, 0.0111, 0.0003])  # "No log": no point
    assert pts["eval_wer"] == ([1000, 3000, 1000, 3000], [0.7888, 0.7432, 0.7888, 0.7432])  # "-": no point
    assert em.state["n"] == 7  # the second header row counts as a row, as the line pass counts it


def test_llamafactory_records_points_total_and_state():
    em = Emitter()
    data = _llamafactory(40)
    assert not jsonl_all_numbers(data, Emitter(), LINE_FORMATS["jsonl"]._parse_lines)  # nulls: not that path
    assert LINE_FORMATS["jsonl"].parse_plain(data, em)
    pts = dict((k, (s, v)) for k, s, v in emitted_points(em))
    assert "current_steps" not in pts and "total_steps" not in pts and "elapsed_time" not in pts
    assert pts["eval_loss"] == ([100, 200], [1.59, 1.58]) and pts["loss"][0][:3] == [5, 10, 15]
    assert em.total_steps == 8712 and em.state["last_step"] == 200 and em.state["n"] == 40


ODD = {  # each must leave the block path (the line pass reads them)
    "jsonl: a numeric string": ("jsonl", _llamafactory(3) + b'{"current_steps": 20, "total_steps": 8712, '
                                b'"loss": "1.5", "eval_loss": null, "predict_loss": null, "reward": null, '
                                b'"learning_rate": 1e-05, '
                                b'"epoch": 0.0, "percentage": 0.2, "elapsed_time": "0:00:20", '
                                b'"remaining_time": "1 days, 1:06:09"}\n'),
    "jsonl: a run name changes": ("jsonl", b'{"step": 1, "loss": 2.5, "run": "a"}\n'
                                  b'{"step": 2, "loss": 2.4, "run": "a"}\n{"step": 1, "loss": 2.5, "run": "b"}\n'),
    "jsonl: a time that reads as a number": ("jsonl", b'{"step": 1, "loss": 2.5, "time": "0:01"}\n'
                                             b'{"step": 2, "loss": 2.4, "time": "12.5"}\n'
                                             b'{"step": 3, "loss": 2.3, "time": "0:03"}\n'),
    "jsonl: an escaped quote": ("jsonl", b'{"step": 1, "loss": 2.5, "msg": "a:b"}\n'
                                b'{"step": 2, "loss": 2.4, "msg": "a\\":b"}\n{"step": 3, "loss": 2.3, "msg": "a:b"}\n'),
    "jsonl: true where a number was (pandas reads 1.0)": ("jsonl", b'{"step": 1, "loss": 2.5, "ok": 1}\n'
                                                         b'{"step": 2, "loss": 2.4, "ok": true}\n'
                                                         b'{"step": 3, "loss": 2.3, "ok": false}\n'),
    "jsonl: inf (not JSON, pandas reads it)": ("jsonl", b'{"step": 1, "loss": 2.5, "t": "0:1"}\n'
                                              b'{"step": 2, "loss": inf, "t": "0:2"}\n'
                                              b'{"step": 3, "loss": -Inf, "t": "0:3"}\n'),
    "jsonl: a sign before a string": ("jsonl", b'{"step": 1, "loss": 2.5, "t": "0:1"}\n'
                                      b'{"step": 2, "loss": 2.4, "t": -"0:2"}\n'
                                      b'{"step": 3, "loss": 2.3, "t": "0:3"-}\n'),
    "jsonl: numbers JSON rejects": ("jsonl", b'{"step": 1, "loss": 2.5, "t": "0:1"}\n'
                                    b'{"step": 2, "loss": -.5, "t": "0:2"}\n{"step": 3, "loss": 5., "t": "0:3"}\n'
                                    b'{"step": 04, "loss": +1, "t": "0:3"}\n'),
    "csv: a lone CR": ("csv", b"step,loss\n1,2.5\n2,2.4\r3,2.3\n"),
    "card: a row of another width": ("markdown_table", CARD + b"| 1 | 2 |\n|---|---|\n| 3 | 4 |\n"),
    "card: a space inside a cell": ("markdown_table", CARD + b"| 0.1 2 | 30.5 | 4000 | 0.4 | 0.7 |\n"),
}


@pytest.mark.parametrize("name", list(ODD))
def test_odd_blocks_leave_the_block_path_or_read_as_the_line_pass(name):
    fmt, data = ODD[name]
    fast = Emitter()
    if LINE_FORMATS[fmt].parse_plain(data, fast):  # parts read line by line inside: the same points
        slow = _slow(fmt, data)
        assert same_points(emitted_points(fast), emitted_points(slow)) and fast.state == slow.state
    else:
        assert len(fast) == 0 and fast.state == {}


POOL = list(b"0123456789.eE+- :,|{}\"\t\n\r\x1b@nulNo-logtfI") + [0xC3]


def _check(fmt: str, data: bytes, state: dict | None = None) -> None:
    fast = Emitter(state)
    if not LINE_FORMATS[fmt].parse_plain(data, fast):
        assert len(fast) == 0 and fast.state == Emitter(state).state
        return
    slow = _slow(fmt, data, state)
    assert same_points(emitted_points(fast), emitted_points(slow)), data
    assert fast.state == slow.state and fast.total_steps == slow.total_steps, data


SMALL = {
    "csv": _lightning(3)[:150],
    "jsonl": _llamafactory(3),
    "markdown_table": CARD[:60 * 4 + 2],
}
SMALL = {k: v[:v.rfind(b"\n") + 1] for k, v in SMALL.items()}


@st.composite
def mutated(draw, fmt: str) -> bytes:
    data = bytearray(SHAPES[{"csv": "lightning csv", "jsonl": "llamafactory jsonl with nulls and times",
                             "markdown_table": "model card repeated"}[fmt]][1][:3000])
    data = data[:data.rfind(b"\n") + 1]
    return edited(draw, data, POOL)


@pytest.mark.parametrize("fmt", list(SMALL))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_blocks(fmt, data):
    _check(fmt, data.draw(mutated(fmt)))


@pytest.mark.parametrize("fmt", list(SMALL))
def test_every_single_edit_of_a_small_block(fmt):
    base = SMALL[fmt]
    assert LINE_FORMATS[fmt].parse_plain(base, Emitter())
    for at in range(len(base) + 1):
        for ch in set(POOL):
            _check(fmt, base[:at] + bytes([ch]) + base[at:])
            if at < len(base):
                _check(fmt, base[:at] + bytes([ch]) + base[at + 1:])
        if at < len(base):
            _check(fmt, base[:at] + base[at + 1:])


@pytest.mark.parametrize("name", ["lightning csv", "llamafactory jsonl with nulls and times", "model card repeated"])
def test_a_file_read_in_small_chunks_gives_the_points_of_one_read(tmp_path, name):
    fmt, data = SHAPES[name]
    path = tmp_path / {"csv": "metrics.csv", "jsonl": "trainer_log.jsonl", "markdown_table": "README.md"}[fmt]
    path.write_bytes(data * 3)
    whole = LogFileSource(LocalFileSystem(), str(path), settle_seconds=0).read(None)
    src = LogFileSource(LocalFileSystem(), str(path), settle_seconds=0, chunk_bytes=4096, part_bytes=4096)
    res, batches = src.read(None), []
    batches.append(res.batch)
    while res.more:
        res = src.read(res.cursor)
        batches.append(res.batch)
    assert whole.cursor["format"] == fmt
    merged = {k: [] for k in whole.batch.columns}
    for b in batches:
        for k, c in b.columns.items():
            merged[k].extend(zip(c.steps.tolist(), c.values.tolist(), strict=True))
    assert {k: list(zip(c.steps.tolist(), c.values.tolist(), strict=True)) for k, c in whole.batch.columns.items()} \
        == merged
