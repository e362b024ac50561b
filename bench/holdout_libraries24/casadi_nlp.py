"""casadi: a small neural network (or a logistic regression) fitted as an unconstrained NLP by casadi's bundled
Ipopt (``nlpsol("solver", "ipopt", ...)``), on synthetic data. Ipopt prints, as its users see it, its banner, the
problem's sizes, then its iteration table on stdout ``iter    objective    inf_pr   inf_du lg(mu)  ||d||  lg(rg)
alpha_du alpha_pr  ls`` / ``   3  4.1234567e-01 0.00e+00 ...`` (the objective as ``%.7e``, every
``print_frequency_iter`` iterations), its closing statistics and casadi's timing table. Truth: casadi's own record
of the solve, ``solver.stats()["iterations"]["obj"]`` (one objective per iteration, from iteration 0), at the
iterations the table prints."""

from __future__ import annotations

import argparse

from h24_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="mlp", choices=["mlp", "mlpcls", "logreg"])
ap.add_argument("--hidden", type=int, default=8)
ap.add_argument("--n", type=int, default=80)
ap.add_argument("--max-iter", type=int, default=50)
ap.add_argument("--hessian", default="exact", choices=["exact", "limited-memory"])
ap.add_argument("--every", type=int, default=1, help="Ipopt's print_frequency_iter")
ap.add_argument("--mu", default="monotone", choices=["monotone", "adaptive"])
ap.add_argument("--l2", type=float, default=1e-3)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import casadi as ca  # noqa: E402
import numpy as np  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 2))
if a.task == "mlp":
    Y = np.sin(1.5 * X[:, 0]) * np.cos(X[:, 1]) + 0.05 * rng.normal(size=a.n)
else:
    Y = ((X[:, 0] ** 2 + X[:, 1] ** 2 > 1.2) if a.task == "mlpcls" else (X[:, 0] - 0.5 * X[:, 1] > 0.1)).astype(float)
    flip = rng.random(a.n) < 0.08
    Y[flip] = 1 - Y[flip]

h = a.hidden
if a.task == "logreg":
    w = ca.SX.sym("w", 3)
    params = w
    z = ca.mtimes(ca.DM(X), w[:2]) + w[2]
else:
    W1 = ca.SX.sym("W1", h, 2)
    b1 = ca.SX.sym("b1", h)
    W2 = ca.SX.sym("W2", 1, h)
    b2 = ca.SX.sym("b2", 1)
    params = ca.vertcat(ca.vec(W1), b1, ca.vec(W2), b2)
    H = ca.tanh(ca.mtimes(W1, ca.DM(X.T)) + ca.repmat(b1, 1, a.n))
    z = (ca.mtimes(W2, H) + b2).T
if a.task == "mlp":
    loss = ca.sumsqr(z - ca.DM(Y)) / a.n
else:
    yd = ca.DM(Y)
    loss = ca.sum1(ca.log(1 + ca.exp(-z)) + (1 - yd) * z) / a.n
f = loss + a.l2 * ca.sumsqr(params)
opts = {"ipopt.max_iter": a.max_iter, "ipopt.hessian_approximation": a.hessian,
        "ipopt.print_frequency_iter": a.every, "ipopt.mu_strategy": a.mu}
solver = ca.nlpsol("solver", "ipopt", {"x": params, "f": f}, opts)
x0 = 0.5 * rng.normal(size=params.shape[0])
sol = solver(x0=x0)
stats = solver.stats()
objs = stats["iterations"]["obj"]

write_truth(framework=f"casadi {version('casadi')}", settings=vars(a), loss_name="objective",
            step_unit="iteration, 0-based (Ipopt's `iter` column)", tolerance=tol_sig(8),
            record='casadi\'s `solver.stats()["iterations"]["obj"]` (the objective at each Ipopt iteration)',
            train_loss=[(i, v) for i, v in enumerate(objs) if i % a.every == 0],
            return_status=stats["return_status"])
