"""Shapes the reader missed on examples/libraries_holdout33 (issue 32), written as the libraries print them and read by
the one engine, whole and in pieces:

- an iterative solver's table under a banner of settings, its step column ``Itn`` (an abbreviation of iteration:
  ``Dialect.table_names``), one row per shown iteration (pylops' ``Itn  x[0]  r2norm  r12norm  xupdate``, CGLS'
  ``Itn  x[0]  r1norm  r2norm``); a column named by a definition (pyproximal's ``J=f+eps*g``: a name, ``=``, an
  expression of other names) is a column's name, a record's field (``lr=0.1``) is not;
- which column of such a table, naming no loss, is the objective (``objective.solver_cost``): the cost ``J`` (or the
  name defining it, ``J=...``), else the norm of the residual covering the most terms (``r12norm`` over ``r2norm``),
  the first among equals (``r1norm``); never ``x[0]`` (the solution's first entry), its update or its step;
- numpy's warnings printed amid the table's rows (stderr unbuffered, stdout flushed mid-table): three warnings, each
  with its source line, are passed over; the rows below are the table's, ``nan`` rows too;
- vertical records in capitals (ModOpt's `` - ITERATION: 1`` / `` - COST: 217.84``), the first ``ITERATION`` on the
  line of a tqdm bar, a convergence test between records (`` - CHANGE IN COST: 1.67``): a name written in capitals
  throughout keeps its words (``CHANGE IN COST``, not ``COST``), a change of a quantity is no loss."""

from __future__ import annotations

import math
import random

from training_check.tools.objective import assign_roles
from training_check.tools.parsers.tables_text import defines_a_sum

from .test_read_misses import primary_names, whole_as_live

_WARNINGS = ("/venv/lib/python3.11/site-packages/ops/matrixmult.py:147: RuntimeWarning: overflow encountered in dot\n"
             "  y = self.A.T.dot(x)\n"
             "/venv/lib/python3.11/site-packages/opt/primal.py:683: RuntimeWarning: invalid value encountered in "
             "multiply\n  y = x + omega * (x - xold)\n"
             "/venv/lib/python3.11/site-packages/ops/matrixmult.py:134: RuntimeWarning: invalid value encountered in "
             "dot\n  y = self.A.dot(x)\n")


def _shown(niter: int, show: tuple[int, int, int] = (10, 10, 10)) -> list[int]:
    """The iterations a solver's table shows: the first ``show[0]``, every ``show[2]``-th, the last ``show[1]``."""
    return [k for k in range(1, niter + 1)
            if k <= show[0] or k > niter - show[1] or (k - 1) % show[2] == 0]


def _ista(niter: int, grow: bool = False) -> tuple[str, list[tuple[int, float]]]:
    rnd = random.Random(niter)
    out = ["ISTA (soft thresholding)\n", "-" * 80 + "\n", "The Operator Op has 80 rows and 120 cols\n",
           f"eps = 1.000000e-01\ttol = 0.000000e+00\tniter = {niter}\n",
           "alpha = 2.615431e-03\tthresh = 1.307715e-04\n", "-" * 80 + "\n",
           "   Itn          x[0]              r2norm     r12norm     xupdate\n"]
    truth = []
    for k in _shown(niter):
        r2 = 2471.0 * (1.7 ** k if grow else 1.0 / k ** 1.5)
        r12 = r2 * 1.002 + 4.0
        x0 = (-1) ** k * 0.17 * (1.5 ** k if grow else 1.0 + 0.01 * k)
        row = f"{k:6d}      {x0:11.4e}         {r2:10.3e}  {r12:10.3e}  {rnd.random():10.3e}\n"
        out.append(row)
        truth.append((k, float(f"{r12:10.3e}")))
    out += [f"\nIterations = {niter}        Total time (s) = 0.00\n", "-" * 80 + "\n\n"]
    return "".join(out), truth


def test_a_solver_table_under_itn_is_read_at_its_iterations_and_its_total_cost_is_the_objective(tmp_path):
    text, truth = _ista(100)
    pts = whole_as_live(tmp_path, text.encode(), "ista.log")
    assert list(zip(*pts["r12norm"], strict=True)) == truth, pts.keys()
    assert primary_names(pts) == ["r12norm"]


def test_a_diverging_solver_table_reads_its_growth(tmp_path):
    text, truth = _ista(60, grow=True)
    pts = whole_as_live(tmp_path, text.encode(), "ista_div.log")
    assert list(zip(*pts["r12norm"], strict=True)) == truth
    assert primary_names(pts) == ["r12norm"]


def test_the_first_residual_norm_of_a_least_squares_table_is_its_objective(tmp_path):
    out = ["CGLS\n", "-" * 65 + "\n", "The Operator Op has 80 rows and 120 cols\n",
           "damp = 0.000000e+00\ttol = 0.000000e+00\tniter = 30\n", "-" * 65 + "\n\n",
           "    Itn          x[0]              r1norm         r2norm\n"]
    truth = []
    for k in _shown(30):
        r1 = 30.1 / k ** 1.3
        out.append(f"{k:6d}       {-0.2 - 0.004 * k:11.4e}         {r1:11.4e}     {r1 * 1.01:11.4e}\n")
        truth.append((k, float(f"{r1:11.4e}")))
    out.append("\nIterations = 30        Total time (s) = 0.00\n")
    pts = whole_as_live(tmp_path, "".join(out).encode(), "cgls.log")
    assert list(zip(*pts["r1norm"], strict=True)) == truth, pts.keys()
    assert primary_names(pts) == ["r1norm"]


