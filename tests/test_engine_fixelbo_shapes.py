"""What examples/libraries_holdout86 showed (cell2location on scvi-tools' Lightning trainer, fixelbo). An evidence
lower bound named as such (``elbo``, ``elbo_train``, ``elbo_validation``, ``ELBO``, ``neg_elbo``, ``-elbo``) is a
variational run's objective when no loss is named (beside a loss the loss stays the objective). Its direction is not
in its name: libraries log the negative ELBO as a positive loss (scvi-tools' ``elbo_train``: minimised), users print
the bound itself (GPflow's ``model.elbo()``, below zero: maximised). ``MetricFrame._search_direction`` tells it, as
for a population's statistics: ``neg``/``loss`` in the name says minimised; else the way its first changes move while
they shrink (repeats at the printed precision skipped); else its sign. An eval ELBO takes the train one's direction.

Left: the bar of the epochs draws each epoch's ``elbo_train`` one epoch late and only changes of the 3-digit value
are kept, so the corpus files are not yet read at the truth's steps (their values are read, in order)."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from training_check.tools.frame import MetricFrame
from training_check.tools.objective import assign_objective
from training_check.tools.points import Column, PointBatch

from .corpus_checks import Corpus
from .synthetic import replay
from .test_read_misses import points_at, whole_as_live

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout86"
sys.path.insert(0, str(REPO / "bench"))

import read_corpus  # noqa: E402

BOUNDS = ["elbo", "elbo_train", "ELBO", "train_elbo", "train/elbo", "Elbo", "neg_elbo", "-elbo", "evidence lower bound"]


def _frame(cols: dict[str, list[float]], start: int = 0) -> MetricFrame:
    columns = {k: Column(np.arange(start, start + len(v), dtype=np.int64), np.asarray(v, dtype=float))
               for k, v in cols.items()}
    return MetricFrame.from_batch(PointBatch(columns))


def _negative_elbo(n: int, seed: int, level: float = 1.12e5, drop: float = 0.03, digits: int | None = 3) -> list[float]:
    """A negative ELBO (a positive loss) falling fast then flattening, rounded to ``digits`` significant digits."""
    rng = random.Random(seed)
    out = []
    for e in range(n):
        v = level * (1 + drop * math.exp(-e / 3)) * (1 + rng.uniform(-1e-4, 1e-4))
        out.append(float(f"{v:.{digits - 1}e}") if digits else v)
    return out


@pytest.mark.parametrize("name", BOUNDS)
def test_an_elbo_named_alone_is_the_runs_objective(name):
    objective = assign_objective([name, "v_num", "epoch"])
    assert [k for k, r in objective.roles.items() if r.primary] == [name]
    assert objective.search is not None and objective.search.kind == "evidence_bound"


@pytest.mark.parametrize("loss", ["loss", "train_loss", "Elbo loss", "nll"])
def test_beside_a_loss_the_loss_stays_the_objective(loss):
    roles = assign_objective([loss, "elbo_train"]).roles
    assert [k for k, r in roles.items() if r.primary] == [loss]
    assert not roles["elbo_train"].primary


@pytest.mark.parametrize("eval_name", ["elbo_validation", "val_elbo", "test elbo", "eval/elbo"])
def test_an_eval_elbo_is_the_eval_and_never_the_objective(eval_name):
    objective = assign_objective([eval_name, "elbo_train"])
    assert [k for k, r in objective.roles.items() if r.primary] == ["elbo_train"]
    assert objective.roles[eval_name].role == "eval"
    assert assign_objective([eval_name]).search is None  # an eval ELBO alone: no train objective


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n", [5, 12, 40])
@pytest.mark.parametrize("digits", [3, 5, None])
def test_a_negative_elbo_logged_as_a_loss_is_minimised(seed, n, digits):
    train = _negative_elbo(n, seed, digits=digits)
    frame = _frame({"elbo_train": train, "elbo_validation": [v * 1.01 for v in train]})
    assert frame.roles["elbo_train"].role == "train_loss" and frame.roles["elbo_train"].direction == "min"
    assert frame.roles["elbo_train"].primary
    assert frame.roles["elbo_validation"].direction == "min"


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n", [5, 12, 40])
@pytest.mark.parametrize("scale", [50.0, 1.2e4, 3e6])
def test_the_bound_itself_rising_is_maximised_and_its_eval_with_it(seed, n, scale):
    bound = [-v for v in _negative_elbo(n, seed, level=scale, drop=0.5, digits=None)]
    frame = _frame({"ELBO": bound, "val_elbo": [v * 1.02 for v in bound]})
    assert frame.roles["ELBO"].role == "train_loss" and frame.roles["ELBO"].direction == "max"
    assert frame.roles["ELBO"].primary
    assert frame.roles["val_elbo"].role == "eval" and frame.roles["val_elbo"].direction == "max"


def test_a_name_that_says_negated_or_loss_is_minimised_whatever_its_course():
    rising = [10.0, 15.0, 18.0, 19.0, 19.5]
    for name in ("neg_elbo", "-elbo", "negative elbo"):
        assert _frame({name: rising}).roles[name].direction == "min", name


def test_with_no_shrinking_start_the_sign_tells():
    """Changes that grow or change sign tell no direction: the bound itself (below zero at every log) is maximised,
    a negated one (above zero) minimised."""
    noisy = [5.0, 3.0, 6.0, 2.0, 7.0, 1.0]
    assert _frame({"elbo": [-v for v in noisy]}).roles["elbo"].direction == "max"
    assert _frame({"elbo": noisy}).roles["elbo"].direction == "min"


def test_a_negative_elbo_that_falls_then_climbs_stays_minimised_and_stops():
    """A rate multiplying each epoch: the negative ELBO falls while its changes shrink, then climbs (or turns NaN)."""
    n = 30
    climb = [1.3e5 * (1 + 0.2 * math.exp(-e / 3)) * (1 + (0.0 if e < 12 else 0.5 * (e - 11) ** 2)) for e in range(n)]
    frame = _frame({"elbo_train": climb})
    assert frame.roles["elbo_train"].direction == "min"
    verdicts = [j.verdict for _, j, _ in replay(list(range(n)), {"elbo_train": climb}, checks=6)]
    assert "STOP" in verdicts
    nan = climb[:18] + [float("nan")] * 12
    verdicts = [j.verdict for _, j, _ in replay(list(range(n)), {"elbo_train": nan}, checks=6)]
    assert "STOP" in verdicts


@pytest.mark.parametrize("seed", range(3))
def test_a_flat_negative_elbo_at_three_digits_is_no_stop(seed):
    flat = _negative_elbo(40, seed, drop=0.01)
    verdicts = [j.verdict for _, j, _ in replay(list(range(40)), {"elbo_train": flat}, checks=6)]
    assert "STOP" not in verdicts


def _epoch_lines(values: list[float], name: str, fmt: str, first: int) -> bytes:
    out = ["Starting variational inference\n"]
    for k, v in enumerate(values):
        out.append(f"Epoch {first + k}: {name}={v:{fmt}}\n")
    out.append("Done.\n")
    return "".join(out).encode()


@pytest.mark.parametrize(("name", "fmt", "sign", "first"), [
    ("elbo", ".2f", -1, 0), ("ELBO", ".6g", -1, 1), ("elbo_train", ".3e", 1, 0), ("neg_elbo", ".4f", 1, 1),
])
@pytest.mark.parametrize("n", [8, 33])
def test_an_elbo_per_epoch_read_whole_and_in_pieces(tmp_path, name, fmt, sign, first, n):
    values = [sign * v for v in _negative_elbo(n, n, level=2.5e3, drop=0.4, digits=None)]
    data = _epoch_lines(values, name, fmt, first)
    pts = whole_as_live(tmp_path, data, f"{name}_{n}")
    got = points_at(pts, name)
    assert [s for s, _ in got] == list(range(first, first + n))
    for (_, v), t in zip(got, values, strict=True):
        assert abs(v - float(f"{t:{fmt}}")) <= 1e-9 * abs(t) + 1e-12
    cols = {k: Column(np.asarray(s, dtype=np.int64), np.asarray(v, dtype=float)) for k, (s, v) in pts.items()}
    frame = MetricFrame.from_batch(PointBatch(cols))
    assert frame.primary_loss == name
    assert frame.roles[name].direction == ("max" if sign < 0 else "min")


def _scvi_bar(values: list[float], total: int) -> bytes:
    """scvi-tools' bar of the epochs with no TTY (``\\r`` redraws on one line), ``elbo_train`` drawn one epoch late."""
    parts = [f"Epoch 1/{total}:   0%|          | 0/{total} [00:00<?, ?it/s]"]
    for c in range(1, total + 1):
        shown = f", elbo_train={values[c - 2]:.3g}".replace("e+0", "e+") if c >= 2 else ""
        parts.append(f"Epoch {c}/{total}: {100 * c // total:3d}%|###| {c}/{total} [00:00<00:01, 11.2it/s, "
                     f"v_num=1{shown}]")
        if c < total:
            parts.append(f"Epoch {c + 1}/{total}: {100 * c // total:3d}%|###| {c}/{total} [00:00<00:01, 11.2it/s, "
                         f"v_num=1{shown}]")
    return ("GPU available: False, used: False\n" + "\r".join(parts)
            + f"`Trainer.fit` stopped: `max_epochs={total}` reached.\n").encode()


