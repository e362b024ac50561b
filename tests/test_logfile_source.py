"""LogFileSource and TfEventsSource read incrementally: appends (mid-line cuts too), truncation,
rotation, replacement, documents, giant lines across chunks, half-written event records."""

from __future__ import annotations

import os
import struct
import time

import numpy as np
from training_check.tools.points import PointBatch
from training_check.tools.sources import open_path_source
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource
from training_check.tools.sources.tfevents import TfEventsSource, decode_event, is_tfevents_name

FS = LocalFileSystem()


def _lines(start: int, stop: int) -> bytes:
    return "".join(f"step:{i}/1000 train_loss:{10 - i / 100:.4f} train_time:{i * 10}ms step_avg:10.00ms\n"
                   for i in range(start, stop)).encode()


def _points(batch: PointBatch) -> dict[str, list[tuple[int, float]]]:
    return {k: list(zip(c.steps.tolist(), c.values.tolist(), strict=True)) for k, c in batch.columns.items()}


def _read_all(src, cursor=None):
    """Follow reads like the store does: apply resets, extend otherwise."""
    res = src.read(cursor)
    return res


def test_append_in_pieces_with_mid_line_cuts_equals_one_read(tmp_path):
    full = _lines(0, 300)
    p = tmp_path / "train.log"
    cuts = [0, 17, 18, 1000, 1001, 5555, 9000, len(full) - 3, len(full)]
    acc = PointBatch()
    cursor = None
    src = LogFileSource(FS, str(p), chunk_bytes=4096)
    for a, b in zip(cuts, cuts[1:], strict=False):
        with open(p, "ab") as f:
            f.write(full[a:b])
        res = src.read(cursor)
        assert not res.reset
        acc = acc.extend(res.batch)
        cursor = res.cursor
        complete = full[:b].rfind(b"\n") + 1
        assert cursor.get("offset", 0) == complete  # a half-written line stays unread
    one = LogFileSource(FS, str(p)).read(None)
    assert _points(acc) == _points(one.batch)
    assert len(one.batch.columns["train_loss"]) == 300


def test_incremental_read_costs_only_the_new_bytes(tmp_path):
    p = tmp_path / "train.log"
    p.write_bytes(_lines(0, 5000))
    src = LogFileSource(FS, str(p))
    first = src.read(None)
    extra = _lines(5000, 5010)
    with open(p, "ab") as f:
        f.write(extra)
    res = src.read(first.cursor)
    assert res.batch.columns["train_loss"].steps.tolist() == list(range(5000, 5010))
    assert res.bytes_read <= len(extra) + 4096 + 2 * 256  # new bytes + the head check + the bytes before the cursor


def test_truncated_file_resets(tmp_path):
    p = tmp_path / "train.log"
    p.write_bytes(_lines(0, 100))
    src = LogFileSource(FS, str(p))
    first = src.read(None)
    p.write_bytes(_lines(0, 10))
    res = src.read(first.cursor)
    assert res.reset and any("truncated" in n for n in res.notes)
    assert res.batch.columns["train_loss"].steps.tolist() == list(range(10))


def test_replaced_file_resets(tmp_path):
    p = tmp_path / "train.log"
    p.write_bytes(_lines(0, 100))
    src = LogFileSource(FS, str(p))
    first = src.read(None)
    p.write_bytes(b"s:0 trl:9.0\n" + b"s:1 trl:8.0\n" * 1000)
    res = src.read(first.cursor)
    assert res.reset and any("replaced" in n for n in res.notes)
    assert res.cursor["format"] == "text"
    assert res.batch.columns["train_loss"].values.tolist() == [9.0, 8.0]  # one point a step: the last


def test_new_file_with_the_same_head_is_a_replacement(tmp_path):
    p = tmp_path / "train.log"
    p.write_bytes(_lines(0, 200))
    src = LogFileSource(FS, str(p))
    first = src.read(None)
    other = tmp_path / "new.log"
    other.write_bytes(_lines(0, 250))  # a restarted run printing the same first lines
    os.replace(other, p)
    res = src.read(first.cursor)
    assert res.reset and res.batch.columns["train_loss"].steps.tolist() == list(range(250))


