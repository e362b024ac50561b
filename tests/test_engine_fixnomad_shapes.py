"""What examples/libraries_holdout89 showed (PyNomadBBO 4.6.0, fixnomad). NOMAD prints its ``DISPLAY_STATS`` as a
table headed by a counter of blackbox evaluations and the objective::

    BBE OBJ                                   (or ``BBE TIME OBJ``; ``BBE ( SOL ) OBJ``)
    1  15.388081
    12\t(   1  -1  1  -0  -0  )\t  0.440043   (the point tried, between parentheses)
    3 inf                                     (the black box gave no finite value)
    A termination criterion is reached: ...

The shape: a table whose header names a counter of a search's evaluations or trials as its first column
(``Dialect.evaluation_columns``: ``BBE``, ``nfev``, ``eval``, ``trial``, ``#eval``) and an objective (``OBJ``,
``fval``, ``objective``) is a table though its header is two words; its rows are at that counter. A parenthesised
group of numbers inside a row is one cell (the point tried), aligned under the header's ``( SOL )``, never columns
shifting the objective. Each read whole and in pieces."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from training_check.tools.parsers.tables_text import _cells, _list_heads, parse_header

from .test_read_misses import assert_at_truth, corpus_runs, points_at, whole_as_live

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout89"
TAIL = ("A termination criterion is reached: Maximum number of blackbox evaluations (Eval Global) {n}\n\n"
        "Best feasible solution:     #5720 ( 0.3 -0.25 0.21 0.1 0.5 )\tEvaluation OK\t f =   {best}\t h =   0"
        "                      (L2)\n\nBest infeasible solution:   Undefined.\n\nBlackbox evaluations:         {n}\n"
        "Total model evaluations:      5098\n")


def nomad_log(n: int, seed: int = 0, sol: int = 0, every: bool = True, infs: tuple[int, ...] = (),
              counter: str = "BBE", objective: str = "OBJ", width: int = 3, time: bool = False,
              scale: float = 1.0) -> tuple[bytes, list[tuple[int, float]]]:
    """A generated NOMAD display and its truth (the objective at each evaluation printed). ``sol``: the point's
    dimension printed between parentheses (0: none); ``every``: each evaluation (else only improvements);
    ``infs``: evaluations with no finite value."""
    rnd = random.Random(seed)
    head = [counter] + (["TIME"] if time else []) + (["( SOL )"] if sol else []) + [objective]
    lines = [" ".join(head) + "\n"]
    truth: list[tuple[int, float]] = []
    best = math.inf
    for k in range(1, n + 1):
        v = round(scale * (0.2 + 3 * rnd.random() / math.sqrt(k)), 6)
        if k in infs:
            cell, val = "inf", math.inf
        else:
            if not every and v >= best:
                continue
            cell, val = f"{v:>{width + 7}}", v
        best = min(best, val)
        row = [str(k)] + (["0"] if time else [])
        if sol:
            row.append("(" + "".join(f"{rnd.randint(-5, 5):>{width + 8}}" for _ in range(sol)) + "        )")
        row.append(cell)
        lines.append(("\t" if sol else " " * width).join(row) + "\n")
        truth.append((k, val))
    fin = [v for _k, v in truth if math.isfinite(v)]
    lines.append(TAIL.format(n=n, best=min(fin)))
    return "".join(lines).encode(), truth


def _same(got: list[tuple[int, float]], truth: list[tuple[int, float]]) -> None:
    assert [s for s, _v in got] == [s for s, _v in truth]
    for (_s, g), (_t, t) in zip(got, truth, strict=True):
        assert g == t or abs(g - t) <= 1e-9 * max(1.0, abs(t)), (g, t)


@pytest.mark.parametrize("n,seed,every,width", [(12, 0, True, 1), (40, 1, True, 3), (60, 2, False, 2),
                                                 (150, 3, True, 5)])
def test_a_table_of_a_searchs_evaluations_and_its_objective_is_read_at_the_counter(tmp_path, n, seed, every,
                                                                                    width):
    data, truth = nomad_log(n, seed, every=every, width=width)
    pts = whole_as_live(tmp_path, data, f"bbe{n}_{seed}")
    assert list(pts) == ["OBJ"]
    _same(points_at(pts, "OBJ"), truth)


@pytest.mark.parametrize("counter,objective", [("BBE", "OBJ"), ("nfev", "fval"), ("eval", "objective"),
                                               ("trial", "objective"), ("#eval", "obj")])
def test_the_counter_and_objective_may_be_named_otherwise(tmp_path, counter, objective):
    data, truth = nomad_log(30, 4, counter=counter, objective=objective)
    pts = whole_as_live(tmp_path, data, f"names_{counter.strip('#')}")
    _same(points_at(pts, objective), truth)


@pytest.mark.parametrize("sol,n,seed", [(2, 20, 0), (5, 40, 1), (9, 25, 2)])
def test_the_point_tried_between_parentheses_is_one_cell(tmp_path, sol, n, seed):
    data, truth = nomad_log(n, seed, sol=sol)
    pts = whole_as_live(tmp_path, data, f"sol{sol}")
    assert list(pts) == ["OBJ"]
    _same(points_at(pts, "OBJ"), truth)


def test_an_evaluation_with_no_finite_value_is_read_as_infinite(tmp_path):
    data, truth = nomad_log(40, 5, infs=(3, 5, 9, 20, 31, 32))
    pts = whole_as_live(tmp_path, data, "infs")
    _same(points_at(pts, "OBJ"), truth)


def test_a_time_column_between_keeps_the_objective(tmp_path):
    data, truth = nomad_log(50, 6, every=False, time=True)
    pts = whole_as_live(tmp_path, data, "time")
    _same(points_at(pts, "OBJ"), truth)


def test_a_header_of_two_words_stays_a_phrase_unless_it_names_a_counter_and_a_metric():
    assert parse_header(b"BBE OBJ") is not None
    assert parse_header(b"nfev fval") is not None
    assert parse_header(b"Hello world") is None
    assert parse_header(b"BBE world") is None  # the second names no metric
    assert parse_header(b"OBJ BBE") is None  # the counter is the first column
    cols = parse_header(b"BBE ( SOL ) OBJ")
    assert cols is not None and [c[0] for c in cols] == ["BBE", "( SOL )", "OBJ"]


def test_a_parenthesised_group_of_numbers_is_one_cell_and_an_open_one_is_not():
    cells = _cells(b"12\t(   1  -1  1  -0  -0  )\t  0.440043")
    assert [cells[k][0] for k in _list_heads(cells)] == [b"12", b"(", b"0.440043"]
    cells = _cells(b"12  (  1  2  0.5")  # never closed: each cell its own
    assert len(_list_heads(cells)) == len(cells)
    cells = _cells(b"12  ( a b )  0.5")  # words between: no group of numbers
    assert len(_list_heads(cells)) == len(cells)


@pytest.mark.parametrize("run", corpus_runs(FOLDER, "nomad_"))
def test_the_corpus_runs_are_read_at_the_truths_steps(tmp_path, run):
    truth = json.loads((FOLDER / run / "truth.json").read_text())
    data = (FOLDER / run / "train.log").read_bytes()
    pts = whole_as_live(tmp_path, data, run)
    assert "OBJ" in pts, run
    got = dict(points_at(pts, "OBJ"))
    assert_at_truth(got, truth, run)
