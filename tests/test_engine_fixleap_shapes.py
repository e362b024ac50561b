"""What examples/libraries_holdout85 showed (leap-ec 0.8.2, fixleap). A generational EA with a
``FitnessStatsCSVProbe(stream=sys.stdout)`` prints a CSV of its population's fitness statistics, one row a
generation::

    # leap-ec-linear                                     (some runs: a comment first)
    job, model, step, bsf, mean_fitness, std_fitness, min_fitness, max_fitness, median_fitness
    3, mlp, 0, 0.81, 1.22, 0.23, 0.81, 1.71, 1.18
    70, 0.73, 1.2e+138, /.../_methods.py:190: RuntimeWarning: overflow encountered in square
      x = um.square(x, out=x)
    6.06e+137, 1.44e+137, 2.48e+138                      (the cut row's rest, after the warning)
    best: Individual<uuid> with fitness 0.73

The shape: a population's statistics named statistic-first (``mean_fitness``, ``avg_cost``) or quantity-first
(``fitness_mean``), beside a best so far named alone (``bsf``: ``Dialect.best_so_far_names``; ``best so far``): the
population's mean is the run's curve (the search's state; its best so far never rises and would hide a divergence),
minimised unless the best lies at or above the mean at every row. A ``#`` comment before a CSV's header leaves it a
CSV. A row a warning cut into keeps its cells before the cut, the rest no value (never a shifted column); the row's
rest after the warning is no row. Each read whole and in pieces."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from training_check.tools.objective import assign_objective, population_best_and_mean
from training_check.tools.parsers.table import _cut_row, is_lead_comment

from .test_read_misses import assert_at_truth, corpus_runs, points_at, primary_names, whole_as_live

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout85"
WARN = ("/root/venv/lib/python3.11/site-packages/numpy/_core/_methods.py:190: RuntimeWarning: overflow encountered "
        "in square\n  x = um.square(x, out=x)\n")


def leap_log(gens: int, seed: int = 0, growth: float = 1.0, every: int = 1, job: bool = False, median: bool = False,
             comment: str | None = None, cut_at: int | None = None, best: str = "bsf",
             mean: str = "mean_fitness") -> tuple[bytes, list[tuple[int, float]]]:
    """A generated probe's CSV and its truth (the mean at each generation printed). ``growth``: the population's
    spread multiplied each generation (> 1: the mean diverges); ``cut_at``: that generation's row cut by a warning
    after its mean, the rest of it on a line after the warning's."""
    rnd = random.Random(seed)
    cols = (["job", "model"] if job else []) + ["step", best, mean, "std_fitness", "min_fitness", "max_fitness"]
    cols += ["median_fitness"] if median else []
    lines = [f"# {comment}\n"] if comment else []
    lines.append(", ".join(cols) + "\n")
    truth: list[tuple[int, float]] = []
    level, spread, bsf = 3.0 + rnd.random(), 1.0, math.inf
    for g in range(gens):
        level = level * 0.9 if growth <= 1 else level * growth
        spread *= growth if growth > 1 else 0.95
        lo, hi = level - 0.5 * spread * rnd.random(), level + spread * (1 + rnd.random())
        lo = max(lo, 0.01)
        m = round((lo + hi) / 2 + 0.01 * rnd.random(), 6)
        bsf = min(bsf, lo)
        if g % every:
            continue
        lead = ["3", "mlp"] if job else []
        cells = [*lead, str(g), repr(bsf), repr(m), repr(round(spread, 4)), repr(lo), repr(hi)]
        cells += [repr(m)] if median else []
        truth.append((g, m))
        if g == cut_at:
            k = len(lead) + 3
            lines.append(", ".join(cells[:k]) + ", " + WARN + ", ".join(cells[k:]) + "\n")
        else:
            lines.append(", ".join(cells) + "\n")
    lines.append("best: Individual<503028ec-840b-434a-ae93-eade94626ff4> with fitness 0.035\n")
    return "".join(lines).encode(), truth


