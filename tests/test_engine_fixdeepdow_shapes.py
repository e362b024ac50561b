"""A bar's last redraw of its epoch naming more than its batch redraws is the epoch's record (``parsers/bar_ends.py``):
deepdow's ``Epoch 0: 100%|...| 16/16 [..., loss=0.00719, test_loss=0.00515, train_loss=0.00526]`` after its batch
redraws ``Epoch 0:  44%|...| 7/16 [..., loss=0.00761]``: ``train_loss`` at the epoch as printed, whole and in pieces."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from .test_read_misses import _live, primary_names, whole_as_live

ROOT = Path(__file__).resolve().parent.parent
SET = ROOT / "examples" / "libraries_holdout88"


def _bar(epoch: int, n: int, total: int, post: str) -> str:
    pct = int(100 * n / total)
    fill = "█" * (10 * n // total)
    return f"Epoch {epoch}: {pct:3d}%|{fill:<10}| {n}/{total} [00:00<00:00, {20 + n * 3.17:.2f}it/s{post}]"


def _log(epochs: int, batches: int, first: int, test: bool, redraws: int, rng: random.Random) -> tuple[bytes, dict]:
    out, truth = [], {}
    for e in range(first, first + epochs):
        out.append(_bar(e, 0, batches, ""))
        loss = 0.009
        for b in range(1, batches + 1):
            loss = round(loss * rng.uniform(0.9, 1.05), 5)
            out.append(_bar(e, b, batches, f", loss={loss:.5f}"))
        tr, te = round(rng.uniform(0.001, 0.008), 5), round(rng.uniform(0.001, 0.008), 5)
        truth[e] = tr
        extra = (f", test_loss={te:.5f}" if test else "") + f", train_loss={tr:.5f}"
        for _ in range(redraws):
            out.append(_bar(e, batches, batches, f", loss={loss:.5f}{extra}"))
    return ("\r".join(out) + "\n").encode(), truth


@pytest.mark.parametrize("seed", range(6))
def test_generated_epoch_end_fields(tmp_path, seed):
    rng = random.Random(seed)
    epochs, batches = rng.randint(3, 12), rng.choice([4, 8, 16, 32, 50])
    first = rng.choice([0, 1])
    data, truth = _log(epochs, batches, first, rng.random() < 0.5, rng.randint(1, 3), rng)
    pts = whole_as_live(tmp_path, data, f"gen{seed}")
    assert primary_names(pts) == ["train_loss"]
    steps, values = pts["train_loss"]
    assert steps == sorted(truth)
    assert values == pytest.approx([truth[s] for s in steps])
    assert "loss" not in pts or pts["loss"][0] == steps  # the bare running `loss`: no per-batch points


def test_bar_without_end_fields_stays_per_batch(tmp_path):
    """A bar whose last redraw names nothing new keeps its per-batch points."""
    rng = random.Random(3)
    out = []
    for e in range(3):
        for b in range(1, 9):
            out.append(_bar(e, b, 8, f", loss={rng.uniform(0.1, 0.9):.4f}"))
    pts = whole_as_live(tmp_path, ("\r".join(out) + "\n").encode(), "plain")
    assert len(pts["loss"][0]) > 3


@pytest.mark.parametrize("run", sorted(p.name for p in SET.glob("deepdow_*") if p.is_dir()))
def test_corpus_deepdow(tmp_path, run):
    d = SET / run
    truth = json.loads((d / "truth.json").read_text())
    data = (d / "train.log").read_bytes()
    pts = _live(tmp_path, data, [len(data) // 3, 2 * len(data) // 3])
    assert pts == _live(tmp_path, data, [], name="whole.log")
    steps, values = pts["train_loss"]
    got = dict(zip(steps, values, strict=True))
    tol = truth["tolerance"]
    hits = sum(1 for s, v in truth["train_loss"] if s in got and abs(got[s] - v) <= tol["abs"] + tol["rel"] * abs(v))
    need = len(truth["train_loss"])
    assert hits >= need, (run, hits)
