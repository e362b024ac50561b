"""What examples/libraries_holdout67 showed (issue 32, fixscs). A primal-dual solver prints a table of its iterations:
SCS's ``iter | pri res | dua res | gap | obj | scale | time (s)`` under a rule of dashes, OSQP's ``iter objective
prim res dual res rho time``, ECOS's and Clarabel's ``iter pcost dcost gap pres dres ...``. The objective of a
constrained problem is no loss (it may rise or fall while the iterates become feasible); the run's health is its
residuals going to zero, and an infeasible or unbounded problem shows as a primal residual that jumps and never comes
back:

- a primal residual (``Dialect.primal_residual_names``) beside a dual residual or a duality gap is the run's
  objective (``objective.primal_residual``), the objective's value a diagnostic without a direction;
- ipopt's ``iter objective inf_pr inf_du ...`` (no gap, its runs unconstrained training) keeps its ``objective``;
- a best at a rounding residue (a residual at 1e-16 of its first log) is no base for a blow-up's ratio
  (``divergence.DivergenceParams.zero_share``): a healthy QP's residual 1.0 -> 9e-16 -> 1.6e-7 -> 4e-8 is no STOP.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from training_check.tools.objective import assign_roles
from training_check.tools.signals import divergence
from training_check.tools.signals.curve import make_curve

from .test_read_misses import _read, primary_names, truth_points, whole_as_live

ROOT = Path(__file__).resolve().parents[1] / "examples" / "libraries_holdout67"
RUNS = sorted(p.parent.name for p in ROOT.glob("*/train.log"))

_RULE = "-" * 66


def _scs_log(rows: list[tuple[int, float, float, float, float]], scale: float, width: int) -> str:
    head = ["Logging run data to scs_log.csv", _RULE, "\t       SCS v3.3.1 - Splitting Conic Solver",
            "\t(c) Brendan O'Donoghue, Stanford University, 2012", _RULE,
            "problem:  variables n: 40, constraints m: 160", "cones: \t  l: linear vars: 160",
            "settings: eps_abs: 1.0e-09, eps_rel: 1.0e-09, eps_infeas: 1.0e-07",
            "\t  alpha: 1.50, scale: 1.00e-01, adaptive_scale: 1", _RULE,
            " iter | pri res | dua res |   gap   |   obj   |  scale  | time (s)", _RULE]
    body = [f"{it:>{width}}|" + "".join(f"{v: .2e} " for v in (p, d, g, o, scale, 1e-3 * (k + 1)))
            for k, (it, p, d, g, o) in enumerate(rows)]
    tail = [_RULE, "status:  solved", "timings: total: 1.91e-01s = setup: 1.64e-03s + solve: 1.89e-01s", _RULE,
            "objective = -237.637897", _RULE]
    return "\n".join(head + body + tail) + "\n"


def _osqp_log(rows: list[tuple[int, float, float, float]], names: tuple[str, str]) -> str:
    head = ["-" * 65, "           OSQP v0.6.3  -  Operator Splitting QP Solver", "-" * 65,
            "problem:  variables n = 2, constraints m = 3", "",
            f"iter   objective    {names[0]:<8}   {names[1]:<8}   rho        time"]
    body = [f"{it:4d}  {o: .4e}   {p:.2e}   {d:.2e}   1.00e-01   {2e-5 * (k + 1):.2e}s"
            for k, (it, o, p, d) in enumerate(rows)]
    return "\n".join(head + body + ["", "status:               solved", "optimal objective:    1.8800"]) + "\n"


def _clarabel_log(rows: list[tuple[float, float, float, float, float]]) -> str:
    head = ["-" * 61, "           Clarabel.rs v0.6.0  -  Clever Acronym", "-" * 61, "",
            "iter    pcost        dcost       gap       pres      dres      k/t        μ       step      ", "-" * 93]
    body = [f"{k:3d}  {pc: .4e}  {dc: .4e}  {g:.2e}  {p:.2e}  {d:.2e}  1.00e+00  1.00e+00  "
            + ("  ------   " if k == 0 else "9.90e-01  ") for k, (pc, dc, g, p, d) in enumerate(rows)]
    return "\n".join(head + body + ["-" * 93, "Terminated with status = Solved"]) + "\n"


def _printed(x: float) -> float:
    return float(f"{x:.2e}")


def _scs_rows(rng: random.Random, n: int, every: int, kind: str) -> list[tuple[int, float, float, float, float]]:
    start = 10 ** rng.uniform(-1, 2)
    rows = []
    for k in range(n):
        it = k * every if k < n - 1 else (n - 2) * every + rng.choice((every, 25))
        if kind == "healthy":
            p = start * 10 ** (-k * rng.uniform(0.5, 1.5))
        else:  # infeasible: the residual jumps and never comes back
            p = start * 10 ** rng.uniform(2, 9) if k else start
        o = -50.0 + rng.uniform(-30, 30) * (1 if kind == "healthy" else 1e18)
        rows.append((it, p, p * rng.uniform(0.1, 10), abs(p) * rng.uniform(1, 100), o))
    return rows


@pytest.mark.parametrize("seed", range(6))
def test_scs_tables_primal_residual_is_the_objective_whole_and_in_pieces(tmp_path, seed):
    rng = random.Random(seed)
    n, every = rng.randint(5, 14), rng.choice((25, 100, 250))
    kind = "healthy" if seed % 2 else "infeasible"
    rows = _scs_rows(rng, n, every, kind)
    width = max(6, len(str(rows[-1][0])) + 1) + rng.choice((0, 1))
    data = _scs_log(rows, rng.choice((1e-3, 0.1, 100.0)), width).encode()
    pts = whole_as_live(tmp_path, data, f"scs{seed}.log")
    assert primary_names(pts) == ["pri res"]
    assert pts["pri res"] == ([r[0] for r in rows], [_printed(r[1]) for r in rows])
    roles = assign_roles(list(pts))
    assert roles["obj"].direction is None and not roles["obj"].primary


@pytest.mark.parametrize("names", [("pri res", "dua res"), ("prim res", "dual res")])
def test_osqp_tables_primal_residual_is_the_objective(tmp_path, names):
    rows = [(1, -4.6823, 2.0, 6.0), (25, 1.8801, 0.12, 0.03), (50, 1.88, 0.0102, 0.00298), (75, 1.88, 5e-4, 1e-4)]
    pts = whole_as_live(tmp_path, _osqp_log(rows, names).encode(), "osqp.log")
    assert primary_names(pts) == [names[0]]
    assert pts[names[0]] == ([1, 25, 50, 75], [2.0, 0.12, 0.0102, 5e-4])
    assert assign_roles(list(pts))["objective"].direction is None


def test_clarabel_tables_pres_is_the_objective_not_pcost(tmp_path):
    rows = [(1.0, -2.0, 3.0, 0.615, 0.257), (1.25, 1.12, 0.13, 0.0581, 0.0201), (1.87, 1.86, 0.01, 1e-3, 4.01e-4),
            (1.88, 1.88, 1e-4, 1.03e-5, 4.02e-6)]
    pts = whole_as_live(tmp_path, _clarabel_log(rows).encode(), "clarabel.log")
    assert primary_names(pts) == ["pres"]
    assert pts["pres"] == ([0, 1, 2, 3], [0.615, 0.0581, 1e-3, 1.03e-5])
    roles = assign_roles(list(pts))
    assert roles["pcost"].direction is None and roles["dcost"].direction is None


@pytest.mark.parametrize("names, primary", [
    (["pri res", "dua res", "gap", "obj", "scale", "time (s)"], "pri res"),
    (["objective", "prim res", "dual res", "rho", "time_s"], "prim res"),
    (["pcost", "dcost", "gap", "pres", "dres", "k/t", "mu"], "pres"),
    (["pres", "gap"], "pres"),  # a gap alone beside it is enough
    (["objective", "inf_pr", "inf_du", "lg(mu)", "||d||", "alpha_du", "alpha_pr", "ls"], "objective"),  # ipopt
    (["obj", "pres"], "obj"),  # a primal residual alone, no dual residual nor gap: no primal-dual table
    (["loss", "pri res", "dua res"], "loss"),  # a loss named wins
])
def test_which_column_a_solver_table_is_judged_by(names, primary):
    roles = assign_roles(names)
    assert [n for n, r in roles.items() if r.primary] == [primary]


def test_a_residual_risen_from_a_rounding_residue_far_under_its_start_is_no_blowup():
    p = divergence.DEFAULT
    healthy = [1.0, 9.39e-16, 8.32e-16, 8.72e-16, 1.57e-7, 9.65e-8, 7.01e-8, 5.13e-8, 3.98e-8]
    c = make_curve(pd.Series(healthy, index=np.arange(0, 2250, 250)))
    best = float(np.min(healthy))
    assert divergence._blown_up(c, best, 8.72e-16, p) == 0
    # the same residual risen orders of magnitude over a best that is a number, not a residue: a blow-up
    risen = [1.0, 1e-5, 1e-5, 1e-5, 1e-1, 2e-1, 3e-1, 2e-1, 2e-1]
    c = make_curve(pd.Series(risen, index=np.arange(0, 2250, 250)))
    assert divergence._blown_up(c, 1e-5, 1e-5, p) > 0


@pytest.mark.parametrize("run", RUNS)
def test_corpus_files_read_at_the_truths_steps(tmp_path, run):
    truth, got = truth_points(tmp_path, ROOT, run)
    rel = truth["tolerance"]["rel"]
    for s, v in truth["train_loss"]:
        assert s in got, (run, s)
        assert abs(got[s] - v) <= rel * abs(v) + 1e-300, (run, s, got[s], v)


def test_read_whole_as_by_the_file_reader(tmp_path):
    run = RUNS[0]
    cols = _read(tmp_path, (ROOT / run / "train.log").read_bytes())
    assert "pri res" in cols and len(cols["pri res"][0]) >= 9
