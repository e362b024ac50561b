"""What examples/libraries_holdout63 showed (issue 32, fixkornia). A record holding two counters ``name: n/N``, the
outer one the epoch and the inner one the batch within it, whatever words name them (kornia.x's ``INFO:train:Train:
3/6  Sample: 51/60 Loss: 0.712 0.698``, also after a ``2026-12-07 05:06:10,047 train INFO`` stamp; ``Round 2/5
Client 3/10``; ``Train: 3/6  Batch: 51/60``; ``Epoch: 3/6  Sample: 51/60``), is at the global batch (E - 1) x M + S,
as a counter under an epoch is: told by their counts (both totals constant; the outer never goes back and moves only
where the inner goes back or stays; while the outer stays, the inner climbs), decided at the outer's first move and
the file read again from its start knowing it (``engine._paired_counters``). A count printed on a grid of every k
batches from 1 (kornia.x logs ``sample_id % 50 == 0``, printed ``sample_id + 1``) whose epochs end off N (51 of 60)
is the batch as printed, 1-based (OpenCLIP's, whose every epoch also prints its end N, stays 0-based:
``bar_steps._done_grid``). Counters that are not an epoch and its batch (a rank's tag, an inner count that climbs on
across the outer's moves, an outer that goes back) read as before. Each read whole and in pieces."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest

from .test_engine_fixclip_shapes import whole_and_pieces
from .test_read_misses import primary_names, whole_as_live

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout63"
sys.path.insert(0, str(REPO / "bench"))

import read_corpus  # noqa: E402


def kornia_log(epochs: int, m: int, every: int = 50, outer: str = "Train", inner: str = "Sample", seed: int = 0,
               stamp: bool = False, sep: str = ": ", tests: bool = True) -> tuple[str, list[tuple[int, float]]]:
    """A kornia.x-like log: ``Train: e/E  Sample: s/M Loss: batch mean`` when ``(s - 1) % every == 0``, an evaluation
    line after each epoch; the truth at (e - 1) x M + s."""
    rng = random.Random(seed)
    pre = "2026-12-07 05:06:{:02d},{:03d} train INFO " if stamp else "INFO:train:"
    out, truth = [], []
    for e in range(1, epochs + 1):
        mean, n = 0.0, 0
        for s in range(1, m + 1):
            v = round(1.9 * math.exp(-((e - 1) * m + s) / (2.0 * m)) + 0.05 + rng.random() * 0.1, 3)
            mean, n = mean + v, n + 1
            if (s - 1) % every == 0:
                head = pre.format(e % 60, s % 1000) if stamp else pre
                out.append(f"{head}{outer}{sep}{e}/{epochs}  {inner}{sep}{s}/{m} Loss: {v:.3f} {mean / n:.3f}\n")
                truth.append(((e - 1) * m + s, v))
        if tests:
            head = pre.format(e % 60, 999) if stamp else pre
            out.append(f"{head}Test: 0/3 LOSSES: {rng.random() + 0.5:.2f} {rng.random() + 0.5:.2f}  "
                       f"TOP1: 50.00 50.00  TOP5: 100.00 100.00 \n")
    return "".join(out), truth


def _at_truth(pts: dict, truth: list[tuple[int, float]], name: str = "Loss") -> None:
    got = dict(zip(*pts[name], strict=True))
    assert sorted(got) == [s for s, _ in truth], (sorted(got)[:12], truth[:12])
    for s, v in truth:
        assert abs(got[s] - v) < 1e-9, (s, got[s], v)


@pytest.mark.parametrize(("epochs", "m", "every", "stamp"), [
    (6, 60, 50, False), (4, 120, 50, True), (8, 15, 50, True), (10, 30, 50, False), (5, 80, 50, False),
    (3, 200, 20, True), (12, 7, 3, False), (3, 1000, 250, False)])
def test_two_counters_are_the_epoch_and_its_batch(tmp_path, epochs, m, every, stamp):
    """The global batch (E - 1) x M + S, 1-based as printed, whatever the epochs' lengths, the logging grid (one
    print an epoch included) and the line's stamp; the evaluation lines no train points; whole and in pieces."""
    text, truth = kornia_log(epochs, m, every, seed=epochs * m, stamp=stamp)
    pts = whole_and_pieces(tmp_path, text.encode(), f"k{epochs}_{m}.log", seed=m, trials=3)
    _at_truth(pts, truth)
    assert primary_names(pts) == ["Loss"]
    assert len(pts["val_LOSSES"][0]) == epochs


