"""An epoch's summary line whose words name an average and a phase is the epoch's record (``parsers/epoch_reports.py``;
examples/libraries_holdout95's deep-trainer): under its ``Epoch 3/8`` banner, after a tqdm bar whose description draws
each batch's loss (``Training --- Loss:   2.758:   0%| 0/16 ...``, first drawn as ``Loss:     nan`` before any
batch), ``Avg Train Metrics --- Loss:    2.51`` is the epoch's train loss and ``Avg Eval Metrics  --- Loss:   2.163``
its evaluation's, two series; the bars are a live view of them, no point (their ``nan`` placeholder no value of the
run). Whole and in pieces, on generated variants (values, widths, counts, metrics, with and without validation and
bars) and the corpus files at their truth's steps."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from .test_read_misses import primary_names, whole_as_live

ROOT = Path(__file__).resolve().parent.parent
SET = ROOT / "examples" / "libraries_holdout95"


def _tq(desc: str, n: int, total: int) -> str:
    return f"{desc}{int(100 * n / total):3d}%|{'█' * (10 * n // total):<10}| {n}/{total} [00:00<?, ?it/s]"


def _g(x: float) -> str:
    return f"{x:7.4g}" if math.isfinite(x) else "    nan"


def _log(rng: random.Random, epochs: int, batches: int, val: bool, metrics: bool, bar: bool, nan_from: int | None
         ) -> tuple[bytes, dict[int, float], dict[int, float]]:
    out, train, evals = [], {}, {}
    for e in range(1, epochs + 1):
        out.append(f"Epoch {e}/{epochs}\n")
        level = 3.0 * math.exp(-0.3 * e) * rng.uniform(0.9, 1.1)
        bad = nan_from is not None and e >= nan_from
        if bar:
            s = "\r" + _tq("", 0, batches) + "\r" + _tq("Training --- Loss:     nan: ", 0, batches)
            for _b in range(batches):
                x = math.nan if bad else level * rng.uniform(0.7, 1.3)
                s += "\r" + _tq(f"Training --- Loss: {_g(x)}: ", 0, batches)
            s += "\r" + _tq(f"Training --- Loss: {_g(x)}: ", batches, batches) + "\n"
            if val:
                y = math.nan if bad else level * 1.1
                s += ("\r" + _tq("", 0, 1) + "\r" + _tq("Testing  --- Loss:     nan: ", 0, 1) + "\r"
                      + _tq(f"Testing  --- Loss: {_g(y)}: ", 0, 1) + "\r" + _tq(f"Testing  --- Loss: {_g(y)}: ", 1, 1)
                      + "\n")
            out.append(s)
        tr = math.nan if bad else float(_g(level))
        ev = math.nan if bad else float(_g(level * 1.1))
        train[e], evals[e] = tr, ev
        m = f"Accuracy: {_g(0.5 + e / 40)}, Error: {_g(0.5 - e / 40)}, " if metrics else ""
        out.append(f"Avg Train Metrics --- {m}Loss: {_g(tr)}\n")
        if val:
            out.append(f"Avg Eval Metrics  --- {m}Loss: {_g(ev)}\n")
        out.append("\n")
    return "".join(out).encode(), train, evals


def _same(got: list[float], want: list[float]) -> bool:
    return all(math.isnan(a) and math.isnan(b) or a == pytest.approx(b) for a, b in zip(got, want, strict=True))


@pytest.mark.parametrize("seed", range(8))
def test_generated_epoch_reports(tmp_path, seed):
    rng = random.Random(seed)
    epochs, batches = rng.randint(3, 12), rng.choice([1, 4, 8, 16, 50])
    val, metrics, bar = rng.random() < 0.6, rng.random() < 0.5, seed % 4 != 3
    nan_from = rng.randint(2, epochs) if seed % 3 == 2 else None
    data, train, evals = _log(rng, epochs, batches, val, metrics, bar, nan_from)
    pts = whole_as_live(tmp_path, data, f"gen{seed}")
    assert primary_names(pts) == ["Loss"], sorted(pts)
    steps, values = pts["Loss"]
    assert steps == sorted(train), (steps, seed)
    assert _same(values, [train[s] for s in steps]), (values, train)
    if val:
        steps, values = pts["val_Loss"]
        assert steps == sorted(evals)
        assert _same(values, [evals[s] for s in steps])
    else:
        assert "val_Loss" not in pts
    assert not any(k.startswith("avg_") for k in pts), sorted(pts)
    if metrics:
        assert pts["Accuracy"][0] == sorted(train)


def test_a_summary_without_its_words_is_no_report():
    """The words before a record's first name must name a mean and a phase (``Train Metrics --- Loss: 2.51`` names
    no mean; ``Avg Metrics --- Loss`` no phase; a bar's description is none)."""
    from training_check.tools.parsers.epoch_reports import is_epoch_report
    from training_check.tools.parsers.fields import plan_template

    def rep(line: bytes) -> bool:
        plan = plan_template([line])
        return plan is not None and is_epoch_report(line, plan)

    assert rep(b"Avg Train Metrics --- Loss:   2.51")
    assert rep(b"Avg Eval Metrics  --- Accuracy:  0.7422, Error:  0.2578, Loss:  0.8298")
    assert not rep(b"Train Metrics --- Loss:   2.51")
    assert not rep(b"Avg Metrics --- Loss:   2.51")
    assert not rep(b"Training --- Loss:   2.758:   0%|          | 0/16 [00:00<?, ?it/s]")
    assert not rep(b"Epoch 3 average train loss: 0.2")  # (an epoch of its own: ``engine._once_an_epoch``'s)


@pytest.mark.parametrize("run", sorted(p.name for p in SET.glob("dt_*") if p.is_dir()))
def test_corpus_deep_trainer(tmp_path, run):
    d = SET / run
    truth = json.loads((d / "truth.json").read_text())
    pts = whole_as_live(tmp_path, (d / "train.log").read_bytes(), run)
    got = dict(zip(*pts["Loss"], strict=True))
    tol = truth["tolerance"]
    hits = 0
    for s, v in truth["train_loss"]:
        if s not in got:
            continue
        g, v = got[s], float(v)
        half = 0.5 * 10 ** (math.floor(math.log10(abs(v))) - tol["sig"] + 1) if math.isfinite(v) and v else 0.0
        hits += (math.isnan(g) and math.isnan(v)) or abs(g - v) <= max(tol["rel"] * abs(v), half)
    assert hits == len(truth["train_loss"]), (run, hits)
    assert not any(k.startswith("avg_") for k in pts), sorted(pts)


@pytest.mark.parametrize("seed", range(4))
def test_a_bars_nan_before_its_first_batch_is_no_value(tmp_path, seed):
    """Read before the epoch's first report, the bar's description first drawn as ``Loss:     nan`` at ``0/N`` (the
    mean of no batch) is its placeholder: the run's first point is a batch's loss, never a NaN."""
    rng = random.Random(seed)
    data, _train, _evals = _log(rng, 4, rng.choice([4, 16]), seed % 2 == 0, False, True, None)
    cut = data.find(b"Avg Train") - rng.randint(1, 40)
    from .test_read_misses import _live

    pts = _live(tmp_path, data[:cut], [])
    assert pts["Loss"][1] and all(math.isfinite(x) for x in pts["Loss"][1]), pts
