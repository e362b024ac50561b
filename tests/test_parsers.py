"""Synthetic logs for what the corpus lacks: tqdm carriage returns, ANSI colours, nan/inf spellings,
giant lines, binary junk, bad UTF-8, empty files, unknown formats, and the generic formats."""

from __future__ import annotations

import csv
import io
import math
import os
import time
from pathlib import Path

import pytest
from training_check.tools.errors import TrainingCheckError, UnknownFormat
from training_check.tools.parsers import SAMPLE_BYTES, detect_format
from training_check.tools.parsers.text import clean_text, drop_giant_lines, to_value
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource


def _old(path, age: float = 3600.0):
    t = time.time() - age
    os.utime(path, (t, t))
    return path


def _read_file(tmp_path, name: str, data: bytes, settled: bool = True):
    """One read of ``data`` as a log file by the real source (LogFileSource), settled unless told."""
    p = tmp_path / name
    p.write_bytes(data)
    if settled:
        _old(p)
    return LogFileSource(LocalFileSystem(), str(p)).read(None)


def test_tqdm_redraws_are_points_at_their_global_step(tmp_path):
    """Issue 19: every redraw of a bar is a line of its own (``\\r``), its counter within the epoch makes the global
    step, and the last redraw at a step holds (Lightning's bar shows a step's loss on its second redraw)."""
    raw = ("Epoch 0:  10%|#         | 1/10 [00:01<00:09, 1.0it/s, loss=9.00]\r"
           "Epoch 0:  50%|#####     | 5/10 [00:05<00:05, 1.0it/s, loss=4.00]\r"
           "Epoch 0:  50%|#####     | 5/10 [00:05<00:05, 1.0it/s, loss=3.50]\r"
           "Epoch 0: 100%|##########| 10/10 [00:10<00:00, 1.0it/s, loss=2.31, lr=1e-3]\n"
           "Epoch 1: 100%|##########| 10/10 [00:10<00:00, 1.0it/s, loss=2.05, lr=5e-4]\r\n")
    assert clean_text("a\rb\rc\n") == "c\n"
    assert clean_text("x\r\n") == "x\n"
    res = _read_file(tmp_path, "train.log", raw.encode())
    assert res.cursor["format"] == "text"
    b = res.batch
    assert list(b.columns["loss"].steps) == [1, 5, 10, 20]
    assert list(b.columns["loss"].values) == [9.0, 3.5, 2.31, 2.05]
    assert b.columns["lr"].values[-1] == pytest.approx(5e-4)


def test_ansi_colours_and_rank_prefixes_are_ignored(tmp_path):
    raw = ("\x1b[32m[rank0]:\x1b[0m step:1/100 train_loss:5.0000 train_time:10ms step_avg:nanms\n"
           "\x1b[1;31mWARNING\x1b[0m something odd\n"
           "Traceback (most recent call last):\n  File \"x.py\", line 1\nValueError: boom\n"
           "\x1b[32m[rank0]:\x1b[0m step:2/100 train_loss:4.5000 train_time:20ms step_avg:10.00ms\n")
    res = _read_file(tmp_path, "train.log", raw.encode())
    assert res.cursor["format"] == "text"
    b = res.batch
    assert list(b.columns["train_loss"].values) == [5.0, 4.5]
    assert list(b.columns["step_avg_ms"].steps) == [2]  # nanms dropped
    assert res.info.total_steps == 100


@pytest.mark.parametrize("spelling,expected", [
    ("nan", math.nan), ("NaN", math.nan), ("-nan", math.nan), ("NAN", math.nan), ("inf", math.inf),
    ("Inf", math.inf), ("-inf", -math.inf), ("Infinity", math.inf), ("-Infinity", -math.inf), ("1e-3", 1e-3),
    ("2.775923E+00", 2.775923), ("174484659237355936.00", 174484659237355936.0), ("-1.3e+25", -1.3e25),
])
def test_nan_inf_and_scientific_spellings(tmp_path, spelling, expected):
    raw = f"s:0 trl:3.0\ns:1 trl:{spelling}\n".encode()
    res = _read_file(tmp_path, "train.log", raw)
    v = res.batch.columns["train_loss"].values[-1]
    if math.isnan(expected):
        assert math.isnan(v)
    else:
        assert v == expected


def test_fake_nan_words_are_not_values(tmp_path):
    assert to_value("nanms") is None
    assert to_value("12.5ms") == 12.5
    raw = b"step=1 loss=2.0 step_avg=nanms\nstep=2 loss=1.5 step_avg=3.0ms\n"
    res = _read_file(tmp_path, "train.log", raw)
    b = res.batch
    assert list(b.columns["step_avg_ms"].steps) == [2]  # the unit stays in the name


