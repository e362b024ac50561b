"""ModOpt: a sparse (L1) regularised least-squares problem on a random dense matrix (``GradBasic`` with the matrix
and its transpose, ``SparseThreshold`` on the ``Identity``), solved with its ``ForwardBackward`` (plain, or with
``lambda_update="fista"``) or ``POGM`` algorithm, as its examples do: ``cost="auto"`` (its ``costObj`` over the
gradient and proximity operators, ``verbose=True`` by default, every ``cost_interval`` iterations) and its tqdm
progress bar (``progress=True``, the default). The cost object prints on stdout ``" - ITERATION: 3"`` then
``" - COST: 123.45678901234567"`` (Python's ``repr`` of the float) and a blank line, and ``" - CONVERGENCE TEST - "``
/ ``" - CHANGE IN COST: 0.0123"`` every ``test_range`` costs; the progress bar goes to stderr. Truth: the cost
object's own ``_cost_list`` (one value each time it prints, at the iteration it prints: its ``_iteration`` counter,
from 1, a multiple of ``cost_interval``), every value."""

from __future__ import annotations

import argparse

import numpy as np
from h33_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algo", default="fb", choices=["fb", "fista", "pogm"])
ap.add_argument("--max-iter", type=int, default=60)
ap.add_argument("--weight", type=float, default=0.5)
ap.add_argument("--beta-scale", type=float, default=1.0, help="step = scale / L")
ap.add_argument("--cost-interval", type=int, default=1)
ap.add_argument("--test-range", type=int, default=4)
ap.add_argument("--n", type=int, default=60)
ap.add_argument("--m", type=int, default=100)
ap.add_argument("--noise", type=float, default=0.1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import modopt  # noqa: E402
from modopt.opt.algorithms import POGM, ForwardBackward  # noqa: E402
from modopt.opt.cost import costObj  # noqa: E402
from modopt.opt.gradient import GradBasic  # noqa: E402
from modopt.opt.linear import Identity  # noqa: E402
from modopt.opt.proximity import SparseThreshold  # noqa: E402

rng = np.random.default_rng(2)
A = rng.normal(size=(a.n, a.m))
xtrue = np.zeros(a.m)
xtrue[rng.choice(a.m, 8, replace=False)] = rng.normal(scale=2.0, size=8)
y = A @ xtrue + rng.normal(scale=a.noise, size=a.n)
L = float(np.linalg.eigvalsh(A.T @ A).max())

grad = GradBasic(input_data=y, op=lambda x: A @ x, trans_op=lambda r: A.T @ r)
prox = SparseThreshold(Identity(), a.weight)
cost = costObj([grad, prox], cost_interval=a.cost_interval, test_range=a.test_range, verbose=True)
x0 = np.zeros(a.m)
if a.algo == "pogm":
    alg = POGM(u=x0, x=x0, y=x0, z=x0, grad=grad, prox=prox, cost=cost, beta_param=a.beta_scale / L,
               auto_iterate=False)
else:
    alg = ForwardBackward(x=x0, grad=grad, prox=prox, cost=cost, beta_param=a.beta_scale / L,
                          lambda_update="fista" if a.algo == "fista" else None, auto_iterate=False)
alg.iterate(max_iter=a.max_iter)

costs = [float(c) for c in cost._cost_list]
# the cost object prints when its counter (from 1) is a multiple of cost_interval
steps = [a.cost_interval * (i + 1) for i in range(len(costs))]
write_truth(framework=f"modopt {modopt.__version__}", settings=vars(a), loss_name="COST",
            step_unit="iteration, 1-based (` - ITERATION: N`)", tolerance=tol_sig(12),
            record="the cost object's own `_cost_list` (`modopt.opt.cost.costObj`)",
            train_loss=list(zip(steps, costs, strict=True)))
