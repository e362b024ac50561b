"""What examples/libraries_holdout57 showed (issue 32, fixclip). A bracketed counter under an epoch followed by its
share in percent, ``Train Epoch: 3 [160/256 (62%)]`` (OpenCLIP's; the PyTorch MNIST example's ``[640/60000 (1%)]``
family), counts SAMPLES, not batches: its counts step by the batch size the log's settings name (``batch_size: 32``),
N a multiple of it or not. It is turned into batches: ceil(n / bs) of ceil(N / bs) an epoch. Where it counts what is
DONE on a grid of every k batches (k > 1) from the first (OpenCLIP prints ``(i + 1) x bs`` after batch i when ``i % k
== 0``, and at the epoch's end: batches 1, 3, 5, 7, 8 of 8), the library numbers its batches from 0: the step is the
count - 1 (e x L + i). A count printed BEFORE the batch (MNIST's ``i x bs``: 0, k, 2k ...) is 0-based already; a
count at every batch (k = 1) tells no base and reads as the batches done (1-based). Each read whole and in pieces."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest

from .test_read_misses import points_at, primary_names, whole_and_pieces

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout57"
sys.path.insert(0, str(REPO / "bench"))

import read_corpus  # noqa: E402


def _loss(rng: random.Random, step: int) -> float:
    return round(3.7 * math.exp(-step / 40) + 0.4 + rng.random() * 0.05, 4)


def clip_log(epochs: int, n: int, bs: int, every: int, seed: int = 0, settings: str = "head",
             stamp: bool = True) -> tuple[str, list[tuple[int, float]]]:
    """An OpenCLIP-like log: its settings (``batch_size: bs``), then ``Train Epoch: e [(i + 1) x bs/n (p%)] ...
    Loss: x (mean)`` after batch i when ``i % every == 0`` or it is the epoch's last (the count N then), an
    evaluation after each epoch; the truth at e x L + i (0-based, L = ceil(n / bs)). ``settings``: printed at the
    head, after the first epoch (``late``), or not at all (``none``)."""
    rng = random.Random(seed)
    pre = "2026-12-07,02:05:52 | INFO | " if stamp else ""
    length = -(-n // bs)
    width = len(str(n))
    head = [f"{pre}Params:\n", f"{pre}  accum_freq: 1\n", f"{pre}  batch_size: {bs}\n", f"{pre}  epochs: {epochs}\n",
            f"{pre}  log_every_n_steps: {every}\n", f"{pre}  lr: 0.001\n"]
    out = [f"{pre}Running with a single process. Device cpu.\n"] + (head if settings == "head" else [])
    truth: list[tuple[int, float]] = []
    for e in range(epochs):
        out.append(f"{pre}Start epoch {e}\n")
        total = 0.0
        for i in range(length):
            step = e * length + i
            v = _loss(rng, step)
            total += v
            if i % every == 0 or i == length - 1:
                done = min((i + 1) * bs, n)
                truth.append((step, v))
                out.append(f"{pre}Train Epoch: {e} [{done:>{width}}/{n} ({100 * (i + 1) / length:.0f}%)] Data (t): "
                           f"0.0{10 + i % 7} Batch (t): 0.045, {700 + i}.123/s, {700 + i}.123/s/gpu LR: 0.000{250 + i} "
                           f"Logit Scale: 14.{286 + step} Contrastive_loss: {v:.4f} ({total / (i + 1):.4f}) Loss: "
                           f"{v:.4f} ({total / (i + 1):.4f})\n")
        out.append(f"{pre}Eval Epoch: {e + 1} image_to_text_mean_rank: {5 - e / 10:.4f}\tclip_val_loss: "
                   f"{1.8 - e / 20:.4f}\tepoch: {e + 1}.0000\tnum_samples: 64.0000\n")
        if e == 0 and settings == "late":
            out.extend(head)
    return "".join(out), truth


def mnist_log(epochs: int, n: int, bs: int, every: int, seed: int = 1,
              batch_line: bool = True) -> tuple[str, list[tuple[int, float]]]:
    """The PyTorch MNIST example's log: ``Train Epoch: e [i x bs/n (p%)]\\tLoss: x`` before batch i's count when
    ``i % every == 0``, epochs from 1, a test line after each; its settings printed as a Namespace. The truth: the
    batch printed, (e - 1) x L + i (0-based, L = ceil(n / bs))."""
    rng = random.Random(seed)
    length = -(-n // bs)
    out = [f"Namespace(batch_size={bs}, test_batch_size=1000, epochs={epochs}, lr=1.0, gamma=0.7, log_interval="
           f"{every})\n" if batch_line else "Namespace(lr=1.0)\n"]
    truth: list[tuple[int, float]] = []
    for e in range(1, epochs + 1):
        for i in range(length):
            step = (e - 1) * length + i
            v = _loss(rng, step)
            if i % every == 0:
                truth.append((step, v))
                out.append(f"Train Epoch: {e} [{i * bs}/{n} ({100.0 * i / length:.0f}%)]\tLoss: {v:.6f}\n")
        out.append(f"\nTest set: Average loss: {0.3 - e / 100:.4f}, Accuracy: {9000 + e}/10000 ({90 + e / 10:.0f}%)"
                   "\n\n")
    return "".join(out), truth


def _close(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> bool:
    return [s for s, _ in got] == [s for s, _ in want] and all(
        abs(a - b) < 1e-3 for (_, a), (_, b) in zip(got, want, strict=True))


@pytest.mark.parametrize(("epochs", "n", "bs", "every", "stamp"), [
    (6, 256, 32, 2, True), (4, 256, 64, 2, True), (5, 512, 32, 2, False), (3, 250, 32, 3, True),
    (4, 1000, 16, 5, True), (3, 999, 100, 4, False), (12, 256, 32, 100, True), (4, 256, 32, 1, True)])
def test_a_count_of_samples_done_is_read_in_batches_at_their_steps(tmp_path, epochs, n, bs, every, stamp):
    text, truth = clip_log(epochs, n, bs, every, seed=epochs + bs, stamp=stamp)
    pts = whole_and_pieces(tmp_path, text.encode(), f"clip{n}_{bs}_{every}.log", seed=n + every)
    length = -(-n // bs)
    # k > 1 with two counts on its grid before the epoch's end: 0-based; every batch (k = 1), or only the first and
    # the last of each epoch (a grid not seen): the batches done, one more
    shift = 0 if every > 1 and 1 + every < length else 1
    assert _close(points_at(pts, "Loss"), [(s + shift, v) for s, v in truth]), (points_at(pts, "Loss")[:6], truth[:6])
    assert primary_names(pts) == ["Loss"]
    # the evaluation after each epoch: at the epoch's last batch
    assert pts["val_clip_val_loss"][0] == [(e + 1) * length - 1 + shift for e in range(epochs)]


@pytest.mark.parametrize(("epochs", "n", "bs", "every"), [
    (3, 60000, 64, 10), (4, 6000, 64, 10), (3, 2000, 50, 4), (5, 1000, 32, 1)])
def test_a_count_of_samples_before_the_batch_is_read_at_that_batch(tmp_path, epochs, n, bs, every):
    text, truth = mnist_log(epochs, n, bs, every, seed=n)
    pts = whole_and_pieces(tmp_path, text.encode(), f"mnist{n}_{bs}_{every}.log", seed=bs)
    assert _close(points_at(pts, "Loss"), truth), (points_at(pts, "Loss")[:6], truth[:6])


def test_a_batch_size_printed_late_reads_as_if_printed_first(tmp_path):
    """The settings printed after the first epoch's counts: a read before them placed the counts as printed, the
    read that sees the batch size reads the file again knowing it: the same points as one read."""
    text, truth = clip_log(4, 256, 32, 2, seed=7, settings="late")
    pts = whole_and_pieces(tmp_path, text.encode(), "late.log", seed=9, trials=4)
    assert _close(points_at(pts, "Loss"), truth)


def test_without_a_batch_size_or_off_it_the_counter_reads_as_printed(tmp_path):
    text, _truth = mnist_log(2, 640, 64, 2, batch_line=False)
    pts = whole_and_pieces(tmp_path, text.encode(), "nobs.log")
    length = 640  # no batch size: (e - 1) x N + n, the counts as printed
    assert pts["Loss"][0] == [(e - 1) * length + i * 64 for e in (1, 2) for i in range(0, 10, 2)]
    # a counter of batches of that form whose counts are no multiples of the batch size the settings name
    lines = ["Namespace(batch_size=64, epochs=2)\n"] + [
        f"Train Epoch: {e} [{b}/30 ({100 * b / 30:.0f}%)]\tLoss: {1.0 - e / 10 - b / 100:.6f}\n"
        for e in (1, 2) for b in (0, 5, 10, 15, 20, 25)]
    pts = whole_and_pieces(tmp_path, "".join(lines).encode(), "batches.log")
    assert pts["Loss"][0] == [(e - 1) * 30 + b for e in (1, 2) for b in (0, 5, 10, 15, 20, 25)]


def test_a_count_off_its_grid_later_reads_the_whole_file_as_printed(tmp_path):
    """Counts on a grid of 2 from 1 for two epochs (0-based), then an epoch whose first count is not 1: the grid
    does not hold, the file is read again (in pieces as whole) at the batches done."""
    text, truth = clip_log(3, 256, 32, 2, seed=3)
    bad = text.replace("Train Epoch: 2 [ 32/256", "Train Epoch: 2 [ 64/256", 1)
    pts = whole_and_pieces(tmp_path, bad.encode(), "offgrid.log", seed=4, trials=4)
    steps = pts["Loss"][0]
    assert steps[:5] == [1, 3, 5, 7, 8] and steps[10] == 18, steps


def _clip_runs() -> list[str]:
    return sorted(p.name for p in FOLDER.glob("openclip_*") if (p / "truth.json").is_file())


@pytest.mark.parametrize("run", _clip_runs())
def test_the_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    pts = whole_and_pieces(tmp_path, (folder / "train.log").read_bytes(), "train.log", seed=len(run), trials=2)
    got = dict(zip(*pts["Loss"], strict=True))
    # every k > 1 batches: 0-based as the truth; every batch (k = 1, no grid) or its first and last only: the
    # batches done, one more (the count tells no base)
    every = truth["settings"]["log_every"]
    length = -(-truth["settings"]["n"] // truth["settings"]["batch"])
    shift = 0 if every > 1 and 1 + every < length else 1
    for step, v in truth["train_loss"]:
        assert step + shift in got, (run, step)
        t = float(v)
        if math.isnan(t):
            assert math.isnan(got[step + shift]), (run, step)
        else:
            assert abs(got[step + shift] - t) <= read_corpus._tolerance(t, truth["tolerance"]), (run, step, t)
    assert sorted(got) == [s + shift for s, _ in truth["train_loss"]]
    assert primary_names(pts) == ["Loss"]
