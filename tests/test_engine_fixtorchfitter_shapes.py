"""A live display of several lines redrawn together, a record right above its bar (examples/libraries_holdout83's
torchfitter; fixtorchfitter).

torchfitter's rich progress bar redraws two lines: its metrics, ``loss -> Train: 3.43e+00 | Validation: 2.56e+00 •
Learning Rate: 0.05 • MeanAbsoluteError -> Train: 1.47e+00 | Validation: 1.37e+00``, then the bar, ``Epoch 3/30 •
━━━━━━━━ • 100% • 0:00:00``; the display drawn every k epochs only (the epochs jump: 1, 3, 6, 9, ...), its
LoggerCallback printing every m epochs beside it ``INFO:ProgressBar:[RANK 0] Epoch 5/30 | Train loss: 2.04e+00 |
Validation loss 1.79e+00 | Time/epoch: 2.28e-02 s``. A record drawn right before a bar's line is at the bar's epoch
(``live_display``), ``name -> Split: value | Split: value`` each split's value of the name (``arrow_splits``): the
train loss at every epoch either prints, once where both do; the same whole and in pieces.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from training_check.tools.parsers.arrow_splits import arrow_metric

from .test_read_misses import _live, assert_at_truth, corpus_runs, points_at, whole_and_pieces

CUTS = (0.03, 0.2, 0.37, 0.55, 0.81)


def whole_as_live(tmp_path, data: bytes, name: str) -> dict:
    """``test_read_misses.whole_as_live``, the names in any order: a logger's line read once in a read (carried to
    the next, where its kind recurs) names its quantities later there than read whole; the points the same."""
    whole = _live(tmp_path, data, [], name=f"whole_{name}")
    live = _live(tmp_path, data, [int(c * len(data)) for c in CUTS], name=f"live_{name}")
    assert json.dumps(live, sort_keys=True) == json.dumps(whole, sort_keys=True), name
    return whole

H83 = Path(__file__).resolve().parents[1] / "examples" / "libraries_holdout83"


def _e(v: float, prec: int) -> str:
    return f"{v:.{prec}e}"


def _torchfitter_log(rng: random.Random, epochs: int, bar_every: int, log_every: int | None, prec: int = 2,
                     metric: bool = True, lr: bool = True, glyph: str = "━", width: int = 40,
                     arrow: str = "->") -> tuple[str, list[tuple[int, float]]]:
    """A torchfitter-like log (a display every ``bar_every`` epochs and the last, a logger line every ``log_every``
    and the first and last; none when None) and its truth: the train loss at every epoch either prints, as printed."""
    out = ["INFO:ProgressBar:[RANK 0] Starting training process on cpu", ""]
    truth: dict[int, float] = {}
    loss = rng.uniform(2.0, 6.0)
    for e in range(1, epochs + 1):
        loss *= rng.uniform(0.7, 1.02)
        val = loss * rng.uniform(0.8, 1.3)
        tr, va = _e(loss, prec), _e(val, prec)
        if log_every is not None and (e == 1 or e % log_every == 0 or e == epochs):
            out.append(f"INFO:ProgressBar:[RANK 0] Epoch {e}/{epochs} | Train loss: {tr} | Validation loss {va} | "
                       f"Time/epoch: {_e(rng.uniform(0.01, 0.05), 2)} s")
            truth[e] = float(tr)
        if e == 1 or e % bar_every == 0 or e == epochs:
            parts = [f"loss {arrow} Train: {tr} | Validation: {va}"]
            if lr:
                parts.append("Learning Rate: 0.05")
            if metric:
                parts.append(f"MeanAbsoluteError {arrow} Train: {_e(loss / 3, prec)} | Validation: "
                             f"{_e(val / 3, prec)}")
            out.append("INFO:ProgressBar:[RANK 0] ")
            out.append(" • ".join(parts))
            out.append(f"Epoch {e}/{epochs} • {glyph * width} • 100% • 0:00:00")
            truth[e] = float(tr)
    out.append("INFO:ProgressBar:[RANK 0] End of training. Total time: 0.47723 seconds")
    return "\n".join(out) + "\n", sorted(truth.items())


def _check(pts: dict, truth: list[tuple[int, float]]) -> None:
    got = dict(points_at(pts, "Train loss"))
    assert sorted(got) == [s for s, _v in truth]
    for s, v in truth:
        assert math.isclose(got[s], v, rel_tol=1e-9), (s, got[s], v)


@pytest.mark.parametrize("seed", range(10))
def test_a_record_drawn_right_above_its_bar_is_at_the_bars_epoch_whole_and_in_pieces(tmp_path, seed):
    rng = random.Random(seed)
    text, truth = _torchfitter_log(rng, epochs=rng.randint(12, 40), bar_every=rng.choice((2, 3, 4, 5)),
                                   log_every=rng.choice((2, 3, 5)), prec=rng.choice((2, 3, 4)),
                                   metric=rng.random() < 0.6, lr=rng.random() < 0.6,
                                   glyph=rng.choice(("━", "█", "■")), width=rng.choice((40, 60)))
    data = text.encode()
    pts = whole_as_live(tmp_path, data, f"tf{seed}.log")
    _check(pts, truth)
    _check(whole_and_pieces(tmp_path, data, f"tfp{seed}.log", seed=seed), truth)


def test_the_display_alone_every_k_epochs_jumps_with_the_bar(tmp_path):
    """No logger line: the display drawn every 3 epochs gives the epochs 1, 3, 6, ... (not 1, 2, 3 by line order)."""
    text, truth = _torchfitter_log(random.Random(7), epochs=30, bar_every=3, log_every=None, metric=False, lr=False)
    assert [s for s, _v in truth] == [1, *range(3, 31, 3)]
    pts = whole_as_live(tmp_path, text.encode(), "alone.log")
    _check(pts, truth)
    assert dict(points_at(pts, "Validation loss"))  # the split's value of the same name
    assert "train_loss" not in pts and "Validation" not in pts


def test_each_split_after_an_arrow_names_the_metric_before_it(tmp_path):
    line = b"acc -> Train: 5.00e-01 | Validation: 4.00e-01 | Test: 3.00e-01"
    assert arrow_metric(line, line.index(b"Train")) == "acc"
    assert arrow_metric(line, line.index(b"Validation")) == "acc"
    assert arrow_metric(line, line.index(b"Test")) == "acc"
    assert arrow_metric(b"Train: 0.5 | Validation: 0.4", len(b"Train: 0.5 | ")) is None  # no arrow: as before
    assert arrow_metric(b"loss | Validation: 0.4", len(b"loss | ")) is None
    text, _truth = _torchfitter_log(random.Random(3), epochs=9, bar_every=1, log_every=None, arrow="→")
    pts = whole_as_live(tmp_path, text.encode(), "arrow.log")
    assert {"Train loss", "Validation loss", "Train MeanAbsoluteError", "Validation MeanAbsoluteError"} <= set(pts)
    assert sorted(dict(points_at(pts, "Train MeanAbsoluteError"))) == list(range(1, 10))


def test_a_long_look_back_is_bounded():
    line = b"x" * 100_000 + b" | " + b"9" * 100_000 + b" | Validation: 1"
    assert arrow_metric(line, line.index(b"Validation")) is None


TARGETS = ("torchfitter_reg_sgd_log5_bar3_lr_metric_30ep", "torchfitter_reg_adam_exp09_log2_bar4_24ep",
           "torchfitter_cls_adam_bar1_15ep", "torchfitter_cls_rmsprop_lr_growth_bar_diverged")


@pytest.mark.parametrize("run", TARGETS)
def test_holdout83_torchfitter_displays_read_at_the_truths_steps(tmp_path, run):
    assert run in corpus_runs(H83, "torchfitter_")
    data = (H83 / run / "train.log").read_bytes()
    truth = json.loads((H83 / run / "truth.json").read_text())
    pts = whole_as_live(tmp_path, data, run)
    assert_at_truth(dict(points_at(pts, "Train loss")), truth, run)
    cut = _live(tmp_path, data, [data.index(b"MeanAbsolu") + 200 if b"MeanAbsolu" in data else len(data) // 2],
                name=f"cut_{run}")
    assert json.dumps(cut) == json.dumps(pts)
