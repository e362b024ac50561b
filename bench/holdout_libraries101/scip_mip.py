"""pyscipopt: a small mixed-integer program solved by SCIP (``Model.optimize``) with its default output: the
presolve messages, then its display table on stdout, ``time | node | left |LP iter| ... |  dualbound   |
primalbound  |  gap   | compl.`` with a row at each new incumbent (marked in the first column by the heuristic's
letter, ``r 0.0s|     1 |``), every 100 nodes and at root rounds; values as ``%e`` (7 significant digits); a
closing status block. Models: capacitated facility location, a multi-dimensional knapsack written as a minimisation
(the cost of the items left out) and a weighted set cover; optionally with SCIP's primal heuristics off or
``display/verblevel`` 5. Truth: an event handler catching ``BESTSOLFOUND``: the objective of the new best solution
each time it is found in the solving stage (the k-th new incumbent of the table; those found in presolving, which
SCIP does not all print, are kept apart)."""

from __future__ import annotations

import argparse

from h101_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--problem", default="facility", choices=["facility", "knapsack", "cover"])
ap.add_argument("--n", type=int, default=40)
ap.add_argument("--heuristics-off", action="store_true")
ap.add_argument("--verblevel", type=int, default=4)
ap.add_argument("--time-limit", type=float, default=30.0)
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(a.seed)

import numpy as np  # noqa: E402
import pyscipopt  # noqa: E402
from pyscipopt import SCIP_EVENTTYPE, SCIP_PARAMSETTING, Eventhdlr, Model, quicksum  # noqa: E402

rng = np.random.default_rng(a.seed)
m = Model()
n = a.n
if a.problem == "facility":
    nf = max(4, n // 3)
    fixed = rng.integers(200, 600, nf)
    cost = rng.integers(5, 100, (nf, n))
    dem = rng.integers(5, 30, n)
    cap = rng.integers(60, 150, nf)
    y = [m.addVar(vtype="B", name=f"y{i}") for i in range(nf)]
    x = [[m.addVar(lb=0, ub=1, name=f"x{i}_{j}") for j in range(n)] for i in range(nf)]
    for j in range(n):
        m.addCons(quicksum(x[i][j] for i in range(nf)) == 1)
    for i in range(nf):
        m.addCons(quicksum(int(dem[j]) * x[i][j] for j in range(n)) <= int(cap[i]) * y[i])
    m.setObjective(quicksum(int(fixed[i]) * y[i] for i in range(nf))
                   + quicksum(int(cost[i, j] * dem[j]) * x[i][j] for i in range(nf) for j in range(n)), "minimize")
elif a.problem == "knapsack":
    dims = 5
    value = rng.integers(10, 100, n)
    weight = rng.integers(5, 60, (dims, n))
    cap = (weight.sum(1) * 0.4).astype(int)
    z = [m.addVar(vtype="B", name=f"z{j}") for j in range(n)]
    for d in range(dims):
        m.addCons(quicksum(int(weight[d, j]) * z[j] for j in range(n)) <= int(cap[d]))
    m.setObjective(quicksum(int(value[j]) * (1 - z[j]) for j in range(n)), "minimize")
else:
    sets = 3 * n
    cover = rng.random((sets, n)) < 0.08
    for j in range(n):
        if not cover[:, j].any():
            cover[rng.integers(sets), j] = True
    w = rng.integers(1, 50, sets)
    s = [m.addVar(vtype="B", name=f"s{k}") for k in range(sets)]
    for j in range(n):
        m.addCons(quicksum(s[k] for k in range(sets) if cover[k, j]) >= 1)
    m.setObjective(quicksum(int(w[k]) * s[k] for k in range(sets)), "minimize")


class Incumbents(Eventhdlr):
    """The objective of each new best solution, in order."""

    values: list[tuple[int, float]] = []

    def eventinit(self) -> None:
        self.model.catchEvent(SCIP_EVENTTYPE.BESTSOLFOUND, self)

    def eventexit(self) -> None:
        self.model.dropEvent(SCIP_EVENTTYPE.BESTSOLFOUND, self)

    def eventexec(self, event: object) -> None:
        self.values.append((int(self.model.getStage()), self.model.getSolObjVal(self.model.getBestSol())))


m.includeEventhdlr(Incumbents(), "incumbents", "records each new best solution's objective")
m.setParam("randomization/randomseedshift", a.seed)
m.setParam("lp/threads", 1)
m.setParam("limits/time", a.time_limit)
m.setParam("display/verblevel", a.verblevel)
if a.heuristics_off:
    m.setHeuristics(SCIP_PARAMSETTING.OFF)
m.optimize()
# the incumbents found once the solving stage began (the table's rows); those of presolving are not all printed
solving = [v for stage, v in Incumbents.values if stage == int(pyscipopt.SCIP_STAGE.SOLVING)]
write_truth(framework=f"pyscipopt {pyscipopt.__version__}", settings=vars(a), label=a.label,
            should_stop=a.should_stop, loss_name="primalbound (the incumbent's objective)",
            step_unit="new incumbent of the solving stage, 1-based (the k-th table row marked by a heuristic's letter)",
            tolerance=tol_sig(7),
            record="an `Eventhdlr` catching `BESTSOLFOUND`: `getSolObjVal(getBestSol())` at each new best solution "
                   "found in the solving stage (`getStage()`; those found in presolving are left out)",
            presolve_incumbents=[v for stage, v in Incumbents.values if stage != int(pyscipopt.SCIP_STAGE.SOLVING)],
            train_loss=list(enumerate(solving, 1)), status=m.getStatus(),
            solving_nodes=m.getNNodes())
