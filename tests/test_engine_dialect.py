"""Issue 19 item 1: what the per-format readers knew is the engine's, as dialect data or a general rule. Each log
below is written for the rule, in shapes no corpus file has (we are judged on logs never seen), and read through
the real LogFileSource; the corpus files themselves are tests/test_corpus_parse.py's."""

from __future__ import annotations

import math
import os

from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource


def _read(tmp_path, text: str):
    p = tmp_path / "train.log"
    p.write_bytes(text.encode())
    os.utime(p, (1.0, 1.0))
    res = LogFileSource(LocalFileSystem(), str(p)).read(None)
    assert res.cursor["format"] == "text"
    return res, {k: (c.steps.tolist(), c.values.tolist()) for k, c in res.batch.columns.items()}


def test_source_locations_prose_and_setting_counts_are_no_metrics(tmp_path):
    """``[trainer_utils.py:41:log]`` is where a line was printed; ``lowering the scale from 1024 to 512`` is a
    sentence; ``Total Train Samples 9000`` a setting; a box-drawn table rule is drawing."""
    lines = []
    for i in range(1, 7):
        lines.append(f"[2024-05-01 10:00:0{i}] [trainer_utils.py:41:log] iteration {i} loss {3 - i / 10:.2f}\n")
        if i % 2 == 0:
            lines.append(f"[2024-05-01 10:00:0{i}] [scaler.cc:88:update] lowering the scale from 1024 to 512\n")
        if i % 3 == 0:
            lines.append(f"Starting epoch {i // 3}, Total Train Samples {9000 + i}\n")
            lines.append("\u2501" * 12 + f" {i}s\n")
    _res, pts = _read(tmp_path, "".join(lines))
    assert pts["loss"] == ([1, 2, 3, 4, 5, 6], [2.9, 2.8, 2.7, 2.6, 2.5, 2.4])
    for junk in pts:
        assert ".py" not in junk and ".cc" not in junk and not junk.endswith(("from", "to")), junk
        assert "Total" not in junk and "\u2501" not in junk, junk


def test_settings_dumps_are_no_series(tmp_path):
    """A dotted-leader settings print (DeepSpeed, Megatron arguments) and a printed dict of settings, repeated per
    rank, are no metrics."""
    dump = ("  micro_batch_size ............ 4\n  warmup_ratio ................ 0.03\n"
            "  io_config ............... {'chunk_bytes': 1048576, 'queue_len': 8}\n")
    steps = "".join(f"step {i} | loss {2 - i / 10:.2f}\n" for i in range(1, 6))
    _res, pts = _read(tmp_path, dump + dump + steps)
    assert set(pts) == {"loss"}


def test_units_stay_in_names_and_a_nan_word_inside_a_name_is_a_word(tmp_path):
    """``fwd:12ms`` is ``fwd_ms``; ``(ms)`` after a name stays; ``count of nan batches: 0`` is a count of zero (the
    word nan inside a name), while ``loss: nan`` is a NaN."""
    lines = "".join(f"iter {i} | fwd:{10 + i}ms | wall time per step (ms): {100 + i} | count of nan batches: 0 | "
                    f"loss: {'nan' if i == 4 else 2 - i / 10}\n" for i in range(1, 5))
    _res, pts = _read(tmp_path, lines)
    assert pts["fwd_ms"] == ([1, 2, 3, 4], [11.0, 12.0, 13.0, 14.0])
    assert pts["wall time per step (ms)"][1] == [101.0, 102.0, 103.0, 104.0]
    assert pts["count of nan batches"] == ([1, 2, 3, 4], [0.0] * 4)
    assert pts["loss"][1][:3] == [1.9, 1.8, 1.7] and math.isnan(pts["loss"][1][3])


def test_event_lines_are_counted_at_their_step_never_a_nan_loss(tmp_path):
    """DeepSpeed's fp16 overflow lines, in any wording of the dialect's markers, count up (cumulative over the
    log, in line order across their shapes) at the step they happen at."""
    lines = []
    for i in range(1, 7):
        lines.append(f"step={i * 10} loss={3 - i / 10:.2f}\n")
        if i in (2, 3, 5):
            lines.append("[INFO] [fp16.py:12:_step] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: "
                         f"{2 ** (18 - i)}, reducing to {2 ** (17 - i)}\n")
        if i == 5:
            lines.append("[INFO] [fp16.py:12:_step] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 4096, "
                         "but hysteresis is 2. Reducing hysteresis to 1\n")
    _res, pts = _read(tmp_path, "".join(lines))
    assert pts["overflow_skips"] == ([20, 30, 50], [1.0, 2.0, 4.0])  # two at step 50: the count after both
    assert not any(math.isnan(v) for v in pts["loss"][1]) and len(pts["loss"][0]) == 6


