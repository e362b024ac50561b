"""skglm: a datafit and a penalty solved by one of its solvers with ``verbose=1``, as its documentation shows
(``w, p_objs, stop_crit = solver.solve(X, y, datafit, penalty)``), on a small synthetic regression or classification
table. Its solvers print a line an iteration on stdout: ``Iteration 12: 0.7266246204, stopping crit: 4.27e-04``
(the objective with 10 decimals), and ``Stopping criterion max violation: 1.47e-04`` when it stops on its tolerance.
Truth: the objective values ``solve`` returns (``p_objs``, one an iteration, the same value it prints), at the
iteration, 1-based, as ``Iteration N:`` counts it."""

from __future__ import annotations

import argparse

import numpy as np
from h22_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--solver", default="fista", choices=["fista", "lbfgs"])
ap.add_argument("--datafit", default="quadratic", choices=["quadratic", "logistic", "huber"])
ap.add_argument("--penalty", default="l1", choices=["l1", "mcp", "l1_plus_l2", "l2"])
ap.add_argument("--alpha", type=float, default=0.05)
ap.add_argument("--iters", type=int, default=30)
ap.add_argument("--tol", type=float, default=1e-4, help="the solvers' default")
ap.add_argument("--n", type=int, default=300)
ap.add_argument("--features", type=int, default=40)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import skglm  # noqa: E402
from skglm.datafits import Huber, Logistic, Quadratic  # noqa: E402
from skglm.penalties import L1, L2, L1_plus_L2, MCPenalty  # noqa: E402
from skglm.solvers import FISTA, LBFGS  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, a.features))
w_true = np.zeros(a.features)
w_true[:6] = [2.0, -1.5, 1.0, 0.8, -0.5, 0.3]
if a.datafit == "logistic":
    y = np.where(X @ w_true + rng.normal(scale=0.5, size=a.n) > 0, 1.0, -1.0)
    datafit = Logistic()
elif a.datafit == "huber":
    y = X @ w_true + rng.standard_t(2, size=a.n)
    datafit = Huber(delta=1.0)
else:
    y = X @ w_true + rng.normal(scale=0.5, size=a.n)
    datafit = Quadratic()
penalty = {"l1": lambda: L1(a.alpha), "mcp": lambda: MCPenalty(a.alpha, gamma=3.0),
           "l1_plus_l2": lambda: L1_plus_L2(a.alpha, l1_ratio=0.5), "l2": lambda: L2(a.alpha)}[a.penalty]()
solver = (FISTA(max_iter=a.iters, tol=a.tol, verbose=1) if a.solver == "fista"
          else LBFGS(max_iter=a.iters, tol=a.tol, verbose=1))

w, p_objs, stop_crit = solver.solve(X, y, datafit, penalty)

write_truth(framework=f"skglm {skglm.__version__}", settings=vars(a), loss_name="objective",
            step_unit="iteration, 1-based (`Iteration N:`)", tolerance=tol_decimals(10),
            record=f"the objective values `{type(solver).__name__}.solve` returns (`p_objs`)",
            train_loss=[(i + 1, float(v)) for i, v in enumerate(p_objs)])