@pytest.mark.parametrize("total", [12, 30])
def test_an_epoch_bars_elbo_is_the_objective_whole_and_in_pieces(tmp_path, total):
    values = [1.5e5 * (1 + 0.5 * math.exp(-e / 2)) for e in range(total)]
    pts = whole_as_live(tmp_path, _scvi_bar(values, total), f"bar_{total}")
    assert "elbo_train" in pts
    cols = {k: Column(np.asarray(s, dtype=np.int64), np.asarray(v, dtype=float)) for k, (s, v) in pts.items()}
    frame = MetricFrame.from_batch(PointBatch(cols))
    assert frame.primary_loss == "elbo_train" and frame.roles["elbo_train"].direction == "min"


def _c2l_runs() -> list[str]:
    runs = sorted(p.name for p in FOLDER.glob("c2l_*") if (p / "truth.json").is_file())
    assert runs
    return runs


@pytest.mark.parametrize("run", _c2l_runs())
def test_the_corpus_runs_elbo_is_their_objective_and_its_values_read(tmp_path, run):
    """Every truth value is read (at some step), whole and in pieces; the ELBO is the
    objective, minimised. (Not yet at the truth's steps: the bar's one-epoch lag and its repeats, see above.)"""
    data = (FOLDER / run / "train.log").read_bytes()
    truth = json.loads((FOLDER / run / "truth.json").read_text())
    pts = whole_as_live(tmp_path, data, run)
    got = [v for _, v in points_at(pts, "elbo_train")]
    tol = truth["tolerance"]
    want = [float(v) for _, v in truth["train_loss"]]
    def same(g: float, t: float) -> bool:
        return math.isnan(g) if math.isnan(t) else not math.isnan(g) and abs(g - t) <= read_corpus._tolerance(t, tol)

    for t in want:  # (at some step: the bar's one-epoch lag and its repeats are left, see above)
        assert any(same(g, t) for g in got), (run, t)
    cols = {k: Column(np.asarray(s, dtype=np.int64), np.asarray(v, dtype=float)) for k, (s, v) in pts.items()}
    frame = MetricFrame.from_batch(PointBatch(cols))
    assert frame.primary_loss == "elbo_train" and frame.roles["elbo_train"].direction == "min"


def test_the_sets_verdicts():
    """All 6 should-stop runs STOP (3 before), no healthy one STOPs, no healthy check ESCALATEs (4 before)."""
    totals = Corpus(FOLDER).totals()
    assert totals["stopped"] == 6 and totals["false_stops"] == 0 and totals["early_stops"] == 0
    assert totals["healthy_check_escalates"] == 0