def test_statistic_first_and_quantity_first_names_take_a_best_so_far():
    names = ["step", "bsf", "mean_fitness", "std_fitness", "min_fitness", "max_fitness"]
    assert population_best_and_mean(names) == ("bsf", "mean_fitness")
    assert population_best_and_mean(["bsf", "fitness_mean", "fitness_std"]) == ("bsf", "fitness_mean")
    assert population_best_and_mean(["best so far", "avg_cost"]) == ("best so far", "avg_cost")
    # the existing notion: the best individual's fitness beside the average (gplearn's), a worst (the mean's)
    names = ["Population Average/Fitness", "Best Individual/Fitness"]
    assert population_best_and_mean(names) == ("Best Individual/Fitness", "Population Average/Fitness")
    assert population_best_and_mean(["bsf", "mean_fitness", "worst_fitness"]) is None
    assert population_best_and_mean(["bsf", "std_fitness", "min_fitness"]) is None  # no mean
    obj = assign_objective(["step", "bsf", "mean_fitness", "std_fitness", "min_fitness", "max_fitness"])
    assert obj.search is not None and obj.search.name == "mean_fitness" and obj.search.best == "bsf"
    assert [n for n, r in obj.roles.items() if r.primary] == ["mean_fitness"]


def test_a_comment_before_a_header_and_a_cut_row():
    assert is_lead_comment("# leap-ec-linear") and not is_lead_comment("#,loss,acc")
    assert _cut_row(["70", "0.73", "1.2e+138", "/x/_methods.py:190: RuntimeWarning: overflow"], 6) == [
        "70", "0.73", "1.2e+138", "", "", ""]
    assert _cut_row(["149", "/x/_methods.py:132: RuntimeWarning"], 6) == ["149", "", "", "", "", ""]
    assert _cut_row(["6.0e+137", "1.4e+137", "2.4e+138"], 6) is None  # the cut row's rest: all numbers, no row
    assert _cut_row(['File "x.py"', "line 3", "in <module>"], 6) is None  # no number before the text


CASES = [dict(gens=30), dict(gens=60, every=5, comment="leap-ec-linear"), dict(gens=50, job=True, median=True),
         dict(gens=45, seed=3, cut_at=7), dict(gens=12, seed=5, mean="fitness_mean"),
         dict(gens=80, seed=2, job=True, cut_at=40, comment="run 2")]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{k}{v}" for k, v in c.items()))
def test_generated_probes_read_whole_and_in_pieces(tmp_path, case):
    data, truth = leap_log(**case)
    pts = whole_as_live(tmp_path, data, "leap.log")
    mean = case.get("mean", "mean_fitness")
    assert points_at(pts, mean) == truth
    assert primary_names(pts) == [mean]
    if case.get("cut_at") is not None:  # the cut row: its cells before the cut, none after
        assert case["cut_at"] in dict(points_at(pts, "bsf"))
        assert case["cut_at"] not in dict(points_at(pts, "std_fitness"))
        assert case["cut_at"] not in dict(points_at(pts, "max_fitness"))


def test_a_diverging_population_is_minimised_and_its_mean_the_curve(tmp_path):
    data, truth = leap_log(40, growth=1.8, cut_at=20)
    pts = whole_as_live(tmp_path, data, "div.log")
    assert points_at(pts, "mean_fitness") == truth
    assert truth[-1][1] > 1e6
    obj = assign_objective(list(pts))
    assert obj.roles["mean_fitness"].primary and obj.roles["mean_fitness"].direction == "min"


@pytest.mark.parametrize("run", corpus_runs(FOLDER, "leap_"))
def test_the_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    assert truth["loss_name"] == "mean_fitness"
    text = (folder / "train.log").read_text()
    pts = whole_as_live(tmp_path, text.encode(), "train.log")
    got = dict(points_at(pts, "mean_fitness"))
    # a row a warning cut before its mean (``149, /.../_methods.py:132: RuntimeWarning``) has no mean: no value
    cut = {s for s, _ in truth["train_loss"] if f"\n{s}, /" in text}
    assert len(cut) <= 1
    assert_at_truth(got, {**truth, "train_loss": [p for p in truth["train_loss"] if p[0] not in cut]}, run)
    assert not cut & set(got)
    assert primary_names(pts) == ["mean_fitness"]