def test_rotation_reads_the_rest_of_the_old_file_first(tmp_path):
    p = tmp_path / "train.log"
    p.write_bytes(_lines(0, 100))
    src = LogFileSource(FS, str(p))
    first = src.read(None)
    with open(p, "ab") as f:
        f.write(_lines(100, 120))
    os.rename(p, str(p) + ".1")
    p.write_bytes(_lines(120, 130))
    res = src.read(first.cursor)
    assert not res.reset
    assert res.batch.columns["train_loss"].steps.tolist() == list(range(100, 130))
    assert any("rotated" in n for n in res.notes)
    again = src.read(res.cursor)
    assert again.batch.is_empty()


def test_new_run_in_appended_part_resets_to_the_last_run(tmp_path):
    p = tmp_path / "keras.log"
    run = ("Building and compiling model ...\nEpoch 1/2\n1s - loss: {a} - val_loss: 2.0\n"
           "Epoch 2/2\n1s - loss: {b} - val_loss: 1.0\n")
    p.write_text(run.format(a=3, b=2))
    src = LogFileSource(FS, str(p))
    first = src.read(None)
    assert not first.reset and first.batch.columns["loss"].values.tolist() == [3.0, 2.0]
    with open(p, "a") as f:
        f.write(run.format(a=5, b=4))
    res = src.read(first.cursor)
    assert res.reset and res.batch.columns["loss"].values.tolist() == [5.0, 4.0]
    assert any("2 runs" in n for n in res.notes)


def _wrapped(i: int, loss: float, width: int = 100) -> list[str]:
    """A Megatron record as a copy of a terminal ``width`` columns wide holds it: cut every ``width`` characters."""
    rec = (f" iteration {i:8d}/     100 | consumed samples: {i * 10:8d} | elapsed time per iteration (s): 1.0 | "
           f"learning rate: 1.0E-04 | lm loss: {loss:.6E} | grad norm: 0.5 | number of nan iterations:  0 | "
           f"TFLOPs: 100.0 |")
    return [rec[j:j + width] for j in range(0, len(rec), width)]


def test_wrapped_megatron_record_split_across_reads(tmp_path):
    """A record the terminal wrapped, cut by the end of a read: read whole (once) when the rest has come."""
    p = tmp_path / "meg.log"
    head = [ln for i in range(1, 5) for ln in _wrapped(i, 5.0 - i / 10)]
    p.write_text("\n".join(head + _wrapped(5, 4.0)[:1]) + "\n")
    src = LogFileSource(FS, str(p))
    first = src.read(None)
    assert first.cursor["format"] == "text"
    assert first.batch.columns["lm loss"].steps.tolist() == [1, 2, 3, 4]
    assert first.cursor["state"]["eng"].get("wrap_tail")
    with open(p, "a") as f:
        f.write("\n".join(_wrapped(5, 4.0)[1:]) + "\n")
    res = src.read(first.cursor)
    assert res.batch.columns["lm loss"].steps.tolist() == [5]
    assert res.batch.columns["lm loss"].values.tolist() == [4.0]
    assert res.batch.columns["learning rate"].values.tolist() == [1e-4]
    assert res.batch.columns["number of nan iterations"].values.tolist() == [0.0]


def test_document_is_reread_whole_when_it_changes(tmp_path):
    p = tmp_path / "trainer_state.json"
    p.write_text('{\n "log_history": [{"loss": 2.0, "step": 10}],\n "max_steps": 100\n}\n')
    src = LogFileSource(FS, str(p))
    first = src.read(None)
    assert first.batch.columns["loss"].steps.tolist() == [10]
    same = src.read(first.cursor)
    assert same.batch.is_empty() and not same.reset
    p.write_text('{\n "log_history": [{"loss": 2.0, "step": 10}, {"loss": 1.5, "step": 20}],\n "max_steps": 100\n}\n')
    res = src.read(first.cursor)
    assert res.reset and res.batch.columns["loss"].steps.tolist() == [10, 20]
    p.write_text('{\n "log_history": [{"loss": 2.0, "st')  # being written
    mid = src.read(res.cursor)
    assert mid.batch.is_empty() and any("being written" in n for n in mid.notes)


