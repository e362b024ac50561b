"""A search's evaluations judged as a search (issue 29, fixsearch; examples/libraries_holdout89's NOMAD runs).

The shape: a table whose step column counts a search's evaluations or trials (``Dialect.evaluation_columns``: NOMAD's
``BBE``, ``nfev``, ``eval``, ``trial``) prints at each row one evaluation's value, a draw from the space the search
explores (NOMAD's ``DISPLAY_ALL_EVAL``: 11.4, 11.9, 17.9, 9.5, 25.2, ..., 55.3 at the 24th, ..., 0.35 at the 47th).
The reader marks such a table's metrics in the run's config (``parsers/evaluations.py``), whole and in pieces; the
judge takes the objective's running best (the cumulative best of its finite evaluations) as the run's progress
(``signals/search_evals.py``): a bad point tried is no divergence. Still flagged: most recent evaluations
non-finite (``nonfinite``, the non-finite values kept at their steps), and a black box blown up wherever the search
looks (never better than its first evaluation, its evaluations since orders of magnitude above it in median)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from training_check.tools.parsers.evaluations import EVALUATIONS
from training_check.tools.signals.search_evals import best_so_far, blown_up
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource

from .test_engine_fixnomad_shapes import nomad_log
from .test_read_misses import assert_at_truth, corpus_runs, judged_in_pieces, points_at, whole_as_live

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout89"


def search_log(values: list[float], counter: str = "BBE", objective: str = "OBJ", width: int = 2) -> bytes:
    lines = [f"{counter} {objective}\n"]
    for k, v in enumerate(values, 1):
        lines.append(f"{k}{' ' * width}{'inf' if math.isinf(v) else f'{v:.6f}'}\n")
    lines.append(f"A termination criterion is reached: Maximum number of blackbox evaluations {len(values)}\n")
    return "".join(lines).encode()


def wide_draws(n: int, seed: int, scale: float = 1.0) -> list[float]:
    """A search's evaluations over a wide box: draws whose floor falls, with bad points tried late (10x the best)."""
    rnd = random.Random(seed)
    out = []
    for k in range(1, n + 1):
        floor = scale * (0.3 + 10 / k)
        v = floor * (1 + 8 * rnd.random())
        if k in (n // 2, n // 2 + 1, 3 * n // 4):
            v = scale * (40 + 20 * rnd.random())  # a far corner of the box tried
        out.append(round(v, 6))
    return out


def _marks(tmp_path, data: bytes, cuts: list[int], name: str) -> list[list[str] | None]:
    """The marks each read of ``data`` appended in pieces says in the run's config."""
    p = tmp_path / name
    p.write_bytes(b"")
    src = LogFileSource(LocalFileSystem(), str(p))
    cursor, out, prev = None, [], 0
    for c in [*cuts, len(data)]:
        with open(p, "ab") as f:
            f.write(data[prev:c])
        prev = c
        res = src.read(cursor)
        cursor = res.cursor
        out.append((res.info.config if res.info else {}).get(EVALUATIONS))
    return out


def _verdict(tmp_path, data: bytes, name: str, cuts: tuple[float, ...] = ()) -> tuple[str, str]:
    return judged_in_pieces(tmp_path, data, name, cuts)


@pytest.mark.parametrize("n,seed,width,counter", [(20, 0, 1, "BBE"), (50, 1, 2, "BBE"), (120, 2, 4, "nfev"),
                                                  (40, 3, 3, "trial")])
def test_a_searchs_evaluations_are_marked_whole_and_in_pieces(tmp_path, n, seed, width, counter):
    data = search_log(wide_draws(n, seed), counter=counter, width=width)
    pts = whole_as_live(tmp_path, data, f"mark{n}_{seed}")
    assert [s for s, _v in points_at(pts, "OBJ")] == list(range(1, n + 1))
    whole = _marks(tmp_path, data, [], f"w{n}")
    assert whole == [["OBJ"]]
    live = _marks(tmp_path, data, [int(c * len(data)) for c in (0.05, 0.3, 0.6, 0.9)], f"l{n}")
    assert live[-1] == ["OBJ"] and all(m == ["OBJ"] for m in live[1:]), live


def test_a_table_at_a_named_step_is_no_search(tmp_path):
    data = b"step loss\n" + b"".join(f"{k}  {1 / k:.4f}\n".encode() for k in range(1, 40))
    assert _marks(tmp_path, data, [], "step") == [None]


def test_the_running_best_keeps_non_finite_evaluations_at_their_steps():
    s = pd.Series([3.0, 5.0, math.inf, 2.0, 9.0, math.nan, 1.0], index=range(1, 8))
    assert best_so_far(s, "min").tolist()[:5] == [3.0, 3.0, math.inf, 2.0, 2.0]
    assert math.isnan(best_so_far(s, "min").iloc[5]) and best_so_far(s, "min").iloc[6] == 1.0
    assert best_so_far(pd.Series([1.0, 3.0, 2.0]), "max").tolist() == [1.0, 3.0, 3.0]


@pytest.mark.parametrize("n,seed,scale", [(30, 0, 1.0), (50, 1, 0.01), (80, 2, 100.0), (200, 3, 1.0)])
def test_bad_points_tried_are_no_divergence(tmp_path, n, seed, scale):
    data = search_log(wide_draws(n, seed, scale))
    for cuts in ((), (0.3, 0.7)):
        verdict, summary = _verdict(tmp_path, data, f"wide{n}_{seed}_{len(cuts)}", cuts)
        assert verdict != "STOP", summary


@pytest.mark.parametrize("n,seed", [(20, 0), (40, 1), (60, 2)])
def test_most_recent_evaluations_non_finite_still_stop(tmp_path, n, seed):
    values = wide_draws(n, seed)
    values[-4:] = [math.inf] * 4  # the black box broken: its last evaluations give no value
    verdict, summary = _verdict(tmp_path, search_log(values), f"inf{n}")
    assert verdict == "STOP" and "inf" in summary.lower(), summary


@pytest.mark.parametrize("n,seed,infs", [(40, 5, (3, 5, 9, 20, 31)), (60, 6, (10, 30, 50))])
def test_isolated_non_finite_evaluations_do_not_stop(tmp_path, n, seed, infs):
    data, _truth = nomad_log(n, seed, infs=infs)
    verdict, summary = _verdict(tmp_path, data, f"iso{n}")
    assert verdict != "STOP", summary


@pytest.mark.parametrize("n,seed,order", [(30, 0, 1e6), (40, 1, 1e12), (80, 2, 1e30)])
def test_a_black_box_blown_up_wherever_the_search_looks_stops(tmp_path, n, seed, order):
    rnd = random.Random(seed)
    values = [0.8] + [math.inf if rnd.random() < 0.1 else 0.8 * order * 10 ** rnd.uniform(-2, 2)
                      for _ in range(n - 1)]
    verdict, summary = _verdict(tmp_path, search_log(values), f"blow{n}")
    assert verdict == "STOP" and "blew up" in summary, summary


def test_blown_up_needs_no_improvement_and_orders_of_magnitude():
    s = pd.Series([1.0] + [1e6] * 20, index=range(1, 22))
    assert blown_up(s, "OBJ", "min", 1000.0, 5) is not None
    assert blown_up(pd.Series([1.0, *([1e6] * 19), 0.5]), "OBJ", "min", 1000.0, 5) is None  # a better point found
    assert blown_up(pd.Series([1.0] + [100.0] * 20), "OBJ", "min", 1000.0, 5) is None  # within 1000x
    assert blown_up(s, "OBJ", "max", 1000.0, 5) is None
    assert blown_up(pd.Series(np.array([1.0, 1e6, 1e6])), "OBJ", "min", 1000.0, 5) is None  # too few


@pytest.mark.parametrize("run", corpus_runs(FOLDER, "nomad_"))
def test_the_corpus_runs_are_read_at_the_truths_steps_and_marked(tmp_path, run):
    truth = json.loads((FOLDER / run / "truth.json").read_text())
    data = (FOLDER / run / "train.log").read_bytes()
    pts = whole_as_live(tmp_path, data, run)
    assert_at_truth(dict(points_at(pts, "OBJ")), truth, run)
    assert "OBJ" in (_marks(tmp_path, data, [], run)[-1] or [])


@pytest.mark.parametrize("run,stop", [("nomad_linreg_ortho_alleval_50", False), ("nomad_logreg_alleval_sol_40", False),
                                      ("nomad_poisson_f32_wide_nan", True)])
def test_the_corpus_searches_are_judged_as_searches(tmp_path, run, stop):
    verdict, summary = _verdict(tmp_path, (FOLDER / run / "train.log").read_bytes(), run)
    assert (verdict == "STOP") == stop, summary
