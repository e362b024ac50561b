"""What examples/libraries_holdout79 showed (pfl 0.6.0, fixpfl). Each central iteration prints a vertical block,
``Metrics at iteration 3 ():`` then one metric a line, its name padded to a column of colons::

    Metrics at iteration 3 ():
        Train population | loss before local training     : 0.8950387054244003
        Train population | loss after local training      : 0.7712
        Val population | loss before local training       : 0.91
        Learning rate                                     : 1.0

The shape: in a ``name : value`` line a name may hold one `` | `` between a population (a split) and a quantity
(``Train population | loss``, ``Central val | loss``); the name is the whole text before the colon, its padding gone.
A ``|``-bordered table row (``| name | value |``, ``| 3 | 0.5 |``) has borders at its ends and no such colon. The
run's objective is the train population's loss before local training (the central model's; the loss after it is each
device's after its local steps: ``Dialect.local_work_twins``), the ``Val population`` names evaluations. Each read
whole and in pieces."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from training_check.tools.objective import assign_roles
from training_check.tools.parsers.dialect import DIALECT
from training_check.tools.parsers.fields import _name_before

from .test_read_misses import assert_at_truth, corpus_runs, points_at, primary_names, whole_as_live

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout79"


TRAIN = "Train population | loss before local training"
AFTER = "Train population | loss after local training"
VAL = "Val population | loss before local training"


def pfl_log(iters: int, seed: int = 0, width: int = 50, indent: int = 4, eval_every: int = 1, central: bool = False,
            split: str = "population", decimals: int | None = None, nan_from: int | None = None,
            preamble: str = "") -> tuple[str, list[tuple[int, float]], list[tuple[int, float]]]:
    """A pfl-like log: per iteration ``Metrics at iteration i ():`` then rows ``<Split> | <quantity> : value``
    padded to a column (``width``) after ``indent`` blanks; the validation's every ``eval_every`` iterations (or a
    ``Central val | loss`` row, ``central``). The truth: the train population's loss before local training, and the
    validation's loss, at each iteration."""
    rng = random.Random(seed)
    pad = " " * indent
    out = [preamble]
    train: list[tuple[int, float]] = []
    evals: list[tuple[int, float]] = []

    def row(name: str, v: float | int) -> str:
        text = repr(v) if decimals is None or isinstance(v, int) else f"{v:.{decimals}f}"
        return f"{pad}{name.ljust(width)}: {text}\n"

    def val(v: float) -> float:
        return float(repr(v) if decimals is None else f"{v:.{decimals}f}")

    for i in range(iters):
        before = 1.1 * math.exp(-i / 5) + 0.2 + rng.random() * 0.05
        if nan_from is not None and i >= nan_from:
            before = math.nan
        after = before * 0.85
        out.append(f"Metrics at iteration {i} ():\n")
        out.append(row(f"Train {split} | number of devices", 5))
        out.append(row(f"Train {split} | number of data points", round(30 + rng.random() * 5, 1)))
        out.append(row(f"Train {split} | loss before local training", before))
        out.append(row(f"Train {split} | accuracy before local training", rng.random()))
        out.append(row(f"Train {split} | loss after local training", after))
        out.append(row(f"Train {split} | total weight", 1.0))
        out.append(row("Number of parameters", 387))
        train.append((i, val(before)))
        if i % eval_every == 0:
            w = 1.2 * math.exp(-i / 6) + 0.25 + rng.random() * 0.05
            if central:
                out.append(row("Central val | loss", w))
            else:
                out.append(row(f"Val {split} | number of devices", 2))
                out.append(row(f"Val {split} | loss before local training", w))
                out.append(row(f"Val {split} | accuracy before local training", rng.random()))
            evals.append((i, val(w)))
        out.append(row("Learning rate", 1.0))
        out.append(row("Overall time elapsed (min)", round(i * 0.01, 2)))
        out.append(row("Duration of iteration (s)", round(0.1 + rng.random() * 0.1, 2)))
    return "".join(out), train, evals