def test_overflow_lines_are_counted_not_nan(tmp_path):
    raw = (b" iteration       10/     100 | learning rate: 1.0E-04 | lm loss: 5.0E+00 | loss scale: 65536.0 | "
           b"grad norm: 1.5 | number of nan iterations:   0 |\n"
           b"[2022-01-19 13:09:13,305] [INFO] [stage_1_and_2.py:1644:step] [deepscale] OVERFLOW! Rank 0 Skipping step. "
           b"Attempted loss scale: 65536.0, reducing to 32768.0\n"
           b" iteration       11/     100 | learning rate: 1.0E-04 | lm loss: 4.9E+00 | loss scale: 32768.0 | "
           b"grad norm: 0.000 | number of nan iterations:   0 |\n")
    res = _read_file(tmp_path, "train.log", raw)
    b = res.batch
    assert res.cursor["format"] == "text"
    assert list(b.columns["overflow_skips"].values) == [1.0]
    assert list(b.columns["grad norm"].steps) == [10]  # 0.000 = not computed
    assert list(b.columns["lm loss"].values) == [5.0, 4.9]


def _hf_stdout(buffered: bool) -> bytes:
    """HF Trainer 5.x as ``python train.py > log 2>&1`` writes it: the bar on stderr (``\\r`` redraws), each log dict
    written by ``tqdm.write`` (the bar cleared, the dict, the bar redrawn at the same step) to stdout, which is
    block-buffered when redirected (``buffered``: the dicts come at the end) or not (they come in place)."""
    bar = "\r{:3d}%|#         | {}/30 [00:01<00:02, 9.5it/s]"
    clear = "\r" + " " * 48 + "\r"
    dicts = {10: ["{'loss': '2.5', 'grad_norm': '1.2', 'learning_rate': '5e-05', 'epoch': '0.3333'}"],
             20: ["{'loss': '0', 'grad_norm': 'nan', 'learning_rate': '4.9e-05', 'epoch': '0.6667'}",
                  "{'eval_loss': '1.9', 'eval_runtime': '3.2', 'epoch': '0.6667'}"],
             30: ["{'loss': '1.5', 'grad_norm': '1.1', 'learning_rate': '4.8e-05', 'epoch': '1'}",
                  "{'train_runtime': '100', 'train_samples_per_second': '3', 'train_loss': '1.1', 'epoch': '1'}"]}
    err, out = [], []
    for step in range(1, 31):
        if step % 3 == 0 or step in dicts:
            err.append(bar.format(step * 100 // 30, step))
        for d in dicts.get(step, []):
            if step == 20 and d.startswith("{'eval"):
                err.append("\r  0%|          | 0/2 [00:00<?, ?it/s]\r100%|##########| 2/2 [00:00<00:00]" + clear)
            err.append(clear)
            (out if buffered else err).append(d + "\n")
            err.append(bar.format(step * 100 // 30, step))
    return ("".join(err) + "".join(out)).encode()


@pytest.mark.parametrize("buffered", [True, False])
def test_hf_trainer_stdout_dicts_sit_at_their_optimizer_step(tmp_path, buffered):
    """Issue 19: HF's dicts carry no step; each was written at a bar redraw right after a clear (the step), in
    order, whether stdout printed them in place or at the end; the final summary's average train_loss is no point."""
    res = _read_file(tmp_path, "train.log", _hf_stdout(buffered))
    assert res.cursor["format"] == "text"
    b = res.batch
    assert list(b.columns["loss"].steps) == [10, 20, 30]
    assert list(b.columns["loss"].values) == [2.5, 0.0, 1.5]
    assert math.isnan(b.columns["grad_norm"].values[1])
    assert list(b.columns["eval_loss"].steps) == [20]
    assert "train_loss" not in b.columns and "train_runtime" not in b.columns


def test_jsonl_fairseq_strings_and_nested(tmp_path):
    raw = (b'{"epoch": 1, "update": 100, "loss": "9.12", "ppl": "556.1", "lr": "0.0005"}\n'
           b'{"epoch": 1, "update": 200, "loss": "NaN", "ppl": "inf", "lr": "0.0005", "extra": {"gnorm": 2.5}}\n')
    res = _read_file(tmp_path, "train.log", raw)
    assert res.cursor["format"] == "jsonl"
    b = res.batch
    assert list(b.columns["loss"].steps) == [100, 200]
    assert math.isnan(b.columns["loss"].values[-1]) and b.columns["ppl"].values[-1] == math.inf
    assert b.columns["extra/gnorm"].values[-1] == 2.5


def test_csv_sparse_rows_and_tsv(tmp_path):
    raw = b"epoch,step,train_loss,val_loss\n0,0,2.0,\n0,1,1.8,\n0,1,,1.9\n1,2,nan,\n"
    res = _read_file(tmp_path, "train.log", raw)
    b = res.batch
    assert res.cursor["format"] == "csv"
    assert list(b.columns["train_loss"].steps) == [0, 1, 2] and math.isnan(b.columns["train_loss"].values[-1])
    assert list(b.columns["val_loss"].steps) == [1]
    res = _read_file(tmp_path, "train.log", b"step\tloss\tacc\n1\t0.5\t0.7\n2\t0.4\t0.8\n")
    assert res.cursor["format"] == "csv" and list(res.batch.columns["acc"].values) == [0.7, 0.8]


def test_csv_step_column_by_name_with_a_prefix(tmp_path):
    """stable-baselines3's progress.csv (a real one): steps from `time/total_timesteps` (not the row index, not
    `time/iterations`), an empty cell not logged, and the note names the column; a padded `epoch` (Ultralytics'
    results.csv) and a Keras CSVLogger's `epoch` are the step too."""
    sb3 = (Path(__file__).resolve().parents[1] / "examples" / "libraries" / "sb3_ppo_cartpole_log1" /
           "progress.csv").read_bytes()
    res = _read_file(tmp_path, "progress.csv", sb3)
    rows = list(csv.DictReader(io.StringIO(sb3.decode())))
    want = [int(r["time/total_timesteps"]) for r in rows if r["train/loss"]]
    assert res.cursor["format"] == "csv" and list(res.batch.columns["train/loss"].steps) == want
    assert list(res.batch.columns["rollout/ep_rew_mean"].steps)[0] == int(rows[0]["time/total_timesteps"])
    assert "time/total_timesteps" not in res.batch.columns and "time/iterations" in res.batch.columns
    assert any("`time/total_timesteps`" in n for n in res.notes), res.notes
    res = _read_file(tmp_path, "results.csv", b"       epoch,  train/box_loss,   metrics/mAP50(B)\n"
                                              b"           1,          1.25,            0.1\n"
                                              b"           2,          1.10,            0.2\n")
    assert list(res.batch.columns["train/box_loss"].steps) == [1, 2]
    res = _read_file(tmp_path, "log.csv", b"time/iterations,train/loss\n1,0.9\n2,0.8\n")
    assert list(res.batch.columns["train/loss"].steps) == [1, 2]
    res = _read_file(tmp_path, "log.csv", b"loss,acc\n0.9,0.1\n0.8,0.2\n")
    assert list(res.batch.columns["loss"].steps) == [0, 1]
    assert any("no step column" in n for n in res.notes), res.notes


def test_generic_key_value_colon_lines(tmp_path):
    raw = b"noise line\nstep: 1, loss: 3.2, accuracy: 0.1\nepoch: 0 | iter: 2 | loss: 3.1 | accuracy: 0.2\n"
    res = _read_file(tmp_path, "train.log", raw)
    assert res.cursor["format"] == "text"
    b = res.batch
    assert list(b.columns["loss"].steps) == [1, 2]


def test_keras_multi_run_shows_last_run(tmp_path):
    run = "Epoch 1/2\n1s - loss: {a} - val_loss: {b}\nEpoch 2/2\n1s - loss: {c} - val_loss: {d}\n"
    raw = ("Building and compiling model ...\n" + run.format(a=1, b=2, c=0.5, d=1.5)
           + "Building and compiling model ...\n" + run.format(a=3, b=4, c=2.5, d=3.5)).encode()
    res = _read_file(tmp_path, "train.log", raw)
    assert res.cursor["format"] == "text" and res.reset
    assert res.notes == ["this file holds 2 runs; showing the last one (run 2); "
                         "set aside 4 point(s) of the earlier runs (2 of loss)"]
    assert list(res.batch.columns["loss"].values) == [3.0, 2.5]


def test_golden_values_string_nan_is_missing_but_number_nan_kept(tmp_path):
    doc = (b'{"lm loss": {"start_step": 1, "end_step": 4, "step_interval": 1, '
           b'"values": {"1": 10.0, "2": "nan", "3": NaN, "4": 9.0}}}')
    res = _read_file(tmp_path, "golden.json", doc)
    col = res.batch.columns["lm loss"]
    assert list(col.steps) == [1, 3, 4] and math.isnan(col.values[1])
    assert res.info.total_steps == 4


def test_giant_line_is_skipped(tmp_path):
    big = b"x" * (10 << 20)
    raw = b"s:0 trl:3.0\n" + big + b"\ns:1 trl:2.5\n"
    data, n = drop_giant_lines(raw)
    assert n == 1 and data == b"s:0 trl:3.0\ns:1 trl:2.5\n"
    res = _read_file(tmp_path, "big.log", raw)
    assert list(res.batch.columns["train_loss"].values) == [3.0, 2.5]
    assert any("longer than" in n for n in res.notes)


def test_binary_junk_is_a_clear_error(tmp_path):
    junk = bytes(range(256)) * 64
    with pytest.raises(UnknownFormat, match="binary"):
        _read_file(tmp_path, "junk.bin", junk)


def test_non_utf8_bytes_are_replaced(tmp_path):
    raw = b"s:0 trl:3.0 \xff\xfe\n\xc3\x28 garbage\ns:1 trl:2.0\n"
    res = _read_file(tmp_path, "latin.log", raw)
    assert list(res.batch.columns["train_loss"].values) == [3.0, 2.0]


def test_empty_file_gives_no_points_and_no_error(tmp_path):
    res = _read_file(tmp_path, "empty.log", b"")
    assert res.batch.is_empty() and res.cursor["offset"] == 0
    res = _read_file(tmp_path, "blank.log", b"\n\n  \n")
    assert res.batch.is_empty()


def test_metrics_without_a_loss_are_read_and_the_read_says_what_it_saw(tmp_path):
    raw = b"starting up\n" + b"".join(f"step {i} | images/s: {100 + i} | gpu_mem: 3.2G\n".encode() for i in range(1, 4))
    res = _read_file(tmp_path, "odd.log", raw)
    assert res.cursor["format"] == "text" and sorted(res.batch.columns) == ["gpu_mem", "images/s"]
    assert res.notes == ["no loss found yet: read images/s, gpu_mem; a sample line is in run_data"]
    assert res.info.config["log_sample_line"] == "step 1 | images/s: 101 | gpu_mem: 3.2G"


def test_a_sample_line_is_run_data_with_keys_masked(tmp_path):
    """Issue 10: a file given as a run may be a .env: a sample line never carries a key-like token."""
    raw = b"auth token=ghp_Abc123def456ghi789jkl\n" + b"".join(f"step {i} | images/s: {100 + i}\n".encode()
                                                             for i in range(1, 4))
    res = _read_file(tmp_path, "odd.log", raw)
    assert sorted(res.batch.columns) == ["images/s"]
    assert res.info.config["log_sample_line"] == "auth token=[hidden]"
    assert not any("sk-proj" in n for n in res.notes)


def test_text_with_no_metric_is_refused_without_quoting_the_file(tmp_path):
    """Issue 10: the file may be any file the caller names (a .env, /etc/shadow): its text is never quoted."""
    raw = b"hello world\nthe model is training nicely 42 widgets\nno metrics here\n" * 1000  # 70 KB: past start-up
    with pytest.raises(UnknownFormat) as e:
        _read_file(tmp_path, "prose.log", raw)
    n = _sample_lines(raw)
    assert str(e.value) == (f"{tmp_path / 'prose.log'}: no metric recognised: none of its first {n} lines reads as a "
                            f"name and a number; pass a training log with metric lines")
    words = b"hello world\nthe model is training nicely\n" * 2000
    with pytest.raises(UnknownFormat) as e:
        _read_file(tmp_path, "words.log", words)
    assert str(e.value) == (f"{tmp_path / 'words.log'}: no number in its first {_sample_lines(words)} lines to read "
                            f"as a metric; pass a training log with metric lines")


def _sample_lines(data: bytes) -> int:
    """The lines of the first window the detection looks at (its complete lines, and the empty one after them)."""
    window = data[:SAMPLE_BYTES]
    return window[:window.rfind(b"\n") + 1].count(b"\n") + 1


def test_a_short_file_of_prose_waits_at_any_age(tmp_path):
    """Issue 32: the same bytes read alike young or old: a few lines of start-up noise are no points yet, never an
    error that a minute more would have spared (the file's age decides only its last unterminated record)."""
    raw = b"hello world\nthe model is training nicely 42 widgets\nno metrics here\n"
    young, old = (_read_file(tmp_path, f"{age}.log", raw, settled=age == "old") for age in ("young", "old"))
    assert young.batch.is_empty() and old.batch.is_empty() and young.notes == old.notes


def test_detect_needs_complete_lines_only():
    assert detect_format(b"") is None
    det = detect_format(b"garbage\n" * 10 + b"s:5 trl:2.0\n")
    assert det is not None and det.format == "text" and det.found == (1, 0)


def test_errors_are_training_check_errors(tmp_path):
    p = tmp_path / "dir.log"
    p.mkdir()
    with pytest.raises(TrainingCheckError, match="directory"):
        LogFileSource(LocalFileSystem(), str(p)).read(None)
    with pytest.raises(TrainingCheckError, match="no such file"):
        LogFileSource(LocalFileSystem(), str(tmp_path / "missing.log")).read(None)
