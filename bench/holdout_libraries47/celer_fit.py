"""celer: one of its scikit-learn estimators (``Lasso``, ``ElasticNet``, ``LogisticRegression`` with its ``celer``
or ``celer-pn`` solver, ``GroupLasso``) fitted on a small synthetic problem with ``verbose=1``, as its examples do.
Its Cython solvers print on stdout a banner (``##### Computing alpha 1/1``), then one line per outer iteration:
``Iter 3: primal 0.0540792502, gap 2.51e-02, 42 feats in subpb (300 left)`` (the primal objective with 10 decimals,
the duality gap with ``%.2e``) and ``Early exit, gap: 2.04e-08 < 3.53e-08`` when the gap reaches the tolerance.
Truth: the duality gaps the solver returns (``sol[2]``, one per outer iteration, the array ``celer_path`` keeps only
the last of), recorded by wrapping the solver function ``celer_path`` calls; at the outer iteration, 0-based, as
``Iter N`` counts it."""

from __future__ import annotations

import argparse

import numpy as np
from h47_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="lasso", choices=["lasso", "enet", "logreg", "group"])
ap.add_argument("--alpha", type=float, default=0.01, help="alpha (C for logreg)")
ap.add_argument("--l1-ratio", type=float, default=0.5)
ap.add_argument("--solver", default="celer-pn", choices=["celer", "celer-pn"])
ap.add_argument("--n", type=int, default=100)
ap.add_argument("--p", type=int, default=300)
ap.add_argument("--groups", type=int, default=5)
ap.add_argument("--tol", type=float, default=1e-4)
ap.add_argument("--max-iter", type=int, default=100)
ap.add_argument("--p0", type=int, default=10)
ap.add_argument("--noise", type=float, default=0.1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import celer  # noqa: E402
import celer.homotopy as homotopy  # noqa: E402

gaps: list[list[float]] = []


def recorded(solver):
    def wrapper(*args, **kwargs):
        sol = solver(*args, **kwargs)
        gaps.append([float(g) for g in np.asarray(sol[2]).ravel()])
        return sol

    return wrapper


for fn in ("celer", "celer_grp", "newton_celer"):
    setattr(homotopy, fn, recorded(getattr(homotopy, fn)))

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, a.p))
X[:, 1:] += 0.5 * X[:, :-1]  # correlated neighbouring features
w = np.zeros(a.p)
w[:10] = rng.normal(size=10) * 2
y = X @ w + a.noise * rng.normal(size=a.n)
if a.model == "lasso":
    est = celer.Lasso(alpha=a.alpha, tol=a.tol, max_iter=a.max_iter, p0=a.p0, verbose=1)
elif a.model == "enet":
    est = celer.ElasticNet(alpha=a.alpha, l1_ratio=a.l1_ratio, tol=a.tol, max_iter=a.max_iter, p0=a.p0, verbose=1)
elif a.model == "logreg":
    y = np.where(y > np.median(y), 1.0, -1.0)
    est = celer.LogisticRegression(C=a.alpha, solver=a.solver, tol=a.tol, max_iter=a.max_iter, p0=a.p0, verbose=1)
else:
    w = np.zeros(a.p)
    w[: 2 * a.groups] = rng.normal(size=2 * a.groups)
    y = X @ w + a.noise * rng.normal(size=a.n)
    est = celer.GroupLasso(groups=a.groups, alpha=a.alpha, tol=a.tol, max_iter=a.max_iter, p0=a.p0, verbose=1)
est.fit(X, y)

assert len(gaps) == 1, len(gaps)
write_truth(framework=f"celer {version('celer')}", settings=vars(a), loss_name="gap",
            step_unit="outer iteration, 0-based (`Iter N`)", tolerance=tol_sig(3),
            record=f"the duality gaps its solver returns ({type(est).__name__}.fit, `sol[2]`)",
            train_loss=[(i, g) for i, g in enumerate(gaps[0])])