def _same(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> None:
    assert [s for s, _ in got] == [s for s, _ in want]
    for (_, a), (_, b) in zip(got, want, strict=True):
        assert (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-12 * max(1.0, abs(b)), (a, b)


def test_a_split_and_a_quantity_before_a_colon_are_one_name():
    """The whole text before the colon names the value: a population and its quantity, padded or not; a bordered
    row, a line whose value is not its last token, prose or a level word before the bar is read as before."""
    def name(line: bytes) -> str | None:
        return _name_before(line, line.rindex(b" ") + 1, DIALECT)

    assert name(b"    Train population | loss before local training     : 0.895") == TRAIN
    assert name(b"Val population | loss before local training: 0.91") == VAL
    assert name(b"  Central val | loss : 0.5") == "Central val | loss"
    assert name(b"    Learning rate                                     : 1.0") == "Learning rate"
    bordered = b"| Train population | loss : 0.5 |"
    assert _name_before(bordered, bordered.index(b"0.5"), DIALECT) == "loss"  # borders at both ends: a table's row
    assert name(b"| Train population | loss : 0.5") == "loss"  # a border at its start: a table's row
    assert name(b"Epoch 3 | loss : 0.5") == "loss"  # a position, no split
    assert name(b"INFO | loss : 0.5") == "loss"  # a logger's level, no split
    assert name(b"a | b | loss : 0.5") == "loss"  # two bars: a table's cells
    assert name(b"Train population | loss = 0.5") == "loss"  # no colon: as before
    assert name(b"Train | loss : 0.5 | acc : 0.9") == "acc"  # a record of its own cells after its first name


def test_the_central_models_loss_is_the_objective():
    roles = assign_roles([AFTER, TRAIN, VAL, "Train population | accuracy before local training", "Learning rate"])
    assert [n for n, r in roles.items() if r.primary] == [TRAIN]
    assert roles[VAL].role == "eval" and roles[AFTER].role == "train_loss"
    # a loss after local work with no twin before it stays the run's loss
    assert [n for n, r in assign_roles([AFTER, VAL]).items() if r.primary] == [AFTER]
    roles = assign_roles(["Train | loss after local update", "Train | loss before local update"])
    assert [n for n, r in roles.items() if r.primary] == ["Train | loss before local update"]


@pytest.mark.parametrize("case", [
    {"iters": 12}, {"iters": 30, "width": 60, "seed": 1}, {"iters": 9, "width": 38, "indent": 2, "seed": 2},
    {"iters": 24, "eval_every": 2, "seed": 3}, {"iters": 15, "central": True, "seed": 4},
    {"iters": 14, "decimals": 4, "seed": 5}, {"iters": 14, "nan_from": 9, "seed": 6},
    {"iters": 10, "split": "set", "seed": 7, "width": 44}, {"iters": 40, "indent": 0, "seed": 8},
    {"iters": 12, "preamble": "Loading data ...\nStarting training with 20 users\n", "seed": 9},
])
def test_generated_blocks_read_whole_and_in_pieces(tmp_path, case):
    text, train, evals = pfl_log(**case)
    pts = whole_as_live(tmp_path, text.encode(), "pfl.log")
    split = case.get("split", "population")
    name = f"Train {split} | loss before local training"
    _same(points_at(pts, name), train)
    assert primary_names(pts) == [name]
    val = "Central val | loss" if case.get("central") else f"Val {split} | loss before local training"
    val_key = next(k for k in pts if k.endswith(val))
    _same(points_at(pts, val_key), evals)
    assert assign_roles(list(pts))[val_key].role == "eval"
    assert not any("metric" in k for k in pts)


def test_a_bordered_table_still_reads_its_cells(tmp_path):
    """A ``|``-bordered table (header and rows with borders at their ends) is read by its header as before."""
    rows = ["| step | loss   | val_loss |\n", "|------|--------|----------|\n"]
    want = []
    for s in range(1, 13):
        v = round(1.0 / s + 0.1, 4)
        rows.append(f"| {s:<4} | {v:<6} | {v + 0.05:<8.4f} |\n")
        want.append((s, v))
    pts = whole_as_live(tmp_path, "".join(rows).encode(), "table.log")
    _same(points_at(pts, "loss"), want)


@pytest.mark.parametrize("run", corpus_runs(FOLDER, "pfl_"))
def test_the_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    assert truth["loss_name"] == TRAIN
    pts = whole_as_live(tmp_path, (folder / "train.log").read_bytes(), "train.log")
    got = dict(points_at(pts, TRAIN))
    assert_at_truth(got, truth, run)
    assert primary_names(pts) == [TRAIN]
    assert assign_roles(list(pts))[VAL].role == "eval"
