"""pyunlocbox: ``solvers.solve`` on a small synthetic convex problem (least squares, lasso, lasso plus a ridge term)
with ``verbosity='HIGH'`` or ``'ALL'``, as its tutorials show. It prints on stdout, per iteration,
``Iteration 12 of forward_backward:`` (with ``ALL`` also one ``    norm_l2 evaluation: 1.097047e+02`` line per function)
then ``    objective = 1.13e+02`` (the sum, ``%.2e``), and at the end ``Solution found after N iterations:``.
Truth: the returned ``ret['objective']`` (one row of per-function values per iteration, row 0 the starting point),
summed as the solver sums it, at the iteration, 1-based, as ``Iteration N of`` counts it (row 0 is not printed as an
objective, so it is left out)."""

from __future__ import annotations

import argparse

import numpy as np
from h46_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--problem", default="lasso", choices=["ls", "lasso", "smooth"])
ap.add_argument("--solver", default="forward_backward",
                choices=["gradient_descent", "forward_backward", "douglas_rachford", "generalized_forward_backward"])
ap.add_argument("--step", type=float, default=0.5, help="step, as a fraction of 1/L (L the gradient's Lipschitz)")
ap.add_argument("--lam", type=float, default=0.5)
ap.add_argument("--accel", default="fista", choices=["fista", "dummy"])
ap.add_argument("--maxit", type=int, default=40)
ap.add_argument("--rtol", type=float, default=1e-3)
ap.add_argument("--verbosity", default="HIGH", choices=["HIGH", "ALL"])
ap.add_argument("--m", type=int, default=60)
ap.add_argument("--n", type=int, default=30)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pyunlocbox  # noqa: E402
from pyunlocbox import acceleration, functions, solvers  # noqa: E402

rng = np.random.default_rng(0)
A = rng.normal(size=(a.m, a.n))
x_true = np.where(rng.random(a.n) < 0.3, rng.normal(scale=2.0, size=a.n), 0.0)
y = A @ x_true + rng.normal(scale=0.1, size=a.m)
L = 2 * np.linalg.norm(A, 2) ** 2  # the Lipschitz constant of the gradient of ||Ax - y||^2
f_data = functions.norm_l2(y=y, A=A, lambda_=1.0)
fs = [f_data]
if a.problem == "lasso":
    fs.append(functions.norm_l1(lambda_=a.lam))
elif a.problem == "smooth":
    fs.append(functions.norm_l1(lambda_=a.lam))
    fs.append(functions.norm_l2(lambda_=a.lam))
accel = acceleration.fista() if a.accel == "fista" else acceleration.dummy()
step = a.step / L
if a.solver == "gradient_descent":
    solver = solvers.gradient_descent(step=step)
elif a.solver == "forward_backward":
    solver = solvers.forward_backward(step=step, accel=accel)
elif a.solver == "douglas_rachford":
    solver = solvers.douglas_rachford(step=step, lambda_=1.0)
else:
    solver = solvers.generalized_forward_backward(step=step, lambda_=1.0)

ret = solvers.solve(fs, np.zeros(a.n), solver, rtol=a.rtol, maxit=a.maxit, verbosity=a.verbosity)

rows = ret["objective"]
write_truth(framework=f"pyunlocbox {pyunlocbox.__version__}", settings=vars(a), loss_name="objective",
            step_unit="iteration, 1-based (`Iteration N of <solver>:`)", tolerance=tol_sig(3),
            record="solvers.solve's returned `objective` (per-function values per iteration, summed; row 0 the start)",
            train_loss=[(i, float(np.sum(r))) for i, r in enumerate(rows) if i >= 1])
