"""ortools CP-SAT: a small minimisation model solved by ``cp_model.CpSolver`` with ``log_search_progress=True`` (its
own log on stdout: the model, presolve, then a line per new solution, ``#3       0.05s best:5585  next:[0,5584]
main (fixed_bools=0/2922)``, and a closing summary), one worker, seeded, a deterministic time limit. Models: single
machine weighted tardiness (``no_overlap`` of interval variables), a travelling salesman tour (``add_circuit``) and
a generalised assignment (Boolean variables, capacity constraints). Truth: a ``CpSolverSolutionCallback``'s record
of ``objective_value`` at each solution it is called with (the k-th call is the log's ``#k``)."""

from __future__ import annotations

import argparse

from h101_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--problem", default="tardiness", choices=["tardiness", "tsp", "assign"])
ap.add_argument("--n", type=int, default=30)
ap.add_argument("--dtime", type=float, default=1.0, help="max_deterministic_time")
ap.add_argument("--no-presolve", action="store_true")
ap.add_argument("--linearization", type=int, default=1)
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(a.seed)

import numpy as np  # noqa: E402
import ortools  # noqa: E402
from ortools.sat.python import cp_model  # noqa: E402

rng = np.random.default_rng(a.seed)
md = cp_model.CpModel()
n = a.n
if a.problem == "tardiness":
    dur = rng.integers(1, 20, n)
    due = rng.integers(10, int(dur.sum()), n)
    w = rng.integers(1, 5, n)
    H = int(dur.sum())
    start = [md.new_int_var(0, H, f"s{i}") for i in range(n)]
    end = [md.new_int_var(0, H, f"e{i}") for i in range(n)]
    md.add_no_overlap([md.new_interval_var(start[i], int(dur[i]), end[i], f"i{i}") for i in range(n)])
    late = [md.new_int_var(0, H, f"t{i}") for i in range(n)]
    for i in range(n):
        md.add_max_equality(late[i], [0, end[i] - int(due[i])])
    md.minimize(sum(int(w[i]) * late[i] for i in range(n)))
elif a.problem == "tsp":
    pts = rng.uniform(0, 1000, (n, 2))
    dist = np.rint(np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])).astype(int)
    arcs, cost = [], []
    for i in range(n):
        for j in range(n):
            if i != j:
                lit = md.new_bool_var(f"x{i}_{j}")
                arcs.append((i, j, lit))
                cost.append(int(dist[i, j]) * lit)
    md.add_circuit(arcs)
    md.minimize(sum(cost))
else:
    agents = max(3, n // 6)
    c = rng.integers(10, 100, (agents, n))
    size = rng.integers(5, 25, (agents, n))
    cap = (size.sum(1) / agents * 1.3).astype(int)
    x = [[md.new_bool_var(f"x{i}_{j}") for j in range(n)] for i in range(agents)]
    for j in range(n):
        md.add_exactly_one(x[i][j] for i in range(agents))
    for i in range(agents):
        md.add(sum(int(size[i, j]) * x[i][j] for j in range(n)) <= int(cap[i]))
    md.minimize(sum(int(c[i, j]) * x[i][j] for i in range(agents) for j in range(n)))


class Record(cp_model.CpSolverSolutionCallback):
    """The objective of every solution the solver reports, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.values: list[float] = []

    def on_solution_callback(self) -> None:
        self.values.append(self.objective_value)


solver = cp_model.CpSolver()
solver.parameters.log_search_progress = True
solver.parameters.num_workers = 1
solver.parameters.random_seed = a.seed
solver.parameters.max_deterministic_time = a.dtime
solver.parameters.max_time_in_seconds = 60
solver.parameters.cp_model_presolve = not a.no_presolve
solver.parameters.linearization_level = a.linearization
rec = Record()
status = solver.solve(md, rec)
write_truth(framework=f"ortools {ortools.__version__}", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="objective (best:)", step_unit="solution, 1-based (the log's `#3`)",
            tolerance=tol_decimals(0),
            record="a `CpSolverSolutionCallback`'s record of `objective_value` at each solution it is called with",
            train_loss=list(enumerate(rec.values, 1)), status=solver.status_name(status))
