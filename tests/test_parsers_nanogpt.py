"""nanoGPT and build-nanogpt console logs (formats written here from the projects' print statements)."""

from __future__ import annotations

import math
import os

from training_check.tools.frame import MetricFrame
from training_check.tools.parsers import detect_format
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource

NANOGPT = b"""Overriding config with config/train_shakespeare_char.py:
tokens per iteration will be: 16,384
step 0: train loss 4.2874, val loss 4.2823
iter 0: loss 4.2639, time 12006.86ms, mfu -100.00%
iter 10: loss 3.2164, time 59.49ms, mfu 6.26%
iter 20: loss nan, time 59.01ms, mfu 6.27%
step 250: train loss 1.9712, val loss 2.0733
saving checkpoint to out-shakespeare-char
iter 250: loss 2.0374, time 10334.10ms, mfu 5.65%
"""

BUILD = b"""total desired batch size: 524288
validation loss: 10.9497
HellaSwag accuracy: 2487/10042=0.2477
step     0 | loss: 10.955029 | lr 8.3916e-07 | norm: 15.4103 | dt: 85432.91ms | tok/sec: 6136.85
step     1 | loss: 10.880219 | lr 1.6783e-06 | norm: 14.8781 | dt: 331.45ms | tok/sec: 1581784.28
"""


def read_log(tmp_path, data: bytes):
    """One read of ``data`` as a settled log file by the real source."""
    p = tmp_path / "train.log"
    p.write_bytes(data)
    os.utime(p, (1.0, 1.0))
    return LogFileSource(LocalFileSystem(), str(p)).read(None)


def test_nanogpt_iter_and_eval_lines(tmp_path):
    """The engine reads them (no reader of their own): the per-iteration loss is the primary train loss; the
    eval line's train-split estimate keeps its own name."""
    assert detect_format(NANOGPT).format == "text"
    res = read_log(tmp_path, NANOGPT)
    assert res.cursor["format"] == "text"
    b = res.batch
    loss = b.columns["loss"]
    assert list(loss.steps) == [0, 10, 20, 250]
    assert loss.values[1] == 3.2164 and math.isnan(loss.values[2])
    assert list(b.columns["val_loss"].steps) == [0, 250] and b.columns["val_loss"].values[-1] == 2.0733
    assert list(b.columns["train loss"].steps) == [0, 250] and b.columns["train loss"].values[-1] == 1.9712
    assert b.columns["mfu"].values[0] == -100.0 and b.columns["time_ms"].values[1] == 59.49
    assert MetricFrame.from_batch(b).primary_loss == "loss"


def test_build_nanogpt_lines_attach_validation_to_the_next_step(tmp_path):
    assert detect_format(BUILD).format == "text"
    b = read_log(tmp_path, BUILD).batch
    assert list(b.columns["loss"].values) == [10.955029, 10.880219]
    assert list(b.columns["val_loss"].steps) == [0]
    assert b.columns["grad_norm"].values[1] == 14.8781 and b.columns["lr"].values[0] == 8.3916e-07
    assert b.columns["tokens_per_sec"].values[1] == 1581784.28 and b.columns["step_time_ms"].values[1] == 331.45
