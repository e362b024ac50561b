"""Shapes read alike whole and in pieces (examples/libraries_holdout82 and 83; fixdet).

- A live display's record drawn right above its bar's line (torchfitter's ``loss -> Train: ... | Validation: ...``
  over ``Epoch 3/15 • ━━━ • 100% • 0:00:00``): the records are at their bar's epoch, so the run is counted in epochs
  and its planned length is the bars' ``N``, said by a read of the whole file as by reads of its pieces.
- A Keras meter (``\\r``-redrawn with ANSI and ``\\b``, ``13/16 ━━━ 0s 41ms/step - loss: 1.33``) under one
  ``Epoch 1/6`` banner: the banner is a one-off line until ``Epoch 2/6`` comes, so a read that ends inside the first
  epoch places the meter at its batches (1, 2, ... 14); the next read places it at the epoch (1), a step that goes
  back, once taken for another run (``bar_steps.run_starts``; a loss that climbs with the learning rate made it
  worse). Once a banner places the meter after an earlier read counted it by batches, the file is read again from its
  start knowing it (``engine._revise``): one run, the same points as the whole file's.
- Records numbered by line order before any read placed one by its position (EasyTorch's settings dict
  ``Set clip grad, param: {'max_norm': 1.0}`` read before the first epoch's ``Result <train>: [...]`` under its bar;
  cellpose's settings dict): a young read numbers the lone record 1; one read of the whole file places it at the
  first placed record's step. Once a later read places a record by its position after an earlier one numbered
  records by line order, the file is read again from its start knowing it: the same points whole and in pieces.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from .conftest import REPO
from .test_read_determinism import _differs, _read, _read_live
from .test_read_misses import whole_and_pieces, whole_as_live

_BAR = "━" * 40


def _display(rng: random.Random, epochs: int, every: int = 1) -> bytes:
    """A rich live display: a metrics line right above an ``Epoch n/N`` bar line, redrawn every ``every`` epochs."""
    out = ["INFO:ProgressBar:[RANK 0] Starting training process on cpu", ""]
    loss, lr = rng.uniform(2.0, 8.0), 0.05
    for e in range(1, epochs + 1):
        loss *= rng.uniform(0.7, 0.98)
        lr *= 1.2
        if e % every and e != epochs:
            continue
        out += ["INFO:ProgressBar:[RANK 0] ",
                f"loss -> Train: {loss:.2e} | Validation: {loss * 1.1:.2e} • Learning Rate: {lr}",
                f"Epoch {e}/{epochs} • {_BAR} • 100% • 0:00:00"]
    return ("\n".join(out) + "\n").encode()


def _keras(rng: random.Random, epochs: int, batches: int, climb: bool) -> bytes:
    """A Keras fit's output: ``Epoch e/E``, the meter redrawn per batch (``\\b`` over the last, ANSI), then the
    epoch's closing line with ``val_loss``; the loss climbs (a growing learning rate) when ``climb``."""
    out = ["INFO:bayesflow:Using backend 'torch'", "INFO:bayesflow:Fitting on dataset instance of OnlineDataset.", ""]
    loss = rng.uniform(1.5, 3.0)
    for e in range(1, epochs + 1):
        out.append(f"Epoch {e}/{epochs}")
        line, prev = "", 0
        for b in range(1, batches + 1):
            loss *= rng.uniform(1.0, 1.3) if climb and e > 1 else rng.uniform(0.9, 1.02)
            done = "━" * (20 * b // batches)
            body = (f"\x1b[1m{b:2d}/{batches}\x1b[0m \x1b[32m{done}\x1b[0m\x1b[37m{'━' * (20 - len(done))}\x1b[0m "
                    f"\x1b[1m0s\x1b[0m {rng.randint(30, 90)}ms/step - loss: {loss:.4f}")
            line += ("\b" * prev) + "\r" + body
            prev = len(body)
        line += ("\b" * prev) + "\r" + (f"\x1b[1m{batches}/{batches}\x1b[0m \x1b[32m{'━' * 20}\x1b[0m \x1b[1m1s\x1b[0m "
                                        f"50ms/step - loss: {loss:.4f} - val_loss: {loss * 0.8:.4f}")
        out.append(line)
    return ("\n".join(out) + "\n").encode()


def _easytorch(rng: random.Random, epochs: int, batches: int) -> bytes:
    """EasyTorch's log: a settings dict once, ``Epoch e / E``, a tqdm bar of the epoch's batches, the epoch's
    ``Result <train>`` record, a validation bar and its ``Result <val>``."""
    t = "2026-12-07 14:00:47,924 - easytorch-training - INFO - "
    out = ["2026-12-07 14:00:47,914 - easytorch-launcher - INFO - Launching EasyTorch training.",
           f"{t}Initializing training.", f"{t}Set clip grad, param: {{'max_norm': {rng.choice((0.5, 1.0, 5.0))}}}",
           f"{t}Building training data loader.", f"{t}Set optim: RMSprop (", "Parameter Group 0", "    lr: 0.003", ")"]
    loss = rng.uniform(2.0, 5.0)

    def bar(n: int) -> str:
        return (f"\r  0%|          | 0/{n} [00:00<?, ?it/s]\r100%|{'█' * 10}| {n}/{n} "
                f"[00:00<00:00, {rng.uniform(100, 900):.2f}it/s]")
    for e in range(1, epochs + 1):
        loss *= rng.uniform(0.8, 0.97)
        out += [f"{t}Epoch {e} / {epochs}", bar(batches),
                f"{t}Result <train>: [train_time: {rng.uniform(0, 0.1):.2f} (s), train_loss: {loss:.4f}]",
                f"{t}Start validation.", bar(1), f"{t}Result <val>: [val_time: 0.00 (s), val_loss: {loss * 0.9:.4f}]",
                f"{t}Checkpoint checkpoints/tiny_mlp_{e}.pt saved"]
    return ("\n".join(out) + "\n").encode()


def _alike(tmp_path: Path, data: bytes, name: str, cuts: list[int]) -> tuple:
    """The reading (points, notes, planned length, verdict) of ``data`` whole, checked equal to its reading in
    pieces cut at ``cuts``."""
    src = tmp_path / f"src_{name}"
    src.write_bytes(data)
    whole = _read(src, tmp_path / f"w_{name}", True)
    live = _read_live(src, tmp_path / f"live_{name}", tmp_path / f"l_{name}", cuts, True)
    assert not _differs(whole, live), (name, cuts, _differs(whole, live))
    return whole


@pytest.mark.parametrize("seed", range(3))
def test_a_display_records_run_is_counted_in_its_bars_epochs_whole_and_in_pieces(tmp_path, seed):
    rng = random.Random(seed)
    epochs = rng.choice((12, 15, 24, 30))
    every = 1 if seed == 0 else rng.choice((2, 3))
    data = _display(rng, epochs, every)
    pts = whole_as_live(tmp_path, data, f"d{seed}")
    whole_and_pieces(tmp_path, data, f"p{seed}", seed=seed)
    assert pts
    for t in range(3):
        cuts = sorted(rng.sample(range(1, len(data)), 2 + 2 * t))
        assert _alike(tmp_path, data, f"r{seed}_{t}", cuts)[2] == epochs


HOLDOUT83 = REPO / "examples" / "libraries_holdout83"


@pytest.mark.parametrize(("run", "planned"), [("torchfitter_cls_rmsprop_lr_growth_bar_diverged", 15),
                                             ("torchfitter_reg_adam_exp09_log2_bar4_24ep", 24)])
def test_holdout83_display_runs_say_their_planned_epochs_whole_and_in_pieces(tmp_path, run, planned):
    data = (HOLDOUT83 / run / "train.log").read_bytes()
    rng = random.Random(run)
    whole_as_live(tmp_path, data, run)
    assert _alike(tmp_path, data, run, sorted(rng.sample(range(1, len(data)), 4)))[2] == planned


@pytest.mark.parametrize("seed", range(3))
def test_a_keras_meter_read_inside_its_first_epoch_is_one_run_whole_and_in_pieces(tmp_path, seed):
    rng = random.Random(seed)
    data = _keras(rng, rng.choice((5, 6, 8)), rng.choice((8, 16)), climb=seed != 1)
    first = data.index(b"Epoch 2/")
    whole_as_live(tmp_path, data, f"k{seed}")
    whole_and_pieces(tmp_path, data, f"kp{seed}", seed=seed)
    for t in range(3):  # a read ending inside the first epoch's meter, then random pieces
        cuts = sorted({rng.randrange(data.index(b"ms/step"), first), *rng.sample(range(first, len(data)), 1 + t)})
        whole = _alike(tmp_path, data, f"kr{seed}_{t}", cuts)
        assert not [n for n in whole[1] if "runs" in n], whole[1]


HOLDOUT82 = REPO / "examples" / "libraries_holdout82"


@pytest.mark.parametrize("run", ["bayesflow_coupling_adam_lr_growth_diverged",
                                 "bayesflow_coupling_adam_lr_growth_noval_nan"])
def test_holdout82_keras_fits_whose_loss_climbs_are_one_run_in_pieces(tmp_path, run):
    data = (HOLDOUT82 / run / "train.log").read_bytes()
    rng = random.Random(run)
    first = data.index(b"Epoch 2/")
    whole_as_live(tmp_path, data, run)
    whole = _alike(tmp_path, data, run, sorted({rng.randrange(data.index(b"ms/step"), first),
                                                *rng.sample(range(first, len(data)), 3)}))
    assert not [n for n in whole[1] if "runs" in n], whole[1]


@pytest.mark.parametrize("seed", range(3))
def test_a_settings_dict_read_before_any_placed_record_is_placed_as_one_read_places_it(tmp_path, seed):
    rng = random.Random(seed)
    batches = rng.choice((4, 8, 16))
    data = _easytorch(rng, rng.choice((5, 8)), batches)
    pts = whole_as_live(tmp_path, data, f"e{seed}")
    whole_and_pieces(tmp_path, data, f"ep{seed}", seed=seed)
    first = data.index(b"Result <train>")
    for t in range(3):  # a read ending before the first epoch's record (before its bar, or in it), then pieces
        cuts = sorted({rng.randrange(data.index(b"max_norm") + 20, first), *rng.sample(range(first, len(data)), 1 + t)})
        whole = _alike(tmp_path, data, f"er{seed}_{t}", cuts)
        assert min(whole[0]["train_loss"]) == batches and list(whole[0]["max_norm"]) == [batches], whole[0]
    assert pts


def test_holdout82_easytorch_first_record_at_its_bars_count_in_pieces(tmp_path):
    run = "easytorch_rmsprop_reg_clip_b64_8ep"
    data = (HOLDOUT82 / run / "train.log").read_bytes()
    first = data.index(b"Result <train>")
    whole_as_live(tmp_path, data, run)
    for cut in (data.index(b"max_norm") + 20, data.index(b"Epoch 1 / 8") + 20, first - 5):
        whole = _alike(tmp_path, data, f"{run}_{cut}", [cut, first + 400, len(data) // 2])
        assert list(whole[0]["max_norm"]) == [4] and min(whole[0]["train_loss"]) == 4, whole[0]
