"""Generic log lines seen in the wild (written here from the projects' print formats): steps from words and
brackets, log-level prefixes, eval lines, space-separated pairs, fairseq bars."""

from __future__ import annotations

import os

from training_check.tools.parsers import detect_format
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource


def points(tmp_path, data: bytes) -> tuple[str, dict]:
    """(format, {metric: (steps, values)}) of one read of ``data`` as a settled log file by the real source."""
    p = tmp_path / "train.log"
    p.write_bytes(data)
    os.utime(p, (1.0, 1.0))
    res = LogFileSource(LocalFileSystem(), str(p)).read(None)
    return res.cursor["format"], {k: (list(c.steps), list(c.values)) for k, c in res.batch.columns.items()}


def test_step_written_as_a_word(tmp_path):
    fmt, p = points(tmp_path, b"Epoch 1, Step 200, Loss: 2.5, LR: 0.0003\nEpoch 1, Step 300, Loss: 2.4, LR: 0.0003\n")
    assert p["Loss"] == ([200, 300], [2.5, 2.4])


def test_log_level_prefix_is_not_part_of_the_step_key(tmp_path):
    fmt, p = points(tmp_path, b"[2024-01-01 10:00:00] INFO step=10 train/loss=2.5\n"
                              b"[2024-01-01 10:00:01] INFO step=20 train/loss=2.4\n")
    assert p["train/loss"] == ([10, 20], [2.5, 2.4]) and not any("step" in k for k in p)


def test_mmengine_epoch_and_iteration_brackets(tmp_path):
    line = "2023/01/01 - mmengine - INFO - Epoch(train)  [2][ 50/500]  lr: 1.0e-02  grad_norm: 3.5  loss: 1.25\n"
    second = line.replace("[ 50/500]", "[100/500]").replace("1.25", "1.20")
    fmt, p = points(tmp_path, line.encode() * 1 + second.encode())
    assert p["loss"] == ([550, 600], [1.25, 1.20])


def test_validation_lines_become_eval_metrics(tmp_path):
    fmt, p = points(tmp_path, b"step=1 loss=2.5 lr=0.1\nstep=2 loss=2.4 lr=0.1\nValidation: step=2 loss=2.6 acc=0.5\n")
    assert p["loss"] == ([1, 2], [2.5, 2.4]) and p["val_loss"] == ([2], [2.6]) and p["val_acc"] == ([2], [0.5])


def test_space_separated_pairs(tmp_path):
    data = b"".join(f"epoch 1 step {i} loss {3 - i / 100:.2f} lr 3e-4 grad_norm 1.2\n".encode()
                    for i in range(0, 50, 10))
    assert detect_format(data).format == "text"
    fmt, p = points(tmp_path, data)
    assert p["loss"][0] == [0, 10, 20, 30, 40] and p["loss"][1][-1] == 2.6 and p["grad_norm"][1][0] == 1.2


def test_fairseq_bars_with_a_valid_line(tmp_path):
    data = (b"| epoch 001 | loss 9.812 | ppl 899.2 | wps 9300 | num_updates 1000 | lr 0.0005 | gnorm 1.2\n"
            b"| epoch 002 | loss 8.1 | ppl 274.4 | wps 9300 | num_updates 2000 | lr 0.0005 | gnorm 1.1\n"
            b"| epoch 002 | valid on 'valid' subset | loss 8.3 | ppl 315 | num_updates 2000\n")
    fmt, p = points(tmp_path, data)
    assert p["loss"] == ([1000, 2000], [9.812, 8.1]) and p["val_loss"] == ([2000], [8.3])


def test_a_step_counter_with_a_total_gives_the_runs_planned_length(tmp_path):
    """llm.c's ``step    1/19560 | loss ...``: the counter's total (no epoch on the line) is the run's length."""
    p = tmp_path / "train.log"
    p.write_bytes(b"".join(f"step {i:4d}/19560 | loss {11 - i / 100:.6f} (+nanz)| norm 1.5 | lr 6e-04 | 450 ms\n"
                           .encode() for i in range(1, 6)))
    os.utime(p, (1.0, 1.0))
    res = LogFileSource(LocalFileSystem(), str(p)).read(None)
    assert list(res.batch.columns["loss"].steps) == [1, 2, 3, 4, 5]
    assert res.info.total_steps == 19560


def test_a_batch_counter_with_a_total_is_not_the_runs_length(tmp_path):
    p = tmp_path / "train.log"
    p.write_bytes(b"".join(f"batch {i}/50 loss {2 - i / 100:.3f} lr 0.1\n".encode() for i in range(1, 6)))
    os.utime(p, (1.0, 1.0))
    assert LogFileSource(LocalFileSystem(), str(p)).read(None).info.total_steps is None
