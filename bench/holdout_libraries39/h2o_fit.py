"""H2O-3 (its Python client, starting its own local Java server): an ``H2OGradientBoostingEstimator`` or an
``H2ODeepLearningEstimator`` trained on a small synthetic regression table (an ``H2OFrame`` split by
``split_frame``, optionally with a ``validation_frame``), then ``print(model)``, as its user guide does to see the
model. On stdout (block-buffered): ``h2o.init``'s lines and cluster table, ``Parse progress: |███| (done) 100%``,
``gbm Model Build progress: |███| (done) 100%``, then the model's description, whose ``Scoring History:`` table
holds one row per scoring: ``2026-12-06 16:06:52  0.368 sec   5   2.73886   2.17076 ...`` (tabulate, 6 significant
digits; columns ``number_of_trees``, ``training_rmse``, ``training_mae``, ``training_deviance``, the validation
ones; for deep learning ``training_speed``, ``epochs``, ``iterations``, ``samples`` before them). A table of more
than 20 rows is shown instead as its first and last 10 rows, at full precision, with a ``---`` row between, then
``[31 rows x 10 columns]``. Truth: the model's own ``scoring_history()`` (``training_rmse``, ``validation_rmse``) at
``number_of_trees`` (GBM, 0 = the initial guess) or at ``iterations`` (deep learning; its row 0, before training,
holds ``nan`` and is left out), at the rows the table shows."""

from __future__ import annotations

import argparse

import numpy as np
from h39_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algo", default="gbm", choices=["gbm", "dl"])
ap.add_argument("--trees", type=int, default=30)
ap.add_argument("--lr", type=float, default=0.1)
ap.add_argument("--depth", type=int, default=5)
ap.add_argument("--sample-rate", type=float, default=1.0)
ap.add_argument("--epochs", type=float, default=10)
ap.add_argument("--hidden", default="32,32")
ap.add_argument("--every", type=int, default=1, help="GBM: score_tree_interval (0: score_each_iteration)")
ap.add_argument("--n", type=int, default=500)
ap.add_argument("--val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import h2o  # noqa: E402
from h2o.estimators import H2ODeepLearningEstimator, H2OGradientBoostingEstimator  # noqa: E402

h2o.init(nthreads=1, max_mem_size="1G", port=54391)
rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 5))
y = X @ np.array([1.0, 2.0, -1.0, 0.5, 0.0]) + 2.0 * np.sin(X[:, 0]) + X[:, 1] * X[:, 2] + rng.normal(scale=0.3,
                                                                                                       size=a.n)
cols = [f"x{i}" for i in range(5)]
data = {c: X[:, i].tolist() for i, c in enumerate(cols)}
data["y"] = y.tolist()
frame = h2o.H2OFrame(data)
train, valid = frame.split_frame([0.75], seed=1)
if a.algo == "gbm":
    every = {"score_each_iteration": True} if a.every <= 1 else {"score_tree_interval": a.every}
    model = H2OGradientBoostingEstimator(ntrees=a.trees, learn_rate=a.lr, max_depth=a.depth, sample_rate=a.sample_rate,
                                         seed=1, **every)
else:
    model = H2ODeepLearningEstimator(hidden=[int(h) for h in a.hidden.split(",")], epochs=a.epochs, seed=1,
                                     reproducible=True, score_each_iteration=True, train_samples_per_iteration=100,
                                     score_training_samples=0, score_validation_samples=0)
if a.val:
    model.train(x=cols, y="y", training_frame=train, validation_frame=valid)
else:
    model.train(x=cols, y="y", training_frame=train)
print(model)

hist = model.scoring_history()
step = "number_of_trees" if a.algo == "gbm" else "iterations"
# print(model) shows a table of more than 20 rows as its first 10 and last 10 (`---` between): only those are printed;
# deep learning's first row (iteration 0, before training) holds no metric (`nan`), so it is no loss point
rows = list(range(len(hist)))
if len(rows) > 20:
    rows = rows[:10] + rows[-10:]


def series(col: str) -> list[tuple[int, float]]:
    pts = [(int(hist[step].iloc[i]), float(hist[col].iloc[i])) for i in rows]
    return [(s, v) for s, v in pts if not (a.algo == "dl" and s == 0)]


train_loss = series("training_rmse")
extra = {}
if a.val:
    extra = {"eval_loss": series("validation_rmse"), "eval_name": "validation_rmse"}
write_truth(framework=f"h2o {h2o.__version__}", settings=vars(a), loss_name="training_rmse",
            step_unit=("tree, 0-based (`number_of_trees`: 0 is the initial guess)" if a.algo == "gbm"
                       else "iteration (`iterations` column; 0 before training)"),
            tolerance=tol_sig(6), record="the model's own `scoring_history()` (`training_rmse` at "
                                         f"`{step}`)", train_loss=train_loss, **extra)
h2o.cluster().shutdown()
