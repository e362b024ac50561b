"""Horizontal tables whose header is printed once and whose rows come between progress-bar redraws (DESIGN.md,
"Records, not lines", kind (b)): fastai's fastprogress table (``epoch  train_loss  valid_loss  accuracy  time``,
a bar per epoch redrawn with ``\\r``, cleared to its label over blanks, a lone bar glyph, then the epoch's row),
tqdm bars between the rows of a header of short words (``step  loss  lr``, values like ``1.0e-03``); and the
shapes around them the engine already reads, kept: nested ``[epoch][i/N]`` counters with ``eta:``/``time:``
fields, ``loss: 0.5 (0.6)`` running averages, ``key: value`` lists apart by two blanks. Each log is written as
the library prints it and read by the one engine through the real LogFileSource, whole and in pieces."""

from __future__ import annotations

import os

import pytest
from training_check.tools.parsers.tables_text import is_bar
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource

from .test_engine_tables import _in_reads


def _read(tmp_path, data: bytes) -> dict[str, tuple[list[int], list[float]]]:
    p = tmp_path / "train.log"
    p.write_bytes(data)
    os.utime(p, (1.0, 1.0))
    res = LogFileSource(LocalFileSystem(), str(p)).read(None)
    return {k: (c.steps.tolist(), c.values.tolist()) for k, c in res.batch.columns.items()}


def _fastprogress(epochs: int, batches: int, metrics: bool = True) -> tuple[bytes, list[float]]:
    """fastai's output with no TTY: the header once, then per epoch a train bar and a valid bar (each redrawn with
    ``\\r``, then cleared to its label), a lone ``█`` line, and the epoch's row."""
    head = "epoch     train_loss  valid_loss  " + ("accuracy  " if metrics else "") + "time    "
    out = ["\u2588\r" + head + "\n"]
    losses = []
    for e in range(epochs):
        for total in (batches, batches // 4):
            out.append("\u2588\n\r")
            for b in range(total + 1):
                fill = "\u2588" * (40 * b // total) + "-" * (40 - 40 * b // total)
                tail = "]" if b < 2 else f"... {1.1 - 0.01 * b:.4f}]"
                out.append(f"\rEpoch {e + 1}/{epochs} : |{fill}| {100 * b / total:.2f}% [{b}/{total} 00:00<00:00{tail}")
            out.append(f"\rEpoch {e + 1}/{epochs} :{' ' * 80}\r\n")
        loss = 1.0 / (e + 1)
        losses.append(round(loss, 6))
        row = f"{e:<10d}{loss:<12.6f}{loss * 0.9:<12.6f}" + (f"{0.5 + e / 50:<10.6f}" if metrics else "") + "00:00     "
        out.append(f"\rEpoch {e + 1}/{epochs} :{' ' * 80}\r{row}\n")
    return "".join(out).encode(), losses


@pytest.mark.parametrize("metrics", [True, False])
def test_a_table_printed_once_between_bar_redraws_is_read_one_row_an_epoch(tmp_path, metrics):
    data, losses = _fastprogress(6, 32, metrics)
    got = _read(tmp_path, data)
    steps, vals = got["train_loss"]
    assert vals == pytest.approx(losses)
    assert len(set(steps)) == 6 and steps == sorted(steps)  # one point an epoch, in order
    assert got["valid_loss"][1] == pytest.approx([x * 0.9 for x in losses], rel=1e-5)
    assert ("accuracy" in got) is metrics


def test_the_same_bytes_in_any_reads_give_the_same_points(tmp_path):
    data, _losses = _fastprogress(5, 16)
    whole = _read(tmp_path, data)
    cuts = [i + 1 for i, ch in enumerate(data) if ch == 10][::7]
    assert _in_reads(data, cuts)["train_loss"] == whole["train_loss"]


def test_a_header_of_short_words_is_no_row_and_tqdm_bars_do_not_end_its_table(tmp_path):
    """``step  loss  lr``: words of four letters at most whose e's the template masks, yet no cell a number."""
    out = ["step     loss      lr        \n"]
    for s in range(1, 21):
        out.append("".join(f"\r {p:3d}%|{'#' * (p // 10):10s}| {p}/100 [00:0{p % 10}<00:00, 50.0it/s]"
                           for p in range(0, 101, 20)) + "\n")
        out.append(f"{s * 100:<8d} {3 / s ** 0.5:.4f}    {1e-3 * s:.1e}   \n")
    got = _read(tmp_path, "".join(out).encode())
    assert got["loss"][0] == [100 * s for s in range(1, 21)]
    assert got["loss"][1] == pytest.approx([round(3 / s ** 0.5, 4) for s in range(1, 21)])
    assert got["lr"][1] == pytest.approx([float(f"{1e-3 * s:.1e}") for s in range(1, 21)])


def test_nested_counters_with_eta_and_running_averages(tmp_path):
    """MMEngine's ``Epoch(train) [e][ i/N]  lr: 1.0000e-02  eta: 0:00:05  time: ...  loss: ...`` (the counter per
    epoch, reset at the epoch's change: the global iteration), a running average in brackets after the value
    (``loss: 0.5 (0.6)``: the value is the point), ``eta`` no metric."""
    lines = []
    for e in range(1, 4):
        for i in range(10, 101, 10):
            loss = 1.5 / (e * 100 + i) ** 0.3
            lines.append(f"12/05 17:15:39 - mmengine - INFO - Epoch(train) [{e}][{i:3d}/100]  lr: 1.0000e-02  "
                         f"eta: 0:00:{i % 60:02d}  time: 0.0{i % 9}1  data_time: 0.0010  loss: {loss:.4f} "
                         f"({loss * 1.1:.4f})  acc: {50 + i / 10:.2f}")
    got = _read(tmp_path, ("\n".join(lines) + "\n").encode())
    assert got["loss"][0] == [(e - 1) * 100 + i for e in range(1, 4) for i in range(10, 101, 10)]
    assert got["loss"][1][0] == pytest.approx(round(1.5 / 110 ** 0.3, 4))
    assert got["lr"][1][0] == pytest.approx(0.01)
    assert "eta" not in got


@pytest.mark.parametrize("line, bar", [
    ("Epoch 1/6 :" + " " * 80, True),  # a bar cleared to its label
    ("\u2588", True),
    ("Epoch 1/6 : |\u2588\u2588----| 12.50% [4/32 00:00<00:01]", True),
    (" 45%|###       | 45/100 [00:01<00:01, 40.1it/s]", True),
    ("train  12%\u2501\u2501\u2501\u2578  3/25", True),
    ("epoch     train_loss  valid_loss  accuracy  time    ", False),  # a header
    ("Saving model checkpoint to out/ckpt.pt", False),
    ("accuracy reached 95% on the validation set", False),
    ("Epoch 1/6 :", False),  # a label with no blanks after it: no cleared bar
])
def test_what_is_a_bar(line, bar):
    assert is_bar(line.encode()) is bar
