"""A solver's table that names the value it minimises by an abbreviation of "function value" (examples/
libraries_holdout80's SPORCO dictionary learning: ``Itn   Fnc       DFid      ℓ1        Cnstr ...``, ``Fnc`` its
objective ``ObjFun``): that column is the run's objective, minimised, and the run judged by it."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from training_check.tools.objective import assign_roles
from training_check.tools.roles import infer_role

from .test_read_misses import assert_at_truth, corpus_runs, primary_names, whole_as_live

REPO = Path(__file__).resolve().parents[1]
SET80 = REPO / "examples" / "libraries_holdout80"


@pytest.mark.parametrize("name", ["Fnc", "fnc", "ObjFun", "obj_fun", "Obj Fun", "fval", "f value"])
def test_an_abbreviated_function_value_is_minimised(name):
    assert infer_role(name).direction == "min", name


@pytest.mark.parametrize("name", ["Fnc", "ObjFun"])
def test_it_is_the_objective_beside_a_solvers_diagnostics(name):
    # (the other columns of SPORCO's tables: data fidelity, a regulariser, a constraint's violation, residuals and
    # the penalty parameter)
    names = ["Itn", name, "DFid", "l1", "Cnstr", "r_X", "s_X", "rho_X", "r_D", "s_D"]
    roles = assign_roles(names)
    assert [n for n, r in roles.items() if r.primary] == [name]


def _sporco_table(values: list[float], seed: int = 0) -> bytes:
    """A SPORCO-like iteration table: a header, a rule, one row per iteration of ``%.2e`` cells."""
    head = "Itn   Fnc       DFid      ℓ1        Cnstr     r_X       s_X       ρ_X     "
    out = [head, "-" * len(head)]
    for i, v in enumerate(values):
        cells = [v, 0.6 * v, 1.3e2 + i, 0.5 / (i + 1), 0.3 / (i + 1), 1.8 / (i + 1), 1.1]
        out.append(f"{i:4d}  " + "  ".join(f"{c:.2e}" for c in cells))
    return ("\n".join(out) + "\n").encode()


@pytest.mark.parametrize("values", [
    [186.0 * 0.9 ** i + 80 for i in range(25)],  # converging
    [186.0, 99.6, 88.5, 95.0] + [95.0 * 1.6 ** k for k in range(1, 20)],  # a step too long: down, then up
])
def test_a_generated_table_is_read_as_its_objective_whole_and_in_pieces(tmp_path, values):
    data = _sporco_table(values)
    pts = whole_as_live(tmp_path, data, "sporco.log")
    assert primary_names(pts) == ["Fnc"]
    steps, got = pts["Fnc"]
    assert steps == list(range(len(values)))
    assert all(math.isclose(g, float(f"{v:.2e}")) for g, v in zip(got, values, strict=True))


def test_the_corpus_tables_read_at_the_truths_steps(tmp_path):
    for run in corpus_runs(SET80, "sporco_"):
        data = (SET80 / run / "train.log").read_bytes()
        truth = json.loads((SET80 / run / "truth.json").read_text())
        pts = whole_as_live(tmp_path, data, f"{run}.log")
        assert primary_names(pts) == ["Fnc"], run
        assert_at_truth(dict(zip(*pts["Fnc"], strict=True)), truth, run)
