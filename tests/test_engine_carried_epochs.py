"""A line carried from one read to the next is under the epoch it was printed under (examples/libraries_holdout93's
torchmate; ``banners.banner_epochs``, ``bar_steps.run_starts``).

torchmate draws each epoch's bars with ``\\r`` under a banner ``Epoch 2/12`` in ANSI bold: ``train: 27/32
[=====-] 84.4% | ET: 30ms| ETR : 6ms | loss: 1.04611`` (its glyphs differ at every count, so every bar state is a
template of its own, met once an epoch: one record an epoch, at that epoch), then a ``valid:`` bar. A read ending
inside epoch 2 carries epoch 1's one-off states (27/32 .. 32/32, seen once so far) to the next read; there they were
placed under the epoch the read before ended under (2), so the template's two lines sat at one epoch and were
numbered by line order from 1: the step went back and the reader saw a new run ("this file holds 2 runs"), setting
aside the first. Now a carried line keeps the epoch it was printed under, and a carried line's step, lower than the
read before's last, starts no run: the same points whatever the reads' sizes.
"""

from __future__ import annotations

import random

import pytest

from .conftest import REPO
from .test_read_determinism import _cuts
from .test_read_misses import whole_and_pieces, whole_as_live


def _bars(rng: random.Random, epochs: int, batches: int, width: int = 30) -> bytes:
    """A torchmate-like log: a warning, then per epoch a bold banner, the train bar redrawn per batch with its
    running loss, its last state ended by a newline, then the valid bar the same way."""
    out = ["/venv/lib/python3.11/site-packages/trainer.py:179: FutureWarning: a deprecated call\n",
           "  self.scaler = make_scaler()\n"]
    loss = rng.uniform(1.0, 2.5)
    for e in range(1, epochs + 1):
        out.append(f"\x1b[1m\x1b[38;2;0;0;255mEpoch {e}/{epochs}\x1b[0m\n")
        for split, n, name in (("train", batches, "loss"), ("valid", max(2, batches // 4), "val_loss")):
            for b in range(1, n + 1):
                loss *= rng.uniform(0.95, 1.01)
                done = width * b // n
                if b < n:
                    out.append(f"\r{split}: {b}/{n} [{'=' * done}{'-' * (width - done)}] {100 * b / n:.1f}% | "
                               f"ET: {rng.randint(0, 40)}ms| ETR : {rng.randint(0, 9)}ms | {name}: {loss:.5f}\r")
                else:
                    out.append(f"\r{split}: {n}/{n} [{'=' * width}] 100.0% | ET: {rng.randint(0, 40)}ms | "
                               f"1ms\\step | {name}: {loss:.5f}\n")
    return "".join(out).encode()


def _inside(data: bytes, epoch: int, share: float) -> int:
    """A byte offset ``share`` of the way through epoch ``epoch``'s lines."""
    a = data.index(f"Epoch {epoch}/".encode())
    b = data.find(f"Epoch {epoch + 1}/".encode())
    return a + int(share * ((len(data) if b < 0 else b) - a))


@pytest.mark.parametrize("seed", range(3))
def test_a_read_ending_inside_an_epoch_of_bars_starts_no_run(tmp_path, seed):
    rng = random.Random(seed)
    epochs = rng.choice((6, 8, 12))
    data = _bars(rng, epochs, rng.choice((16, 32)))
    whole = whole_as_live(tmp_path, data, f"b{seed}", cuts=())
    assert len(whole["loss"][0]) >= epochs, whole["loss"]  # every epoch has its points
    for epoch in (2, 3):
        for share in (0.3, 0.5, 0.7, 0.9):
            cut = _inside(data, epoch, share) / len(data)
            whole_as_live(tmp_path, data, f"b{seed}_{epoch}_{share}", cuts=(cut,))
    whole_and_pieces(tmp_path, data, f"bp{seed}", seed=seed)


@pytest.mark.parametrize("run", ["torchmate_cls_sgd_b16_12ep", "torchmate_cls_sgd_lr_growth_nan",
                                 "torchmate_reg_sgd_lr_growth_nan"])
def test_torchmate_corpus_files_read_alike_when_a_read_ends_in_epoch_2(tmp_path, run):
    data = (REPO / "examples" / "libraries_holdout93" / run / "train.log").read_bytes()
    cuts = _cuts(f"libraries_holdout93/{run}/train.log", len(data))  # (the corpus test's: one ends in epoch 2)
    assert any(_inside(data, 2, 0.0) < c < _inside(data, 3, 0.0) for c in cuts), cuts
    whole_as_live(tmp_path, data, run, cuts=tuple(c / len(data) for c in cuts))
    for share in (0.2, 0.5, 0.67, 0.8, 0.95):
        whole_as_live(tmp_path, data, f"{run}_{share}", cuts=(_inside(data, 2, share) / len(data),))
