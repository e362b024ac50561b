"""pyproximal: a sparse (L1) or smooth (L2) regularised least-squares problem on a random dense pylops
``MatrixMult`` operator, solved with its ``ProximalGradient`` solver (``acceleration`` None, ``vandenberghe`` or
``fista``; a fixed step ``tau``, default 1 / the largest eigenvalue of A^T A) and ``show=True``, as its tutorials do.
The solver prints its parameters then a table on stdout, ``    Itn           x[0]              f           g
J=f+eps*g     tau`` with rows ``     1         1.2345e-01       1.234e+02   5.678e+00   1.291e+02  4.12e-03`` for the
first ``itershow[0]`` iterations, the last ``itershow[1]`` and every ``itershow[2]``-th, then ``Iterations = N
Total time (s) = ...``. Truth: the ``cost`` list the solver's ``solve`` returns (J = f + eps * g, one an iteration with
``tol`` set, the initial cost first), at the iteration the row prints (1-based), only at the printed rows."""

from __future__ import annotations

import argparse
import io
import re
import sys

import numpy as np
from h33_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--accel", default="none", choices=["none", "vandenberghe", "fista"])
ap.add_argument("--reg", default="l1", choices=["l1", "l2"])
ap.add_argument("--niter", type=int, default=100)
ap.add_argument("--eps", type=float, default=0.5)
ap.add_argument("--tau-scale", type=float, default=1.0, help="tau = scale / L")
ap.add_argument("--itershow", default="10,10,10")
ap.add_argument("--n", type=int, default=60)
ap.add_argument("--m", type=int, default=100)
ap.add_argument("--noise", type=float, default=0.1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pylops  # noqa: E402
import pyproximal  # noqa: E402
from pyproximal.optimization.cls_primal import ProximalGradient  # noqa: E402

rng = np.random.default_rng(1)
A = rng.normal(size=(a.n, a.m))
xtrue = np.zeros(a.m)
xtrue[rng.choice(a.m, 8, replace=False)] = rng.normal(scale=2.0, size=8)
y = A @ xtrue + rng.normal(scale=a.noise, size=a.n)
Op = pylops.MatrixMult(A)
L = float(np.linalg.eigvalsh(A.T @ A).max())
proxf = pyproximal.L2(Op=Op, b=y)
proxg = pyproximal.L1() if a.reg == "l1" else pyproximal.L2()
itershow = tuple(int(v) for v in a.itershow.split(","))

buf = io.StringIO()


class Tee(io.TextIOBase):
    def write(self, s):
        buf.write(s)
        return sys.__stdout__.write(s)

    def flush(self):
        sys.__stdout__.flush()


sys.stdout = Tee()
solver = ProximalGradient()
x, _, iiter, cost = solver.solve(proxf, proxg, np.zeros(a.m), epsg=a.eps, tau=a.tau_scale / L, niter=a.niter, tol=0.0,
                                 acceleration=None if a.accel == "none" else a.accel, show=True, itershow=itershow)
sys.stdout = sys.__stdout__

shown = []
for line in buf.getvalue().splitlines():
    parts = line.split()
    if len(parts) >= 5 and re.fullmatch(r"\d+", parts[0]):
        shown.append(int(parts[0]))
cost = [float(c) for c in cost]
write_truth(framework=f"pyproximal {pyproximal.__version__}", settings=vars(a), loss_name="J=f+eps*g",
            step_unit="iteration, 1-based (the `Itn` column)", tolerance=tol_sig(4),
            record="the `cost` list `ProximalGradient.solve` returns (the initial cost, then one an iteration)",
            train_loss=[(i, cost[i]) for i in shown if 1 <= i < len(cost)])
