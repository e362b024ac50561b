"""What examples/libraries_holdout61 showed (issue 32's first bullet, fixyolo): a table whose header is printed again
each epoch and whose row of running means is redrawn between ``\\r`` progress-bar states on one physical line
(YOLOv5's ``      Epoch    GPU_mem   box_loss ...`` then ``       3/11         0G    0.09311 ...  64: 100%|###| 4/4``),
with lines heading nothing between the header and its rows and between the rows (a bare bar ``  0%|  | 0/4``, a
deprecation warning glued after a bar state each batch). The row is a record of its header's columns at its epoch
(printed ``i/N-1``, 0-based), one point an epoch: its last redraw (the epoch's running mean at its end). The
validation table's header is drawn by a bar at 0 % then 100 % (``Class  Images ... mAP50-95:   0%|| 0/1``): the
same header twice, named once (``val/P``, not ``P P``). Each log read whole and in pieces (any cut, mid-line)."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest

from .test_read_misses import _live, points_at, primary_names, whole_and_pieces, whole_as_live

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout61"
sys.path.insert(0, str(REPO / "bench"))

import read_corpus  # noqa: E402

WARNING = "`torch.cuda.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cuda', args...)` instead."
HEAD = ("%11s" * 7) % ("Epoch", "GPU_mem", "box_loss", "obj_loss", "cls_loss", "Instances", "Size")
VAL_HEAD = ("%22s" + "%11s" * 6) % ("Class", "Images", "Instances", "P", "R", "mAP50", "mAP50-95")


def _bar(n: int, total: int, glyph: str) -> str:
    """tqdm's ``{l_bar}{bar:10}{r_bar}`` at ``n`` of ``total``."""
    fill = 10 * n // total
    rate = "[00:00<?, ?it/s]" if n == 0 else "[00:00<00:00, 15.43it/s]"
    return f"{100 * n // total:3d}%|{glyph * fill}{' ' * (10 - fill)}| {n}/{total} {rate}"


def yolo_log(epochs: int, batches: int, seed: int = 0, warn: str = "first", glyph: str = "#", scale: float = 0.1,
             nan_after: int | None = None, final: bool = False
             ) -> tuple[str, list[tuple[int, float]], list[tuple[int, float]]]:
    """A YOLOv5-like log: per epoch its header, a bare bar, then each batch's row of running means (``%11.4g``)
    drawn by the bar before and after its count moves, a warning glued after a bar state (``warn``: ``none``, the
    ``first`` two batches, ``every`` batch), the bar closed by a newline; then the validation's header drawn at 0 %
    and 100 %, and its ``all`` row. ``nan_after``: the loss is NaN from that epoch on. ``final``: the best weights
    validated again after the run (a last ``all`` row). (the truth of box_loss at each epoch, of mAP50 at each)"""
    rng = random.Random(seed)
    out = [f"train: weights=, epochs={epochs}, batch_size=8\n", f"Starting training for {epochs} epochs...\n"]
    truth: list[tuple[int, float]] = []
    maps: list[tuple[int, float]] = []
    for e in range(epochs):
        out.append("\n" + HEAD + "\n")
        out.append("\r" + _bar(0, batches, glyph))
        mean = [0.0, 0.0, 0.0]
        row = ""
        count = 0
        for i in range(batches):
            if warn == "every" or warn == "first" and i < 2:
                out.append(WARNING + "\n")
            loss = [scale * (1.2 + rng.random()) / (1 + e / 3), scale / 8 * (1 + rng.random()), 0.0]
            if nan_after is not None and e >= nan_after:
                loss = [math.nan, math.nan, 0.0]
            mean = [(m * i + x) / (i + 1) for m, x in zip(mean, loss, strict=True)]
            row = ("%11s" * 2 + "%11.4g" * 5) % (f"{e}/{epochs - 1}", "0G", *mean, rng.randint(5, 40), 64)
            out.append("\r" + row + ": " + _bar(count, batches, glyph))
            if i == batches - 1 or rng.random() < 0.5:
                count = i + 1
                out.append("\r" + row + ": " + _bar(count, batches, glyph))
        out.append("\r" + row + ": " + _bar(batches, batches, glyph) + "\n")
        truth.append((e, float(f"{mean[0]:.4g}")))
        m50 = round(rng.random() * 0.05, 3)
        maps.append((e, float(f"{m50:.3g}")))
        out.append("\r" + VAL_HEAD + ": " + _bar(0, 1, glyph))
        out.append("\r" + VAL_HEAD + ": " + _bar(1, 1, glyph) + "\n")
        out.append(("%22s" + "%11i" * 2 + "%11.3g" * 4) % ("all", 8, 17, 0.0071, 0.0588, m50, m50 / 10) + "\n")
    if final:
        out.append(f"\n{epochs} epochs completed in 0.001 hours.\n\nValidating runs/exp/weights/best.pt...\n"
                   "Fusing layers... \nYOLOv5n summary: 157 layers, 1760518 parameters, 0 gradients, 4.1 GFLOPs\n\n")
        out.append("\r" + VAL_HEAD + ": " + _bar(0, 1, glyph))
        out.append("\r" + VAL_HEAD + ": " + _bar(1, 1, glyph) + "\n")
        best = max(maps, key=lambda p: p[1])[1]
        out.append(("%22s" + "%11i" * 2 + "%11.3g" * 4) % ("all", 8, 17, 0.0071, 0.0588, best, best / 10) + "\n")
        out.append("Results saved to runs/exp\n")
    return "".join(out), truth, maps


