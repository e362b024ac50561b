"""An epoch's own record beside a per-batch running view of the same value (examples/libraries_holdout53's
neuralhydrology, libraries_holdout54's torch4keras and flashy).

A record printing its own epoch, once an epoch, naming the loss (``Epoch 3 average loss: avg_loss: 0.08973,
avg_total_loss: 0.08973``; ``Finish Epoch: 3/10 - loss: 3.5011``; ``Train Summary | Epoch 12 | loss=1.189 |
duration=0.007``) is the run's record of that value. A per-batch series of the same quantity within the epoch is a
live view of it, no point: a tqdm bar redrawn with ``\\r`` (``# Epoch 3:   0%|  | 0/33 [..., Loss: 0.0234]``, the
batch's loss; ``Loss`` is what ``avg_loss`` averages: ``Dialect.mean_words``), a Keras-like meter printed a line an
update (`` 1/16 [>....] - ETA: 0:00<0:00 - loss: 3.5525``, a moving average across epochs), logged progress lines under
an in-epoch counter (``Train | Epoch 7 | 15/16 | 2260.32 it/sec | loss 1.677``, the epoch's running mean; an
evaluation's ``Valid | ...`` beside its ``Valid Summary | ...`` likewise). Where every per-batch series is such a view,
the records are the run's train points, at their epochs, and the run's length is its epoch count. Runs that log
per-batch losses with no epoch record are read per batch as before; a bar showing a value no record gives (an LR) keeps
that value's points and the run's batch steps.
"""

from __future__ import annotations

import json
import math
import random

import pytest

from .conftest import REPO
from .test_read_misses import _live, primary_names, whole_as_live

_BLOCKS = "▏▎▍▌▋▊▉█"


def _tqdm(desc: str, n: int, total: int, post: str = "") -> str:
    frac = n / total
    full = int(frac * 10)
    bar = "█" * full + (_BLOCKS[int((frac * 10 - full) * 8)] if full < 10 and frac * 10 > full else "")
    rate = "?it/s" if n == 0 else "304.40it/s"
    eta = "00:00<?" if n == 0 else "00:00<00:00"
    return f"{desc}{int(100 * frac):3d}%|{bar:<10}| {n}/{total} [{eta}, {rate}{', ' + post if post else ''}]"


def _nh(rng: random.Random, epochs: int, batches: int, val: bool = True, bar: bool = True,
        lr_on_bar: bool = False, stuck: bool = True) -> tuple[bytes, list[float], list[float]]:
    """A neuralhydrology run as it lands in its log: timestamped logging lines, a tqdm bar per epoch whose postfix is
    the batch's loss (its count stuck at 0 between tqdm's refreshes, unless not ``stuck``), the epoch's record, the
    validation's bar and record."""
    stamp = "2026-12-06 22:40:29,369: "
    out = [f"{stamp}Logging to runs/x/output.log initialized.\n", f"{stamp}epochs: {epochs}\n",
           f"{stamp}batch_size: 64\n", f"{stamp}learning_rate: {{0: 0.005}}\n"]
    train, valid = [], []
    digits = rng.choice((4, 5))
    for e in range(1, epochs + 1):
        level = 0.4 * math.exp(-0.3 * e) + 0.02
        losses = [level * (1 + 0.5 * (rng.random() - 0.5)) for _ in range(batches)]
        if bar:
            draws = [_tqdm("  ", 0, batches), _tqdm(f"# Epoch {e}: ", 0, batches)]
            shown = 0
            for b, x in enumerate(losses, 1):
                post = f"Loss: {x:.4f}" + (f", lr: {0.005 * 0.9 ** ((e - 1) * batches + b):.3e}" if lr_on_bar else "")
                if not stuck or rng.random() < 0.15:
                    shown = b if not stuck else b - 1  # tqdm refreshes its count now and then
                draws.append(_tqdm(f"# Epoch {e}: ", shown, batches, post))
            draws.append(_tqdm(f"# Epoch {e}: ", batches, batches, post))
            out.append("\r" + "\r".join(draws) + "\n")
        mean = round(sum(losses) / batches, digits)
        train.append(mean)
        out.append(f"{stamp}Epoch {e} average loss: avg_loss: {mean:.{digits}f}, avg_total_loss: {mean:.{digits}f}\n")
        if val:
            v = round(level * 0.8, 5)
            valid.append(v)
            out.append("\r" + "\r".join([_tqdm("  ", 0, 3), _tqdm("# Validation: ", 0, 3),
                                         _tqdm("# Validation: ", 3, 3)]) + "\n")
            out.append(f"{stamp}Epoch {e} average validation loss: {v:.5f} -- Median validation metrics: "
                       f"avg_loss: {v:.5f}, NSE: {0.9 - v:.5f}, KGE: {0.8 - v:.5f}\n")
    return "".join(out).encode(), train, valid


