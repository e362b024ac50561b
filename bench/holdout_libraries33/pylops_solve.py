"""pylops: a sparse inverse problem (a random dense ``MatrixMult`` operator, a sparse model, noisy data) solved with
one of its iterative solvers and ``show=True``, as its tutorials do: ``ista`` / ``fista`` (L1-regularised least
squares, step ``alpha``, default 1 / the operator's largest eigenvalue of A^T A) or ``cgls`` (damped least squares).
The solver prints its parameters then a table on stdout, ``   Itn          x[0]              r2norm     r12norm
xupdate`` with rows ``     1     1.2345e-01         1.234e+02   1.301e+02   3.456e-01`` for the first ``itershow[0]``
iterations, the last ``itershow[1]`` and every ``itershow[2]``-th (ISTA / FISTA; ``Itn x[0] r1norm r2norm`` for
CGLS, which prints a row of its first block twice), then ``Iterations = N  Total time (s) = ...``.
Truth: the ``cost`` array the solver returns (ISTA / FISTA: the total cost, data term + eps * L1, the printed
``r12norm``, one an iteration; CGLS: the residual norm, ``r1norm``, the initial one first), at the iteration the row
prints (1-based), only at the printed rows."""

from __future__ import annotations

import argparse
import io
import re
import sys

import numpy as np
from h33_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--solver", default="ista", choices=["ista", "fista", "cgls"])
ap.add_argument("--niter", type=int, default=100)
ap.add_argument("--eps", type=float, default=0.1)
ap.add_argument("--alpha-scale", type=float, default=0.0, help="alpha = scale / L (0: the solver's default)")
ap.add_argument("--damp", type=float, default=0.0)
ap.add_argument("--itershow", default="10,10,10")
ap.add_argument("--n", type=int, default=80)
ap.add_argument("--m", type=int, default=120)
ap.add_argument("--noise", type=float, default=0.05)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pylops  # noqa: E402

rng = np.random.default_rng(0)
A = rng.normal(size=(a.n, a.m))
xtrue = np.zeros(a.m)
xtrue[rng.choice(a.m, 10, replace=False)] = rng.normal(scale=3.0, size=10)
y = A @ xtrue + rng.normal(scale=a.noise, size=a.n)
Op = pylops.MatrixMult(A)
itershow = tuple(int(v) for v in a.itershow.split(","))

# the rows the solver prints are read back from its own stdout only to know which iterations it showed
buf = io.StringIO()


class Tee(io.TextIOBase):
    def write(self, s):
        buf.write(s)
        return sys.__stdout__.write(s)

    def flush(self):
        sys.__stdout__.flush()


sys.stdout = Tee()
if a.solver == "cgls":
    x, istop, iit, r1norm, r2norm, cost = pylops.optimization.basic.cgls(
        Op, y, x0=np.zeros(a.m), niter=a.niter, damp=a.damp, tol=0, show=True, itershow=itershow)
    loss_name, first = "r1norm", 0  # CGLS's cost holds the initial residual norm first
else:
    L = float(np.linalg.eigvalsh(A.T @ A).max())
    alpha = a.alpha_scale / L if a.alpha_scale else None
    solve = pylops.optimization.sparsity.ista if a.solver == "ista" else pylops.optimization.sparsity.fista
    x, iit, cost = solve(Op, y, x0=np.zeros(a.m), niter=a.niter, eps=a.eps, alpha=alpha, tol=0, show=True,
                         itershow=itershow)
    loss_name, first = "r12norm", 1  # ISTA's / FISTA's, one value an iteration from the first
sys.stdout = sys.__stdout__

shown = []
for line in buf.getvalue().splitlines():
    parts = line.split()
    if len(parts) >= 4 and re.fullmatch(r"\d+", parts[0]):
        if int(parts[0]) not in shown:  # CGLS prints a row of its first block twice
            shown.append(int(parts[0]))
cost = [float(c) for c in cost]
write_truth(framework=f"pylops {pylops.__version__}", settings=vars(a), loss_name=loss_name,
            step_unit="iteration, 1-based (the `Itn` column)", tolerance=tol_sig(4),
            record=f"the `cost` array `pylops.optimization.{a.solver}` returns (one value an iteration)",
            train_loss=[(i, cost[i - first]) for i in shown if 1 <= i <= len(cost) - 1 + first])
