"""scipy.optimize: a small model fitted with ``minimize(..., method="trust-constr", options={"verbose": 2})``, as
its reference shows: a logistic regression, a least-squares linear model or a one-hidden-layer network on a small
synthetic table, with or without bounds and a nonlinear constraint (the weights' norm). Its table goes to stdout, one
row per iteration: ``|   3   |   3   |   2   | +4.8436e-01 | 6.72e+00 | 4.70e-03 | 0.00e+00 |`` (the objective as
``%+.4e``; a ``barrier param`` column when the interior-point algorithm runs). Truth: the ``state.fun`` and
``state.nit`` the method passes its ``callback`` every iteration (its own ``OptimizeResult``), at ``niter``."""

from __future__ import annotations

import argparse

import numpy as np
from h17_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="logreg", choices=["logreg", "linreg", "mlp"])
ap.add_argument("--maxiter", type=int, default=40)
ap.add_argument("--bounds", type=float, default=0.0, help="box bound on every weight (0: none)")
ap.add_argument("--norm", type=float, default=0.0, help="nonlinear constraint ||w||^2 <= norm (0: none)")
ap.add_argument("--hidden", type=int, default=6)
ap.add_argument("--n", type=int, default=300)
ap.add_argument("--hess", default="exact", choices=["exact", "bfgs", "sr1"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import scipy  # noqa: E402
from scipy.optimize import BFGS, SR1, Bounds, NonlinearConstraint, minimize  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 5))
w_true = np.array([1.5, -2.0, 0.7, 1.0, 0.0])
if a.model == "logreg":
    y = (X @ w_true + rng.normal(size=a.n) > 0).astype(float)

    def f(b):
        z = X @ b
        return float(np.mean(np.logaddexp(0, z) - y * z))

    def jac(b):
        p = 1 / (1 + np.exp(-(X @ b)))
        return X.T @ (p - y) / a.n

    def hess(b):
        p = 1 / (1 + np.exp(-(X @ b)))
        return (X * (p * (1 - p))[:, None]).T @ X / a.n
    x0 = np.zeros(5)
elif a.model == "linreg":
    y = X @ w_true + 3.0 + rng.normal(scale=0.5, size=a.n)
    Xb = np.hstack([X, np.ones((a.n, 1))])

    def f(b):
        r = Xb @ b - y
        return float(0.5 * np.mean(r * r))

    def jac(b):
        return Xb.T @ (Xb @ b - y) / a.n

    def hess(b):
        return Xb.T @ Xb / a.n
    x0 = np.zeros(6)
else:
    y = np.sin(X @ w_true) + 0.1 * rng.normal(size=a.n)
    h = a.hidden
    shapes = [(5, h), (h,), (h,), ()]

    def unpack(b):
        out, i = [], 0
        for s in shapes:
            k = int(np.prod(s)) if s else 1
            out.append(b[i:i + k].reshape(s) if s else b[i])
            i += k
        return out

    def f(b):
        W1, b1, w2, b2 = unpack(b)
        r = np.tanh(X @ W1 + b1) @ w2 + b2 - y
        return float(0.5 * np.mean(r * r))

    def jac(b):
        W1, b1, w2, b2 = unpack(b)
        H = np.tanh(X @ W1 + b1)
        r = (H @ w2 + b2 - y) / a.n
        dH = np.outer(r, w2) * (1 - H * H)
        return np.concatenate([(X.T @ dH).ravel(), dH.sum(0), H.T @ r, [r.sum()]])
    hess = None  # type: ignore[assignment]  # trust-constr approximates it (BFGS)
    x0 = rng.normal(scale=0.3, size=5 * h + 2 * h + 1)

if a.hess == "bfgs" or hess is None:
    hess = BFGS()
elif a.hess == "sr1":
    hess = SR1()
kw = {}
if a.bounds:
    kw["bounds"] = Bounds(-a.bounds, a.bounds)
if a.norm:
    kw["constraints"] = [NonlinearConstraint(lambda b: float(b @ b), -np.inf, a.norm, jac=lambda b: 2 * b,
                                             hess=lambda b, v: 2 * v[0] * np.eye(len(b)))]

record = []
res = minimize(f, x0, jac=jac, hess=hess, method="trust-constr", options={"verbose": 2, "maxiter": a.maxiter},
               callback=lambda x, state: record.append((state.nit, float(state.fun))), **kw)

write_truth(framework=f"scipy.optimize {scipy.__version__}", settings=vars(a), loss_name="obj func",
            step_unit="iteration, 1-based (the table's `niter`)", tolerance=tol_sig(5),
            record="the `state` (OptimizeResult) trust-constr passes its `callback` each iteration: `nit`, `fun`",
            train_loss=record, final_fun=float(res.fun), message=res.message)
