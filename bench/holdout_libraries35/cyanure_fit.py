"""cyanure (Julien Mairal's optimisation toolbox for machine learning): its scikit-learn-style ``Classifier`` /
``Regression`` estimators with ``verbose=True`` (their default) on synthetic data. Its C++ core prints on stdout, in
colour, ``Info : Matrix X, n=600, p=30``, the solver and loss it uses, then every ``duality_gap_interval`` epochs
``Info : Epoch: 10, primal objective: 0.22976425997137500667, time: 0.00048299999999999998`` and, where the problem
has a dual, ``Info : Best relative duality gap: ...``, and closing lines (``Time elapsed``, line-search counts).
Truth: the estimator's ``optimization_info_`` array (the library's own record: epoch and primal objective at each
report)."""

from __future__ import annotations

import argparse

import numpy as np
from h35_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "multi", "reg"])
ap.add_argument("--loss", default="logistic")
ap.add_argument("--penalty", default="l2")
ap.add_argument("--lambda1", type=float, default=0.01)
ap.add_argument("--lambda2", type=float, default=0.0)
ap.add_argument("--solver", default="auto")
ap.add_argument("--interval", type=int, default=5)
ap.add_argument("--max-iter", type=int, default=60)
ap.add_argument("--n", type=int, default=600)
ap.add_argument("--p", type=int, default=30)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

from cyanure.estimators import Classifier, Regression  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, a.p)) * rng.uniform(0.2, 3.0, size=a.p)
w = rng.normal(size=a.p) * (rng.random(a.p) < 0.5)
if a.task == "reg":
    y = X @ w + 0.5 * rng.normal(size=a.n)
    est = Regression(penalty=a.penalty, lambda_1=a.lambda1, lambda_2=a.lambda2, solver=a.solver, tol=1e-12,
                     max_iter=a.max_iter, duality_gap_interval=a.interval, verbose=True, n_threads=1)
else:
    if a.task == "multi":
        y = np.argmax(X @ rng.normal(size=(a.p, 3)) + rng.normal(size=(a.n, 3)), axis=1)
    else:
        y = np.sign(X @ w + 0.5 * rng.normal(size=a.n))
    est = Classifier(loss=a.loss, penalty=a.penalty, lambda_1=a.lambda1, lambda_2=a.lambda2, solver=a.solver,
                     tol=1e-12, max_iter=a.max_iter, duality_gap_interval=a.interval, verbose=True, n_threads=1)
est.fit(X, y)

info = np.asarray(est.optimization_info_)
rows = info[0] if info.ndim == 3 else info
write_truth(framework=f"cyanure {version('cyanure')}", settings=vars(a), loss_name="primal objective",
            step_unit="epoch (`Epoch: N`, every `duality_gap_interval` epochs)", tolerance=tol_sig(12),
            record="the estimator's `optimization_info_` array (row 0: epoch, row 1: primal objective)",
            train_loss=[(int(e), float(v)) for e, v in zip(rows[0], rows[1], strict=True)])