def _close(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> bool:
    return [s for s, _ in got] == [s for s, _ in want] and all(
        math.isnan(a) and math.isnan(b) or abs(a - b) <= 1e-9 + 1e-6 * abs(b)
        for (_, a), (_, b) in zip(got, want, strict=True))


@pytest.mark.parametrize(("epochs", "batches", "warn", "glyph", "scale", "nan_after", "final"), [
    (10, 3, "first", "\u2588", 0.1, 4, True), (12, 4, "first", "#", 0.1, None, False),
    (6, 8, "every", "\u2588", 0.1, None, True), (15, 6, "every", "#", 3.0, None, False),
    (8, 2, "none", "#", 0.1, 2, False), (5, 1, "first", "\u2588", 25.0, None, True),
    (9, 12, "every", "#", 1e-5, 5, False), (20, 5, "none", "\u2588", 0.5, None, True)])
def test_a_table_row_redrawn_between_bar_states_is_its_epochs_record(tmp_path, epochs, batches, warn, glyph, scale,
                                                                      nan_after, final):
    text, truth, maps = yolo_log(epochs, batches, seed=epochs * batches, warn=warn, glyph=glyph, scale=scale,
                                 nan_after=nan_after, final=final)
    pts = whole_and_pieces(tmp_path, text.encode(), "train.log", seed=epochs + batches)
    assert _close(points_at(pts, "box_loss"), truth), (points_at(pts, "box_loss")[:6], truth[:6])
    assert primary_names(pts) == ["box_loss"]
    assert not any(" " in k for k in pts), sorted(pts)  # the validation's header named once
    got = points_at(pts, "val/mAP50")
    want = maps[:-1] if final else maps  # (the best weights' row after the run is at the last epoch)
    assert _close(got[:len(want)], want), (got[:6], want[:6])


def test_a_header_redrawn_by_a_bar_is_one_header_not_two_lines():
    """A header a bar draws at 0 % then 100 % is the same names twice: no header of two lines (``average loss``)."""
    from training_check.tools.parsers.tables_text import join_two

    top = (VAL_HEAD + ":   0%|| 0/1 [00:00<?, ?it/s]").encode()
    bottom = (VAL_HEAD + ": 100%|| 1/1 [00:00<00:00, 14.63it/s]").encode()
    assert join_two(top, bottom) is None
    assert join_two(b"average  since         example", b"loss     last          counter") is not None


def test_a_line_of_prose_between_a_header_and_its_rows_heads_nothing(tmp_path):
    """A warning printed between a table's header and its first rows (and between rows) heads nothing: the rows
    are the header's, whole and in pieces."""
    rows = ["epoch    train_loss    val_loss"]
    want = []
    for e in range(1, 13):
        if e in (1, 5, 6):
            rows.append("UserWarning: this overload of add_ is deprecated, use the other signature instead.")
        rows.append(f"{e:5d}    {1.0 / e:10.4f}    {1.2 / e:8.4f}")
        want.append((e, round(1.0 / e, 4)))
    pts = whole_as_live(tmp_path, ("\n".join(rows) + "\n").encode(), "prose.log")
    assert _close(points_at(pts, "train_loss"), want), pts


def _runs() -> list[str]:
    return sorted(p.name for p in FOLDER.glob("yolov5_*") if (p / "truth.json").is_file())


@pytest.mark.parametrize("run", _runs())
def test_the_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    pts = whole_and_pieces(tmp_path, (folder / "train.log").read_bytes(), "train.log", seed=len(run), trials=2)
    got = dict(zip(*pts["box_loss"], strict=True))
    assert sorted(got) == [s for s, _ in truth["train_loss"]]
    for step, v in truth["train_loss"]:
        t = float(v)
        if math.isnan(t):
            assert math.isnan(got[step]), (run, step)
        else:
            assert abs(got[step] - t) <= read_corpus._tolerance(t, truth["tolerance"]), (run, step, got[step], t)
    assert primary_names(pts) == ["box_loss"]
    assert "val/mAP50" in pts and not any(" " in k for k in pts), sorted(pts)


def test_a_header_over_another_tables_row_heads_no_bar_below_it(tmp_path):
    """keras-tuner's trial table (``Value  |Best Value So Far |Hyperparameter`` over ``0.003  |0.003  |learning_rate``)
    then ``Epoch 1/3`` and Keras' bar lines (``1/8 ━━ 0s 3ms/step - loss: 16.7``): the run between the trial's row and
    the bar heads nothing, but that row is no header, so the bar's lines are no rows of the trial table."""
    data = (REPO / "examples" / "libraries_holdout30" / "kt_grid_sgd_reg_lr_high_nan" / "train.log").read_bytes()
    pts = _live(tmp_path, data, [], name="kt.log")
    assert "loss" in pts and "Best Value So Far" not in pts, sorted(pts)