def _proximal(niter: int, show: tuple[int, int, int], blow_up_at: int | None = None) -> tuple[str, list]:
    out = ["ProximalGradient\n", "-" * 81 + "\n", "Proximal operator (f): L2\n", "Proximal operator (g): L1\n\n",
           "tau = 3.48e-03\t\tbacktrack = False\n", "beta = 0.5\t\tepsg = 0.5\t\tacceleration = None\n",
           f"niter = {niter}\t\tniterback = 100\t\ttol = 0.0\n", "-" * 81 + "\n\n",
           "    Itn           x[0]              f           g       J=f+eps*g     tau\n"]
    truth = []
    for k in _shown(niter, show):
        if blow_up_at is None:
            f, g = 528.8 / k, 18.9 + 0.1 * k
        else:
            f = 9.8e5 * 1000.0 ** k if k < blow_up_at else math.inf if k == blow_up_at else math.nan
            g = 7.6e2 * 30.0 ** k if k < blow_up_at else math.nan
        j = f + 0.5 * g
        x0 = 0.0668 - 0.0002 * k if blow_up_at is None else (2.67 * (-40.0) ** k if k < blow_up_at else math.nan)
        out.append(f"{k:6d}         {x0:10.4e}       {f:10.3e}  {g:10.3e}  {j:10.3e}  3.48e-03\n")
        truth.append((k, float(f"{j:10.3e}")))
        if blow_up_at is not None and k == 60:
            out.append(_WARNINGS)
    out.append(f"\nIterations = {niter}        Total time (s) = 0.01\n" + "-" * 81 + "\n\n")
    return "".join(out), truth


def _same(got: list, want: list) -> bool:
    return len(got) == len(want) and all(
        s == t and (v == w or math.isnan(v) and math.isnan(w)) for (s, v), (t, w) in zip(got, want, strict=True))


def test_a_column_named_by_its_definition_is_the_cost_and_the_objective(tmp_path):
    text, truth = _proximal(100, (10, 10, 10))
    pts = whole_as_live(tmp_path, text.encode(), "prox.log")
    assert list(zip(*pts["J=f+eps*g"], strict=True)) == truth, pts.keys()
    assert primary_names(pts) == ["J=f+eps*g"]


def test_rows_go_on_past_three_warnings_amid_the_table_to_its_nan_rows(tmp_path):
    text, truth = _proximal(120, (10, 10, 1), blow_up_at=100)
    pts = whole_as_live(tmp_path, text.encode(), "prox_nan.log")
    got = list(zip(*pts["J=f+eps*g"], strict=True))
    assert _same(got, truth), (len(got), len(truth), got[-3:])


def test_a_definition_is_a_name_a_setting_is_not():
    assert defines_a_sum("J=f+eps*g") and defines_a_sum("loss=ce+0.1*l2")
    assert not defines_a_sum("lr=0.1") and not defines_a_sum("step=30") and not defines_a_sum("a=b")


def test_the_objective_of_a_solver_table_is_its_cost_never_its_solution():
    def primary(names: list[str]) -> list[str]:
        return [n for n, r in assign_roles(names).items() if r.primary]

    assert primary(["x[0]", "r2norm", "r12norm", "xupdate"]) == ["r12norm"]
    assert primary(["x[0]", "r1norm", "r2norm"]) == ["r1norm"]
    assert primary(["x[0]", "f", "g", "J", "tau"]) == ["J"]
    assert primary(["x[0]", "xupdate"]) == []
    assert primary(["loss", "r2norm"]) == ["loss"]  # a loss named wins


def _modopt(iters: list[int], values: list[float], n: int, test_every: int = 4) -> str:
    out = ["WARNING: astropy not found, will default to scipy for convolution\n",
           "WARNING: Making input data immutable.\n", f"\r  0%|          | 0/{n} [00:00<?, ?it/s]"]
    for k, (it, v) in enumerate(zip(iters, values, strict=True), 1):
        out.append(f" - ITERATION: {it}\n - DATA FIDELITY (X): {v * 0.9!r}\n - L1 NORM (X): {v * 0.1!r}\n"
                   f" - COST: {v!r}\n\n")
        if k % test_every == 0:
            out.append(f" - CONVERGENCE TEST - \n - CHANGE IN COST: {0.3 / k!r}\n\n")
    out.append(f"\r100%|██████████| {n}/{n} [00:00<00:00, 21959.71it/s]\n")
    return "".join(out)


def test_capital_records_are_read_from_the_bar_line_and_a_change_in_cost_is_no_cost(tmp_path):
    rnd = random.Random(33)
    iters = list(range(1, 41))
    values, v = [], 217.84
    for _ in iters:
        values.append(v)
        v = v * (0.75 + 0.2 * rnd.random())
    pts = whole_as_live(tmp_path, _modopt(iters, values, 40).encode(), "modopt.log")
    assert list(zip(*pts["COST"], strict=True)) == list(zip(iters, values, strict=True)), pts.keys()
    assert primary_names(pts) == ["COST"]


def test_a_name_in_capitals_keeps_its_words_and_a_level_word_still_goes(tmp_path):
    lines = [f"INFO train loss: {1.0 / k:.4f} step {k}" for k in range(1, 15)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "info.log")
    assert "train loss" in pts, pts.keys()
    assert [n for n, r in assign_roles(["COST", "CHANGE IN COST"]).items() if r.primary] == ["COST"]
    assert [n for n, r in assign_roles(["CHANGE IN COST", "COST"]).items() if r.primary] == ["COST"]
