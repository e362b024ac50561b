"""A bar per epoch whose redraw at the epoch's end is the epoch's record (examples/libraries_holdout77's
torch-training-loop; fixttl).

One tqdm bar per epoch, redrawn with ``\\r``, whose description names a phase: ``Epoch 3/10 - Training:  45%|...|
9/20 [..., loss=2.7782; mse=2.7782]`` (the postfix: the epoch's running mean so far), ``Epoch 3/10 - Validating: ...
val_loss=...``, then ``Epoch 3/10 - Finished: 100%|...| 20/20 [..., loss=0.1495; val_loss=0.2228]`` redrawn 2-3
times: a bar at its total whose description names the epoch's end (``Dialect.epoch_done_words``) is the epoch's record,
one point per epoch at the epoch, its values the final redraw's; the in-epoch postfix of the same names is a live
view of it, no point. A bar whose description names no end keeps its per-batch points.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from .test_read_misses import _live, points_at, primary_names, whole_as_live

H77 = Path(__file__).resolve().parents[1] / "examples" / "libraries_holdout77"
_BLOCKS = "▏▎▍▌▋▊▉█"


def _bar(desc: str, n: int, total: int, post: str = "", width: int = 10) -> str:
    frac = n / total
    full = int(frac * width)
    body = "█" * full + (_BLOCKS[int((frac * width - full) * 8)] if full < width and frac * width > full else "")
    rate = "?it/s" if n == 0 else f"{100 + 7 * n:.2f}it/s"
    tail = f", {post}" if post else ""
    return f"{desc}{int(100 * frac):3d}%|{body:<{width}}| {n}/{total} [00:00<00:00, {rate}{tail}]"


def _fmt(v: float) -> str:
    return f"{v:.4f}" if abs(v) < 1e4 else f"{v:.4e}"


def _ttl_log(rng: random.Random, epochs: int, train_b: int, val_b: int, end_word: str = "Finished",
             metric: str | None = "mse", width: int = 10) -> tuple[str, list[tuple[int, float]]]:
    """A torch-training-loop-like log and its truth (the epoch's mean train loss, rounded as printed)."""
    total = train_b + val_b
    out, truth = [], []
    base = rng.uniform(0.5, 5.0)
    for e in range(1, epochs + 1):
        ep = f"Epoch {e}/{epochs}"
        parts = [_bar(f"{ep}: ", 0, total, width=width)]
        parts.append(_bar(f"{ep} - Training: ", 1, total, width=width))
        run = 0.0
        for b in range(1, train_b + 1):
            run += (base / e) * rng.uniform(0.6, 1.4)
            mean = float(_fmt(run / b))
            post = f"loss={_fmt(mean)}" + (f"; {metric}={_fmt(mean)}" if metric else "")
            parts.append(_bar(f"{ep} - Training: ", b, total, post, width))
        train = post
        val = ""
        if val_b:
            parts.append(_bar(f"{ep} - Validating: ", train_b + 1, total, train, width))
            for b in range(1, val_b + 1):
                vm = float(_fmt(base / e * rng.uniform(0.8, 1.2)))
                val = f"val_loss={_fmt(vm)}" + (f"; val_{metric}={_fmt(vm)}" if metric else "")
                parts.append(_bar(f"{ep} - Validating: ", train_b + b, total, val, width))
            parts.append(_bar(f"{ep} - {end_word}: ", total, total, val, width) + "  ")
        whole = train + ("; " + val if val else "")
        for _ in range(rng.choice((1, 2))):
            parts.append(_bar(f"{ep} - {end_word}: ", total, total, whole, width))
        out.append("\r" + "\r".join(parts) + "\n")
        truth.append((e, mean))
    return "".join(out), truth


def _check(pts: dict, truth: list[tuple[int, float]]) -> None:
    got = dict(points_at(pts, "loss"))
    assert sorted(got) == [s for s, _v in truth]
    for s, v in truth:
        assert math.isclose(got[s], v, rel_tol=1e-4, abs_tol=1e-4), (s, got[s], v)


@pytest.mark.parametrize("seed", range(6))
def test_a_bar_redrawn_at_the_epochs_end_is_the_epochs_record(tmp_path, seed):
    rng = random.Random(seed)
    epochs, train_b, val_b = rng.randint(3, 14), rng.randint(3, 45), rng.choice((0, 2, 4, 9))
    word = rng.choice(("Finished", "Done", "Complete", "End"))
    metric = rng.choice(("mse", "acc", None))
    text, truth = _ttl_log(rng, epochs, train_b, val_b, word, metric, rng.choice((10, 20)))
    pts = whole_as_live(tmp_path, text.encode(), f"ttl{seed}.log")
    _check(pts, truth)
    assert primary_names(pts) == ["loss"]
    if val_b:
        steps = points_at(pts, "val_loss")
        assert [s for s, _v in steps] == list(range(1, epochs + 1))


def test_read_in_random_pieces_as_whole(tmp_path):
    rng = random.Random(11)
    text, truth = _ttl_log(rng, 6, 17, 3)
    data = text.encode()
    whole = _live(tmp_path, data, [], name="whole.log")
    _check(whole, truth)
    for t in range(3):
        cuts = sorted(rng.sample(range(1, len(data)), 3 + 4 * t))
        live = _live(tmp_path, data, cuts, name=f"live{t}.log")
        assert json.dumps(live, sort_keys=True) == json.dumps(whole, sort_keys=True), cuts


def test_a_bar_naming_no_end_keeps_its_batches(tmp_path):
    """The same bars with the end's redraw named as the phase before (``Validating`` at its total): no record of the
    epoch, the postfix stays the run's per-batch points."""
    rng = random.Random(3)
    text, _truth = _ttl_log(rng, 4, 12, 3, end_word="Validating")
    pts = whole_as_live(tmp_path, text.encode(), "noend.log")
    steps = [s for s, _v in points_at(pts, "loss")]
    assert len(steps) > 4 * 6 and max(steps) > 4


@pytest.mark.parametrize("name", ["ttl_reg_adam_val_bar_10ep", "ttl_cls_rmsprop_b16_nometrics_bar_8ep",
                                  "ttl_linear_sgd_lr_high_b64_bar_diverged"])
def test_the_holdout77_bars_read_at_the_truths_steps(tmp_path, name):
    run = H77 / name
    truth = json.loads((run / "truth.json").read_text())
    tol = truth["tolerance"]
    pts = whole_as_live(tmp_path, (run / "train.log").read_bytes(), name)
    got = dict(points_at(pts, "loss"))
    assert sorted(got) == [int(s) for s, _v in truth["train_loss"]]
    for s, v in truth["train_loss"]:
        assert math.isclose(got[int(s)], v, rel_tol=tol["rel"], abs_tol=tol["abs"]), (s, got[int(s)], v)
