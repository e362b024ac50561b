"""pgbm (Probabilistic Gradient Boosting Machines), its torch backend: ``PGBMRegressor`` fitted on a small synthetic
regression table, optionally with an ``eval_set``, as its README shows. At import it builds (or loads) its C++ split
kernel with ``torch.utils.cpp_extension.load(verbose=True)`` (ninja's lines), prints ``Training on CPU``, then with
its default ``verbose=2`` one line per tree on stdout (block-buffered):
``Estimator 12/100, Train metric: 0.5123`` or ``Estimator 12/100, Train metric: 0.5123, Validation metric: 0.6012``
(4 decimals; the metric is its default ``rmse``). Truth: the learner's own record, ``learner_.train_metrics`` (and
``learner_.validation_metrics``), one value per tree, at the tree's 0-based index as the line prints it. With an
``eval_set`` the learner keeps the trees, and the record, up to its best validation iteration only."""

from __future__ import annotations

import argparse

import numpy as np
from h39_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--trees", type=int, default=50)
ap.add_argument("--lr", type=float, default=0.1)
ap.add_argument("--leaves", type=int, default=32)
ap.add_argument("--min-leaf", type=int, default=3)
ap.add_argument("--bagging", type=float, default=1.0)
ap.add_argument("--features", type=float, default=1.0)
ap.add_argument("--reg-lambda", type=float, default=1.0)
ap.add_argument("--n", type=int, default=400)
ap.add_argument("--val", action="store_true")
ap.add_argument("--scale", type=float, default=1.0, help="the target's scale")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import torch  # noqa: E402

torch.set_num_threads(1)
from pgbm.torch import PGBMRegressor  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 6))
y = (X @ np.array([1.0, 2.0, -1.0, 0.5, 0.0, 0.0]) + 2.0 * np.sin(X[:, 0]) + X[:, 1] * X[:, 2]
     + rng.normal(scale=0.3, size=a.n)) * a.scale
ntr = int(a.n * 0.75)
model = PGBMRegressor(n_estimators=a.trees, learning_rate=a.lr, max_leaves=a.leaves, min_data_in_leaf=a.min_leaf,
                      bagging_fraction=a.bagging, feature_fraction=a.features, reg_lambda=a.reg_lambda,
                      random_state=0)
if a.val:
    model.fit(X[:ntr], y[:ntr], eval_set=(X[ntr:], y[ntr:]))
else:
    model.fit(X[:ntr], y[:ntr])

lr = model.learner_
train = [(i, float(v)) for i, v in enumerate(lr.train_metrics.tolist())]
extra = {}
if a.val:
    extra = {"eval_loss": [(i, float(v)) for i, v in enumerate(lr.validation_metrics.tolist())],
             "eval_name": "Validation metric"}
write_truth(framework=f"pgbm {version('pgbm')}", settings=vars(a), loss_name="Train metric (rmse)",
            step_unit="tree (boosting iteration), 0-based (`Estimator N/M`)", tolerance=tol_decimals(4),
            record="the fitted learner's `learner_.train_metrics` (and `learner_.validation_metrics`), one per tree, "
                   "kept up to its best iteration",
            train_loss=train, **extra)