def test_records_under_an_evaluation_banner_are_its_results(tmp_path):
    """A banner that announces an evaluation (no number of its own but its epoch) makes the line under it an eval:
    before any training step it is the initial one, at step 0."""
    lines = ["=== Evaluating on held-out set, Epoch 0/3 ===\nperplexity: 95.5\n"]
    for e in range(1, 4):
        lines += [f"update={e * 100 + k} loss={4 - e / 2 - k / 100:.3f}\n" for k in range(3)]
        lines.append(f"=== Evaluating on held-out set, Epoch {e}/3 ===\nperplexity: {90 - e * 10:.1f}\n")
    _res, pts = _read(tmp_path, "".join(lines))
    assert pts["eval_perplexity"] == ([0, 102, 202, 302], [95.5, 80.0, 70.0, 60.0])
    assert "perplexity" not in pts


def test_epoch_end_records_and_a_final_test_line(tmp_path):
    """``end of epoch N`` closes epoch N: its record sits at the epoch's last step (N x batches), its time is the
    epoch's; a one-off final evaluation (``test loss``) is a point at the step it was printed at."""
    lines = []
    for e in (1, 2):
        lines += [f"| epoch {e} | {b:4d}/ 500 batches | loss {5 - e - b / 1000:.2f}\n" for b in (100, 300)]
        lines.append(f"| end of epoch {e} | time: {30 + e}.5s | valid loss {4.5 - e / 2:.2f} | "
                     f"valid ppl {90 - e:.1f}\n")
    lines.append("| End of training | test loss 3.40 | test ppl 29.9\n")
    _res, pts = _read(tmp_path, "".join(lines))
    assert pts["loss"][0] == [100, 300, 600, 800]
    assert pts["valid_loss"] == ([500, 1000], [4.0, 3.5])
    assert pts["epoch_time_s"] == ([500, 1000], [31.5, 32.5])  # the epoch's time, its unit kept
    assert pts["test_loss"] == ([1000], [3.4]) and pts["test_ppl"] == ([1000], [29.9])


def test_a_meter_of_running_averages_is_the_epochs_record(tmp_path):
    """Keras 2's ``[====]`` meter redraws the epoch's running averages: one point an epoch (its last state, the
    evals with it), at the epoch, as History records it; the run's length is its epoch count."""
    out = []
    for e in (1, 2, 3):
        out.append(f"Epoch {e}/3\n")
        for n in (8, 16, 32):
            tail = f" - val_loss: {1.5 / e:.4f}" if n == 32 else ""
            bar = "=" * 8 if n == 32 else ("=" * (n // 4 - 1) + ">").ljust(8, ".")
            out.append(f"\r{n}/32 [{bar}] - ETA: 0s - loss: {1 / (e * n):.4f}{tail}")
        out.append("\n")
    res, pts = _read(tmp_path, "".join(out))
    assert pts["loss"] == ([1, 2, 3], [round(1 / 32, 4), round(1 / 64, 4), round(1 / 96, 4)])
    assert pts["val_loss"] == ([1, 2, 3], [1.5, 0.75, 0.5])
    assert res.info.total_steps == 3


def test_at_glued_digits_name_and_a_fixed_count_is_no_progress_counter(tmp_path):
    """``Recall@10 0.42`` is one name; a logger's ``0/500``, ``0/1000``... (epoch/step: the count stays while the
    "total" moves) is no progress counter and gives no steps."""
    lines = []
    for i in range(1, 6):
        lines.append(f"[timer] 0/{i * 500}, SamplesPerSec={100 + i}\n")
        lines.append(f"global_step={i * 500} loss={2 - i / 10:.1f} Recall@10 {0.4 + i / 100:.2f}\n")
    _res, pts = _read(tmp_path, "".join(lines))
    assert pts["Recall@10"] == ([500, 1000, 1500, 2000, 2500], [0.41, 0.42, 0.43, 0.44, 0.45])
    assert pts["loss"][0] == [500, 1000, 1500, 2000, 2500]
    assert "Recall@" not in pts


def test_the_planned_length_from_a_config_line_or_the_runs_own_counter(tmp_path):
    """A run states its planned length: a config line (``total_steps=4500``) or a counter of its own steps
    (``[120/4500]``) that never starts again; a per-epoch counter that starts again is no run length."""
    body = "".join(f"step {s} loss={2.0 - s / 1000:.4f} lr=1.000e-03\n" for s in range(10, 101, 10))
    res, cols = _read(tmp_path, "training config: lr=0.001 total_steps=4500 seed=2\n" + body)
    assert res.info.total_steps == 4500 and cols["loss"][0][:2] == [10, 20]
    bar = "".join(f"[{s}/4500] loss: {2.0 - s / 1000:.4f} | lr: 1.000e-03\n" for s in range(10, 101, 10))
    res, cols = _read(tmp_path, bar)
    assert res.info.total_steps == 4500 and cols["loss"][0][-1] == 100
    epochs = "".join(f"[{b}/50] loss: {2.0 - (e * 50 + b) / 1000:.4f}\n"
                     for e in range(3) for b in (1, 10, 20, 30, 40, 50))
    res, cols = _read(tmp_path, epochs)
    assert res.info.total_steps is None and cols["loss"][0][-1] == 150
