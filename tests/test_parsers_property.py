"""Property-based: any split of a log into appended chunks gives the points of one read, and random
bytes never raise anything but a TrainingCheckError."""

from __future__ import annotations

import os
import tempfile
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from training_check.tools.errors import TrainingCheckError
from training_check.tools.points import PointBatch
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource

FS = LocalFileSystem()

LOGS = {
    "modded": "".join(f"step:{i}/40 train_loss:{5 - i / 10:.4f} train_time:{i}ms "
                      f"step_avg:{'nan' if i < 3 else '1.0'}ms\n"
                      + (f"step:{i}/40 val_loss:{5 - i / 9:.4f} train_time:{i}ms step_avg:1.0ms\n"
                         if i % 10 == 0 else "")
                      for i in range(40)),
    # one record a line (a terminal-wrapped record is read whole only once the log shows the terminal's width,
    # three wrapped lines: tests/test_logfile_source.py::test_wrapped_megatron_record_split_across_reads)
    "megatron": "".join(
        f"[default7]: iteration {i:8d}/ 100 | consumed samples: {i * 8:8d} | elapsed time per iteration (s): 1.5 | "
        f"learning rate: 1.0E-04 | lm loss: {3 - i / 50:.6E} | grad norm: 0.{i + 1:03d} | number of nan "
        f"iterations:  0 | TFLOPs: {150 + i / 7:.{i % 4}f} |\n" + (
            f"[default7]: validation loss at iteration {i} | lm loss value: {3.1 - i / 50:.6E} | lm loss PPL: "
            f"{20 - i / 3:.6E} |\n" if i % 8 == 0 else "")
        + ("[2022-01-19 13:09:13,305] [INFO] [stage_1_and_2.py:1644:step] [deepscale] OVERFLOW! Rank 0 Skipping "
           "step. Attempted loss scale: 65536.0, reducing to 32768.0\n" if i % 5 == 0 else "")
        for i in range(1, 25)),
    "wordlm": "Namespace(epochs=3, lr=20)\n" + "".join(
        "".join(f"| epoch {e:3d} | {b:5d}/  600 batches | lr 20.00 | ms/batch 11.0 | "
                f"loss {6 - e / 3 - b / 1000:5.2f} | ppl 300.0\n"
                for b in (200, 400, 600))
        + f"| end of epoch {e:3d} | time: 35.58s | valid loss {5.5 - e / 10:5.2f} | valid ppl 250.0\n"
        for e in (1, 2, 3)),
    "keras": "".join("Building and compiling model ...\n" + "".join(
        f"Epoch {e}/3\n10s - loss: {r + 2 - e / 3:.4f} - acc: 0.5 - val_loss: {r + 2:.4f} - val_acc: 0.4\n"
        for e in (1, 2, 3))
        for r in range(3)),
    "tqdm": "".join(f"Epoch {e}:  50%|#    | 5/10 [00:01<00:01, 5.0it/s, loss={3 - e / 10:.3f}]\r"
                    f"Epoch {e}: 100%|#####| 10/10 [00:02<00:00, 5.0it/s, loss={2 - e / 10:.3f}]\n" for e in range(8)),
    "jsonl": "".join(f'{{"iteration": {i}, "total_loss": {2 - i / 100}, "lr": 0.001}}\n' for i in range(19, 400, 20)),
    "csv": "epoch,step,train_loss,val_loss\n" + "".join(
        f"{i // 5},{i},{3 - i / 50},\n" + (f"{i // 5},{i},,{3 - i / 40}\n" if i % 5 == 4 else "") for i in range(30)),
    "deepspeed": "".join(f"[2023-04-18 01:46:59,142] [INFO] [logging.py:96:log_dist] [Rank 0] step={i * 10}, "
                         f"skipped=0, lr=[1e-05, 1e-05], mom=[(0.9, 0.95)]\n"
                         + ("***** Evaluating perplexity, Epoch 1/2 *****\nppl: 2.5\n" if i % 4 == 0 else "")
                         for i in range(20)),
}


def _points(batch: PointBatch):
    return {k: list(zip(c.steps.tolist(), c.values.tolist(), strict=True)) for k, c in batch.columns.items()}


def _old(path: str) -> None:
    t = time.time() - 3600
    os.utime(path, (t, t))


def _in_parts(raw: bytes, cuts: list[int]) -> tuple[PointBatch, PointBatch]:
    """(the points of ``raw`` read as it grows, cut at ``cuts`` and then settled; the points of one read)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "train.log")
        open(path, "wb").close()
        src = LogFileSource(FS, path, chunk_bytes=4096)
        acc, cursor = PointBatch(), None
        prev = 0
        for cut in cuts + [len(raw)]:
            with open(path, "ab") as f:
                f.write(raw[prev:cut])
            prev = cut
            res = src.read(cursor)
            acc = res.batch if res.reset else acc.extend(res.batch)
            cursor = res.cursor
        _old(path)
        res = src.read(cursor)  # the settled file: a final line without newline counts now
        acc = res.batch if res.reset else acc.extend(res.batch)
        return acc, LogFileSource(FS, path).read(None).batch


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(LOGS)), data=st.data())
def test_random_appended_chunks_equal_one_read(name, data):
    raw = LOGS[name].encode()
    cuts = sorted(set(data.draw(st.lists(st.integers(1, len(raw) - 1), max_size=8))))
    acc, one = _in_parts(raw, cuts)
    assert _points(acc) == _points(one)
    assert one.n_points > 0


@settings(max_examples=60, deadline=None)
@given(blob=st.binary(max_size=4096))
def test_random_bytes_raise_only_training_check_errors(blob):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "junk.log")
        with open(path, "wb") as f:
            f.write(blob)
        _old(path)
        try:
            LogFileSource(FS, path).read(None)
        except TrainingCheckError as e:
            assert "\n" not in str(e)


@settings(max_examples=40, deadline=None)
@given(lines=st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80), max_size=30))
def test_random_text_raises_only_training_check_errors(lines):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "text.log")
        with open(path, "wb") as f:
            f.write("\n".join(lines).encode("utf-8", errors="replace"))
        _old(path)
        try:
            LogFileSource(FS, path).read(None)
        except TrainingCheckError as e:
            assert "\n" not in str(e)


@pytest.mark.parametrize("cuts", [[199], [50, 250]])
def test_a_young_log_of_same_width_records_is_no_wrapping_terminal(cuts):
    """word_language_model's records are all as wide as each other: read young, the record after an epoch's last
    one ('| end of epoch 1 | ...', a record start) had been taken for the rest of a terminal-wrapped line."""
    acc, one = _in_parts(LOGS["wordlm"].encode(), cuts)
    assert _points(acc) == _points(one)
    assert "epoch_time_s" in one.columns