def _keras_line(n: int, total: int, names: list[tuple[str, float]], done: bool) -> str:
    width = len(str(total))
    arrow = "=" * 30 if done else ("=" * max(0, 30 * n // total - 1) + ">").ljust(30, ".")
    head = f"{n:>{width}}/{total} [{arrow}]"
    time = "0:00 3ms/step" if done else "ETA: 0:00<0:00"
    return f"{head} - {time} - " + " - ".join(f"{k}: {v:.4f}" for k, v in names) + (" " if done else "  ")


def _t4k(rng: random.Random, epochs: int, batches: int, val: bool = True, acc: bool = False,
         finish: bool = True) -> tuple[bytes, list[float]]:
    """A torch4keras run: ``Start  Epoch: e/E``, its Keras-like bar a line an update (the bar's loss a moving average
    running across epochs), then ``Finish Epoch: e/E - loss: ...`` (the epoch's mean) and the validation's line."""
    stamp = "2026-12-06 22:29:38 - "
    out = [f"{stamp}Start Training\n\n"]
    train = []
    smooth = 4.0
    every = rng.choice((1, 2, max(1, batches // 3), batches))
    for e in range(1, epochs + 1):
        out.append(f"{stamp}Start  Epoch: {e}/{epochs}\n\n")
        level = 4.0 * math.exp(-0.15 * e)
        losses = [level * (1 + 0.3 * (rng.random() - 0.5)) for _ in range(batches)]
        for b, x in enumerate(losses, 1):
            smooth = 0.9 * smooth + 0.1 * x
            if b == 1 or b == batches or b % every == 0:
                names = [("loss", smooth)] + ([("acc", min(0.99, 0.3 + 0.05 * e))] if acc else [])
                out.append(_keras_line(b, batches, names, b == batches) + "\n")
        mean = round(sum(losses) / batches, 4)
        if finish:
            train.append(mean)
            extra = f" - acc: {min(0.99, 0.3 + 0.05 * e):.4f}" if acc else ""
            out.append(f"{stamp}Finish Epoch: {e}/{epochs} - loss: {mean:.4f}{extra}\n")
            if val:
                out.append(f"val_loss: {level * 1.3:.4f}. best_val_loss: {level * 1.3:.4f}\n")
        out.append("\n")
    out.append(f"{stamp}Finish Training\n")
    return "".join(out).encode(), train


def _flashy(rng: random.Random, epochs: int, batches: int, val: bool = True, summary: bool = True,
            acc: bool = False, of: bool = False) -> tuple[bytes, list[float], list[float], list[tuple[int, float]]]:
    """A flashy run through colorlog: progress lines every few batches (the epoch's running mean; the last batch not
    always printed), then ``Train Summary | Epoch e | loss=... | duration=...``; ``Valid`` likewise; ``of``: the
    progress lines count the run's epochs too (``Epoch 3/20``)."""
    head = "[\x1b[36m12-06 22:29:14\x1b[0m][\x1b[34mflashy.solver\x1b[0m][\x1b[32mINFO\x1b[0m] - "
    every = rng.choice((3, 4, 5))
    decimals = rng.choice((3, 5))
    out = [f"{head}Log dir: /tmp/outputs/xps/e1ea74ea\x1b[0m\n"]
    train, valid, per_batch = [], [], []
    for e in range(1, epochs + 1):
        level = 3.8 * math.exp(-0.12 * e)
        total, running = 0.0, 0.0
        for b in range(1, batches + 1):
            total += level * (1 + 0.4 * (rng.random() - 0.5))
            running = round(total / b, decimals)
            if b % every == 0:
                per_batch.append(((e - 1) * batches + b, running))
                extra = f" | acc {50 + e:.1f}%" if acc else ""
                out.append(f"{head}Train | Epoch {e}{f'/{epochs}' if of else ''} | {b}/{batches} | "
                           f"{600 + 37.3 * b:.2f} it/sec | "
                           f"loss {running:.{decimals}f}{extra}\x1b[0m\n")
        if summary:
            train.append(running)
            extra = f" | acc={50 + e:.1f}%" if acc else ""
            out.append(f"{head}\x1b[1mTrain Summary | Epoch {e} | loss={running:.{decimals}f}{extra} | "
                       f"duration=0.0{rng.randrange(5, 13):02d}\x1b[0m\n")
        if val:
            v = 0.0
            for b in range(1, 5):
                v = round(level * 1.1 + 0.01 * b, decimals)
                if b < 4:
                    out.append(f"{head}Valid | Epoch {e} | {b}/4 | {4700 + b:.2f} it/sec | loss {v:.{decimals}f}"
                               "\x1b[0m\n")
            if summary:
                valid.append(v)
                out.append(f"{head}\x1b[1mValid Summary | Epoch {e} | loss={v:.{decimals}f} | duration=0.001\x1b[0m\n")
    return "".join(out).encode(), train, valid, per_batch


SEEDS = range(6)


@pytest.mark.parametrize("seed", SEEDS)
def test_an_epoch_record_beside_a_bar_of_the_batch_loss_is_the_runs_record(tmp_path, seed):
    rng = random.Random(seed)
    epochs, batches = rng.randrange(3, 13), rng.randrange(5, 41)
    val = seed % 3 != 1
    data, train, valid = _nh(rng, epochs, batches, val=val, stuck=seed % 2 == 0)
    pts = whole_as_live(tmp_path, data, f"nh{seed}.log", cuts=tuple(sorted(rng.random() for _ in range(5))))
    assert pts["avg_total_loss"] == (list(range(1, epochs + 1)), train), pts.get("avg_total_loss")
    assert "Loss" not in pts and primary_names(pts) == ["avg_total_loss"], sorted(pts)
    if val:
        assert pts["eval_avg_loss"] == (list(range(1, epochs + 1)), valid)
    else:
        assert not any(k.startswith("eval_") for k in pts)


def test_the_runs_length_is_its_epochs(tmp_path):
    from training_check.tools.sources.files import LocalFileSystem
    from training_check.tools.sources.logfile import LogFileSource

    data, _train, _valid = _nh(random.Random(1), 8, 33)
    p = tmp_path / "nh.log"
    p.write_bytes(data)
    res = LogFileSource(LocalFileSystem(), str(p)).read(None)
    assert res.info.total_steps == 8
    assert "steps_per_epoch" not in res.info.config


@pytest.mark.parametrize("seed", SEEDS)
def test_an_epoch_record_beside_a_keras_like_meter_a_line_an_update(tmp_path, seed):
    rng = random.Random(100 + seed)
    epochs, batches = rng.randrange(3, 16), rng.randrange(2, 40)
    acc = seed % 2 == 0
    data, train = _t4k(rng, epochs, batches, val=seed % 3 != 0, acc=acc)
    pts = whole_as_live(tmp_path, data, f"t4k{seed}.log", cuts=tuple(sorted(rng.random() for _ in range(4))))
    assert pts["loss"] == (list(range(1, epochs + 1)), train), pts["loss"]
    assert primary_names(pts) == ["loss"]
    if acc:
        assert pts["acc"][0] == list(range(1, epochs + 1))


@pytest.mark.parametrize("seed", SEEDS)
def test_an_epoch_summary_beside_progress_lines_under_an_in_epoch_counter(tmp_path, seed):
    rng = random.Random(200 + seed)
    epochs, batches = rng.randrange(3, 21), rng.randrange(6, 40)
    val = seed % 3 != 2
    data, train, valid, _per_batch = _flashy(rng, epochs, batches, val=val, acc=seed % 2 == 1, of=seed % 3 == 0)
    pts = whole_as_live(tmp_path, data, f"flashy{seed}.log", cuts=tuple(sorted(rng.random() for _ in range(5))))
    assert pts["loss"] == (list(range(1, epochs + 1)), train), pts["loss"]
    assert primary_names(pts) == ["loss"]
    if val:
        assert pts["val_loss"] == (list(range(1, epochs + 1)), valid), pts["val_loss"]


def test_any_read_size(tmp_path):
    """Cut anywhere, a byte at a time near the first records: the live views before the first record gave points
    then, the file is read again knowing them."""
    rng = random.Random(7)
    for name, data in (("nh", _nh(rng, 4, 6)[0]), ("t4k", _t4k(rng, 4, 5)[0]), ("fl", _flashy(rng, 4, 9)[0])):
        whole = _live(tmp_path, data, [], name=f"w_{name}.log")
        for k in range(3):
            cuts = sorted({rng.randrange(1, len(data)) for _ in range(12)})
            assert _live(tmp_path, data, cuts, name=f"l_{name}_{k}.log") == whole, (name, cuts)


def test_per_batch_losses_with_no_epoch_record_stay_per_batch(tmp_path):
    rng = random.Random(3)
    data, _train, _valid, per_batch = _flashy(rng, 6, 16, val=False, summary=False)
    pts = whole_as_live(tmp_path, data, "flashy_nosummary.log")
    assert pts["loss"] == ([s for s, _ in per_batch], [v for _, v in per_batch]), pts["loss"]
    data, _train, _valid = _nh(rng, 5, 12, val=False, stuck=False)
    data = b"\n".join(line for line in data.split(b"\n") if b"average loss" not in line)
    pts = whole_as_live(tmp_path, data, "nh_norecord.log")
    assert pts["Loss"][0][:12] == list(range(1, 13)) and len(pts["Loss"][0]) > 5 * 6, pts["Loss"]
    assert "avg_total_loss" not in pts


def test_a_batch_loss_logged_beside_an_epochs_average_stays_per_batch(tmp_path):
    """A logged line's ``Loss`` under a count within the epoch beside an epoch's ``Avg loss`` (ignite's evaluation of
    the train set, ``Training Results``): another quantity, not the same name; the lines are the run's record of each
    batch (only a bar, a display, is a view of a record's mean)."""
    rng = random.Random(11)
    out, truth = [], []
    for e in range(1, 6):
        for it in (10, 20, 30):
            x = round(0.6 / (e + it / 30) * (1 + 0.2 * rng.random()), 4)
            truth.append(((e - 1) * 30 + it, x))
            out.append(f"Epoch[{e}] Iteration[{it}/30] Loss: {x:.4f}")
        out.append(f"Training Results - Epoch: {e}  Avg accuracy: {0.8 + e / 100:.2f} Avg loss: {0.3 / e:.2f}")
        out.append(f"Validation Results - Epoch: {e}  Avg accuracy: {0.78 + e / 100:.2f} Avg loss: {0.35 / e:.2f}")
    pts = whole_as_live(tmp_path, ("\n".join(out) + "\n").encode(), "ignite.log")
    assert pts["Loss"] == ([s for s, _ in truth], [v for _, v in truth]), pts["Loss"]
    assert primary_names(pts) == ["Loss"]


def test_a_bar_value_no_record_gives_keeps_the_batch_steps(tmp_path):
    """The bar draws an LR beside the batch's loss: its loss is a live view of the epoch's record (no point), its LR
    the run's only record of the LR, per batch: the run counts its batches, the epoch records at their epoch's end."""
    data, train, _valid = _nh(random.Random(5), 5, 10, val=False, lr_on_bar=True, stuck=False)
    pts = whole_as_live(tmp_path, data, "nh_lr.log")
    assert "Loss" not in pts
    assert pts["avg_total_loss"] == ([10 * e for e in range(1, 6)], train), pts["avg_total_loss"]
    assert len(pts["lr"][0]) > 10


_TARGETS = [("libraries_holdout53", "nh_"), ("libraries_holdout54", "t4k_"), ("libraries_holdout54", "flashy_")]


def _runs() -> list:
    out = []
    for folder, prefix in _TARGETS:
        out.extend(sorted(p for p in (REPO / "examples" / folder).glob(prefix + "*") if (p / "truth.json").exists()))
    return out


@pytest.mark.parametrize("run", _runs(), ids=lambda p: p.name)
def test_the_corpus_files_read_at_the_truths_steps(tmp_path, run):
    truth = json.loads((run / "truth.json").read_text())
    pts = whole_as_live(tmp_path, (run / "train.log").read_bytes(), run.name)
    [name] = primary_names(pts)
    got = dict(zip(*pts[name], strict=True))
    tol = truth["tolerance"]
    for step, want in truth["train_loss"]:
        assert step in got, (name, step, sorted(got)[:20])
        have, want = got[step], float(want)  # (a non-finite value written as a string: "nan")
        if math.isnan(want):
            assert math.isnan(have), (step, have)
        else:
            assert abs(have - want) <= max(tol.get("rel", 0) * abs(want), tol.get("abs", 0),
                                           0.5 * 10 ** -(tol.get("sig", 99) - 1) * abs(want)), (step, have, want)
    assert len(got) == len(truth["train_loss"]), sorted(got)
