"""What examples/libraries_holdout95 showed of pytorchtrainer (fixptt): a bar drawn as a box before its percent
(``epoch 2/6 |███---| 25.0% 2/8 | 0.00 s/it | 0:00:00 remaining | train loss 0.4622 | val loss 0.5294``), redrawn with
``\\r`` at every iteration, one physical line an epoch: its values are carried as a postfix's are (a value repeated
on every redraw between validations is one point, at the step it first showed), an evaluation drawn before any was
made (``val loss inf``) is a placeholder, and a value validated at every epoch's turn is a point at each turn, a
repeat too (weights that froze still read as an identical validation). ``tools/parsers/boxed_bars.py``."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from training_check.tools.assess import run_signals
from training_check.tools.frame import MetricFrame
from training_check.tools.judge import judge
from training_check.tools.parsers import boxed_bars
from training_check.tools.points import BatchBuilder
from training_check.tools.signals.view import build_view

from tests.test_read_misses import _live, whole_and_pieces

REPO = Path(__file__).resolve().parents[1]
SET = REPO / "examples" / "libraries_holdout95"


def whole_as_live(tmp_path, data: bytes, name: str) -> dict:
    """``test_read_misses.whole_as_live`` (cuts mid-line at fixed shares) and random cuts, names in any order: a
    value whose first read held only its placeholder is named first by a later read."""
    whole = _live(tmp_path, data, [], name=f"whole_{name}")
    live = _live(tmp_path, data, [int(c * len(data)) for c in (0.03, 0.2, 0.37, 0.55, 0.81)], name=f"live_{name}")
    assert json.dumps(live, sort_keys=True) == json.dumps(whole, sort_keys=True), name
    return whole_and_pieces(tmp_path, data, name)


def _bar(e: int, epochs: int, i: int, n: int, width: int, fields: list[tuple[str, float]]) -> str:
    full = round(width * i / n)
    box = "█" * full + "-" * (width - full)
    post = "".join(f" | {name} {value:.4f}" for name, value in fields)
    return (f"epoch {e}/{epochs} |{box}| {100 * i / n:.1f}% {i}/{n} | 0.00 s/it | 0:00:00 remaining{post}")


def ptt_log(epochs: int = 6, n: int = 8, width: int = 25, val: str = "every", freeze_at: int | None = None,
            acc: bool = False, seed: int = 0) -> tuple[bytes, list[tuple[int, float]], list[tuple[int, float]]]:
    """A pytorchtrainer-like log: (bytes, train loss points, validations as (step first shown, value)). ``val``:
    ``every`` epoch, ``every2`` epochs, or ``none`` (drawn ``inf`` before the first); ``freeze_at``: from that
    validation on its value stays (weights that froze)."""
    out = ["Sequential(", "  (0): Linear(in_features=6, out_features=1, bias=True)", ")"]
    train: list[tuple[int, float]] = []
    vals: list[tuple[int, float]] = []
    current = math.inf
    for e in range(1, epochs + 1):
        redraws = []
        for i in range(1, n + 1):
            step = (e - 1) * n + i
            at = step if freeze_at is None else min(step, freeze_at * n)  # (frozen weights: the loss stops falling)
            loss = round(1.0 / (1 + 0.05 * at) + 0.013 * ((step * 7 + seed) % 5), 4)
            train.append((step, loss))
            fields = [("train loss", loss)]
            if val != "none":
                fields.append(("val loss", current))
            if acc:
                fields.append(("accuracy", round(0.5 + 0.004 * step, 4)))
            redraws.append("\r" + _bar(e, epochs, i, n, width, fields))
        out.append("".join(redraws))
        if (val == "every" or val == "every2" and e % 2 == 0) and e < epochs:
            k = min(len(vals) + 1, freeze_at or len(vals) + 1)
            current = round(0.9 / (1 + 0.3 * k) + 0.01 * seed, 4)
            vals.append((e * n + 1, current))
    return ("\n".join(out) + "\ntrain time 0.05\n").encode(), train, vals


def test_boxed_bar_told():
    assert boxed_bars.boxed_bar("epoch 2/6 |███----| 25.0% 2/8 | train loss 0.4622".encode())
    assert boxed_bars.boxed_bar("|████████████████████| 100.00% [32/32 00:01<00:00]".encode())
    assert boxed_bars.boxed_bar(b"epoch 1/6 |-------| \x01.\x01% \x01/\x01 | train loss \x01.\x01")
    assert not boxed_bars.boxed_bar(b" 25%|###   | 2/8 [00:01<00:02, loss=0.4]")  # tqdm: ``Plan.bar``
    assert not boxed_bars.boxed_bar(b"| lr | 25.0% |")  # a table's cell
    assert not boxed_bars.boxed_bar(b"| loss | 0.41 | acc 25.0% |")
    assert not boxed_bars.boxed_bar(b"accuracy 25.0%")


@pytest.mark.parametrize("epochs,n,width,seed", [(6, 8, 25, 0), (4, 5, 10, 1), (9, 13, 40, 2), (3, 32, 30, 3)])
def test_validation_one_point_each(tmp_path, epochs, n, width, seed):
    data, train, vals = ptt_log(epochs, n, width, seed=seed, acc=seed % 2 == 1)
    pts = whole_as_live(tmp_path, data, f"ptt{seed}")
    assert list(zip(*pts["train loss"], strict=True)) == train  # every iteration, at its global step
    got = list(zip(*pts["val_loss"], strict=True))
    assert got == vals  # one point a validation, at the step it first showed; no ``inf`` placeholder
    assert all(math.isfinite(v) for _s, v in got)


def test_frozen_validation_still_repeats(tmp_path):
    data, train, vals = ptt_log(epochs=14, n=6, width=20, freeze_at=3)
    pts = whole_as_live(tmp_path, data, "frozen")
    got = list(zip(*pts["val_loss"], strict=True))
    assert got == vals
    assert len({v for _s, v in got[-8:]}) == 1 and len(got) == 13  # identical over its last 8 validations


def _last_check(pts: dict) -> tuple[str, list[str]]:
    """The verdict and findings' messages of a check at the read's last step."""
    b = BatchBuilder()
    for key, (steps, values) in pts.items():
        for s, v in zip(steps, values, strict=True):
            b.add(int(s), key, float(v))
    view = build_view(MetricFrame.from_batch(b.build()), None, [])
    findings = run_signals(view)
    return judge(findings, view).verdict, [f.message for f in findings]


def test_frozen_validation_still_escalates(tmp_path):
    """Weights that froze: the validation identical epoch after epoch while the train loss stops falling is still
    read as such (one point a validation, repeats too), as a per-redraw read told it: ESCALATE. A healthy run's
    validation, one point a validation, is no plateau."""
    data, _train, vals = ptt_log(epochs=16, n=8, width=25, freeze_at=3)
    pts = whole_as_live(tmp_path, data, "frozen16")
    assert list(zip(*pts["val_loss"], strict=True)) == vals
    verdict, messages = _last_check(pts)
    assert verdict == "ESCALATE" and any("identical" in m and "weights are not changing" in m for m in messages)
    data, _train, _vals = ptt_log(epochs=16, n=8, width=25)
    verdict, messages = _last_check(whole_as_live(tmp_path, data, "healthy16"))
    assert verdict != "STOP" and not any("identical" in m for m in messages)


def test_every_two_epochs_one_point_per_change(tmp_path):
    data, _train, vals = ptt_log(epochs=9, n=5, width=15, val="every2")
    pts = whole_and_pieces(tmp_path, data, "every2")
    got = list(zip(*pts["val_loss"], strict=True))
    assert got == vals  # validated every 2 epochs: the repeat at the turn between is a redraw, no point


def test_no_validation(tmp_path):
    data, train, _vals = ptt_log(epochs=5, n=7, val="none")
    pts = whole_and_pieces(tmp_path, data, "noval")
    assert list(zip(*pts["train loss"], strict=True)) == train
    assert "val_loss" not in pts


def _truth(run: Path) -> list[tuple[int, float]]:
    return [(int(s), float(v)) for s, v in json.loads((run / "truth.json").read_text())["train_loss"]]


@pytest.mark.parametrize("run", sorted(p.name for p in SET.glob("ptt_*")))
def test_corpus_files(tmp_path, run):
    folder = SET / run
    pts = whole_as_live(tmp_path, (folder / "train.log").read_bytes(), run)
    got = dict(zip(*pts["train loss"], strict=True))
    truth = _truth(folder)
    assert all(s in got and (abs(got[s] - v) <= 5.1e-5 or (math.isnan(v) and math.isnan(got[s]))
                             or got[s] == v) for s, v in truth)
    if "val_loss" in pts:
        steps, values = pts["val_loss"]
        assert all(math.isfinite(v) or not math.isinf(v) for v in values[:1])  # no placeholder first
        assert len(steps) <= max(s for s, _v in truth) // min(steps) + 1  # one point a validation, no redraws
        assert all(b > a for a, b in zip(steps, steps[1:], strict=False))