@pytest.mark.parametrize(("outer", "inner"), [
    ("Train", "Sample"), ("Epoch", "Sample"), ("Train", "Batch"), ("Train", "Step"), ("Round", "Client"),
    ("Phase", "Image"), ("Stage", "Chunk")])
def test_any_words_naming_the_two_counters(tmp_path, outer, inner):
    """Neither word known (``Round 2/5 Client 3/10``), or one known as an epoch's or a batch's or a step's: the
    pair's counts decide, the same steps."""
    text, truth = kornia_log(4, 60, 50, outer=outer, inner=inner, seed=len(outer + inner))
    pts = whole_as_live(tmp_path, text.encode(), f"{outer}_{inner}.log")
    _at_truth(pts, truth)
    text, truth = kornia_log(5, 9, 2, outer=outer, inner=inner, sep=" ", tests=False, seed=3)
    pts = whole_as_live(tmp_path, text.encode(), f"{outer}_{inner}_sp.log", cuts=(0.1, 0.3, 0.5, 0.52, 0.9))
    _at_truth(pts, truth)


def test_counters_that_are_no_epoch_and_batch_read_as_before(tmp_path):
    """An inner count that climbs on where the outer moves (a global count beside a phase), or stays mid-way there
    (an evaluation's count of samples beside each epoch), or an outer that goes back (folds of epochs restarting), is
    no epoch and its batch: the reads are those of the log without the rule
    (line order), whole and in pieces; a rank's tag (``rank 0/4``) pairs with nothing."""
    rows = [f"Phase: {1 + s // 40}/3  Image: {s}/120 loss: {1.0 / s:.4f}\n" for s in range(1, 121, 7)]
    pts = whole_as_live(tmp_path, "".join(rows).encode(), "climbs.log")
    assert pts["loss"][0] == list(range(1, len(rows) + 1)), pts["loss"][0]
    rows = [f"Fold: {f}/2  Part: {p}/3 loss: {1.0 / (f * 10 + p):.4f}\n" for f in (1, 2, 1) for p in (1, 2, 3)]
    pts = whole_as_live(tmp_path, "".join(rows).encode(), "back.log")
    assert pts["loss"][0] == list(range(1, len(rows) + 1)), pts["loss"][0]
    rows = [f"Epoch: [{e}/12]\tSamples: [128/1536]\tValidation Loss: {300 - e:.4f}\n" for e in range(1, 13)]
    pts = whole_as_live(tmp_path, "".join(rows).encode(), "held.log")  # (a count held mid-way over the epochs)
    assert pts["Validation Loss"][0] == list(range(1, 13)), pts["Validation Loss"][0]
    rows = [f"Train: {e}/3  rank: 0/4 loss: {1.0 / (e + 1):.4f}\n" for e in range(1, 4)]
    from training_check.tools.parsers.fields import plan_template

    assert plan_template([rows[0].encode()]).pair is None
    assert plan_template([b"INFO:train:Train: 3/6  Sample: 51/60 Loss: 0.712 0.698"]).pair is not None


def test_a_pair_refuted_after_it_was_taken_reads_the_whole_file_as_printed(tmp_path):
    """Two epochs read as the epoch and its batch, then the outer goes back (a second run of folds in one log): the
    file is read again without the pair, in pieces as whole."""
    text, _truth = kornia_log(2, 60, 50, tests=False)
    more, _ = kornia_log(2, 60, 50, tests=False, seed=5)
    pts = whole_as_live(tmp_path, (text + more).encode(), "again.log")
    assert pts["Loss"][0] == list(range(1, 9)), pts["Loss"][0]


def _runs() -> list[str]:
    return sorted(p.name for p in FOLDER.glob("kornia_*") if (p / "truth.json").is_file())


@pytest.mark.parametrize("run", _runs())
def test_the_corpus_files_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    pts = whole_and_pieces(tmp_path, (folder / "train.log").read_bytes(), "train.log", seed=len(run), trials=2)
    got = dict(zip(*pts["Loss"], strict=True))
    assert sorted(got) == [s for s, _ in truth["train_loss"]], (run, sorted(got)[:8])
    for step, v in truth["train_loss"]:
        assert abs(got[step] - float(v)) <= read_corpus._tolerance(float(v), truth["tolerance"]), (run, step, v)
    assert primary_names(pts) == ["Loss"]