def test_giant_line_across_chunks_and_reads(tmp_path):
    p = tmp_path / "train.log"
    p.write_bytes(_lines(0, 5) + b"y" * 3_000_000)  # a giant half-written line
    src = LogFileSource(FS, str(p), chunk_bytes=1 << 20)
    first = src.read(None)
    assert first.cursor["skip_line"] and first.cursor["offset"] == p.stat().st_size
    with open(p, "ab") as f:
        f.write(b"yyyy\n" + _lines(5, 8))
    res = src.read(first.cursor)
    assert res.batch.columns["train_loss"].steps.tolist() == [5, 6, 7]


def test_progress_is_reported(tmp_path):
    p = tmp_path / "train.log"
    p.write_bytes(_lines(0, 3000))
    seen = []
    LogFileSource(FS, str(p), chunk_bytes=8192).read(None, progress=lambda d, t, m: seen.append((d, t)))
    assert len(seen) > 5 and seen[-1][0] == seen[-1][1]


def test_settled_file_without_final_newline_reads_its_last_line(tmp_path):
    p = tmp_path / "train.log"
    p.write_bytes(_lines(0, 3) + b"s:3 trl:1.0")
    p.write_bytes(b"s:0 trl:3.0\ns:1 trl:2.0")
    fresh = LogFileSource(FS, str(p)).read(None)
    assert fresh.batch.columns["train_loss"].steps.tolist() == [0]
    t = time.time() - 3600
    os.utime(p, (t, t))
    settled = LogFileSource(FS, str(p)).read(None)
    assert settled.batch.columns["train_loss"].steps.tolist() == [0, 1]


def test_open_path_source_dispatches_logs(tmp_path):
    p = tmp_path / "metrics.csv"
    p.write_text("step,loss\n1,2.0\n")
    src = open_path_source(FS, str(tmp_path))
    assert src.kind == "log" and src.read(None).batch.columns["loss"].values.tolist() == [2.0]


# -- TensorBoard -------------------------------------------------------------------------------
def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(no: int, wt: int, payload: bytes) -> bytes:
    key = _varint((no << 3) | wt)
    return key + (_varint(len(payload)) + payload if wt == 2 else payload)


def _event(step: int, simple: dict[str, float] | None = None, tensor: dict[str, float] | None = None) -> bytes:
    values = b""
    for tag, v in (simple or {}).items():
        values += _field(1, 2, _field(1, 2, tag.encode()) + _field(2, 5, struct.pack("<f", v)))
    for tag, v in (tensor or {}).items():
        tp = _field(1, 0, _varint(2)) + _field(2, 2, b"") + _field(6, 2, struct.pack("<d", v))  # DT_DOUBLE scalar
        values += _field(1, 2, _field(1, 2, tag.encode()) + _field(8, 2, tp))
    ev = _field(1, 1, struct.pack("<d", 1.0)) + _field(2, 0, _varint(step))
    if values:
        ev += _field(5, 2, values)
    return ev


def _record(data: bytes) -> bytes:
    return struct.pack("<Q", len(data)) + b"\0\0\0\0" + data + b"\0\0\0\0"


def test_tfevents_simple_values_tensors_and_partial_records(tmp_path):
    assert is_tfevents_name("events.out.tfevents.1644276506.host.1.0")
    assert not is_tfevents_name("train.log")
    step, scalars = decode_event(_event(7, {"loss": 1.5}, {"eval/acc": 0.25}))
    assert step == 7 and scalars == [("loss", 1.5), ("eval/acc", 0.25)]
    p = tmp_path / "events.out.tfevents.1.host"
    body = _record(_field(3, 2, b"brain.Event:2")) + b"".join(_record(_event(i, {"loss": 10.0 - i})) for i in range(50))
    nxt = _record(_event(50, {"loss": -1.0}, {"acc": 0.5}))
    p.write_bytes(body + nxt[:11])  # half a record at the end
    src = TfEventsSource(FS, [str(p)])
    first = src.read(None)
    assert first.batch.columns["loss"].steps.tolist() == list(range(50))
    assert first.cursor["files"][str(p)]["offset"] == len(body)
    with open(p, "ab") as f:
        f.write(nxt[11:])
    res = src.read(first.cursor)
    assert res.batch.columns["loss"].values.tolist() == [-1.0] and res.batch.columns["acc"].values.tolist() == [0.5]
    assert np.isfinite(res.batch.columns["acc"].values).all()
    p.write_bytes(_record(_event(0, {"loss": 3.0})))  # replaced by a shorter file
    again = src.read(res.cursor)
    assert again.reset and again.batch.columns["loss"].values.tolist() == [3.0]


def test_tfevents_rewritten_in_place_with_the_same_head_is_read_anew(tmp_path):
    """Issue 10: a file rewritten in place (same first bytes, same length or longer) must not mix two runs."""
    p = tmp_path / "events.out.tfevents.1.host"
    head = _record(_field(3, 2, b"brain.Event:2")) + b"".join(_record(_event(i, {"loss": 5.0})) for i in range(40))
    p.write_bytes(head + b"".join(_record(_event(i, {"loss": 1.0})) for i in range(40, 80)))
    src = TfEventsSource(FS, [str(p)])
    first = src.read(None)
    assert first.batch.columns["loss"].values.tolist() == [5.0] * 40 + [1.0] * 40
    # the same 40 first records, then a different run's tail, longer than before
    p.write_bytes(head + b"".join(_record(_event(i, {"loss": 9.0})) for i in range(40, 90)))
    again = src.read(first.cursor)
    assert again.reset and again.batch.columns["loss"].values.tolist() == [5.0] * 40 + [9.0] * 50
    assert again.notes[0] == f"{p.name} was truncated or replaced: re-read all event files"


def test_load_run_reads_a_log_incrementally_through_the_store(tmp_path, store, config):
    from training_check.tools.reading import load_run

    p = tmp_path / "train.log"
    p.write_bytes(_lines(0, 100))
    first = load_run(str(p), store=store, config=config)
    assert first.source.kind == "log" and first.frame.last_step == 99 and first.info.total_steps == 1000
    with open(p, "ab") as f:
        f.write(_lines(100, 110))
    second = load_run(str(p), store=store, config=config)
    assert second.new_points == 30 and second.frame.last_step == 109
    assert second.frame.primary_loss == "train_loss"


def test_lines_parsed_in_small_blocks_give_the_points_of_one_block(tmp_path, monkeypatch):
    """Issue 12: a chunk's lines are parsed in blocks of about PARSE_BYTES (a parser's per-line objects stay few);
    however small the blocks, the points are those of one block."""
    from training_check.tools.sources import logfile

    p = tmp_path / "train.log"
    p.write_bytes(_lines(0, 400) + b"x" * 300 + b"\n" + _lines(400, 500))
    old = time.time() - 3600
    os.utime(p, (old, old))
    one = LogFileSource(FS, str(p)).read(None)
    monkeypatch.setattr(logfile, "PARSE_BYTES", 64)  # smaller than a line: every block is a line or two
    small = LogFileSource(FS, str(p), max_line=200).read(None)
    assert _points(small.batch) == _points(one.batch) and len(one.batch.columns["train_loss"]) == 500
    assert small.cursor["offset"] == one.cursor["offset"] == p.stat().st_size
    assert small.notes == ["skipped 1 line(s) longer than 200 bytes"]


def test_a_line_longer_than_a_part_is_read_on_not_returned_forever(tmp_path):
    """A read returns after a part's worth of bytes (``more``), but only of whole lines: with a part smaller than a
    line, it had returned ``more`` at the same offset for ever."""
    p = tmp_path / "train.log"
    p.write_text("".join(f"step {i} loss {1 / (i + 1):.4f} {'x' * 6000}\n" for i in range(5)))
    src = LogFileSource(LocalFileSystem(), str(p), chunk_bytes=4096, part_bytes=4096, settle_seconds=0)
    res = src.read(None)
    offsets = [res.cursor["offset"]]
    for _ in range(20):
        if not res.more:
            break
        res = src.read(res.cursor)
        offsets.append(res.cursor["offset"])
    assert not res.more and offsets == sorted(set(offsets)), offsets
