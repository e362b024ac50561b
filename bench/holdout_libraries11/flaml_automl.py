"""FLAML: ``AutoML().fit(X, y, task=..., max_iter=N, estimator_list=[one learner], log_file_name="flaml.log")`` on a
small synthetic table, as its quick start writes it (``verbose=3``, the default's logger on stderr):
``[flaml.automl.logger: 12-06 04:46:15] {3006} INFO - iteration 2, current learner rf`` then
`` at 0.1s,\\testimator rf's best error=3.3361e-01,\\tbest estimator rf's best error=3.3361e-01`` (``%.4e``), the
best validation loss found so far, once an iteration. FLAML writes its own search log (``flaml.log``, JSON lines:
each trial that improved its learner's best, with ``iter_per_learner`` and ``validation_loss``), kept in the run
folder. Truth: from that file, the best ``validation_loss`` among the trials made up to each iteration (one learner:
the iteration, 0-based as the log counts it, is ``iter_per_learner - 1``)."""

from __future__ import annotations

import argparse
import json

import numpy as np
from h11_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="regression", choices=["regression", "classification"])
ap.add_argument("--learner", default="rf")
ap.add_argument("--metric", default="auto")
ap.add_argument("--eval-method", default="auto")
ap.add_argument("--iters", type=int, default=15)
ap.add_argument("--n", type=int, default=300)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import flaml  # noqa: E402
from flaml import AutoML  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 5))
s = X @ np.array([1.0, -2.0, 0.5, 0.0, 1.0]) + rng.normal(scale=0.5, size=a.n)
y = s if a.task == "regression" else (s > 0).astype(int)

automl = AutoML()
automl.fit(X, y, task=a.task, metric=a.metric, eval_method=a.eval_method, max_iter=a.iters,
           estimator_list=[a.learner], log_file_name="flaml.log", seed=1, n_jobs=1, verbose=3)
print("Best ML leaner:", automl.best_estimator)
print("Best hyperparmeter config:", automl.best_config)
print(f"Best accuracy on validation data: {1 - automl.best_loss:.4g}")
print(f"Training duration of best run: {automl.best_config_train_time:.4g} s")

records = [json.loads(line) for line in open("flaml.log") if line.strip().startswith("{")]
trials = [(r["iter_per_learner"] - 1, r["validation_loss"]) for r in records if "validation_loss" in r]
points = []
for it in range(a.iters):
    made = [v for i, v in trials if i <= it]
    if made:
        points.append((it, min(made)))
keep("flaml.log")
write_truth(framework=f"flaml {flaml.__version__}", settings=vars(a), loss_name="best error (validation loss)",
            step_unit="iteration, 0-based (`iteration N, current learner ...`)", tolerance=tol_sig(5),
            record="FLAML's own search log `flaml.log` (best `validation_loss` of the trials up to each iteration)",
            train_loss=points)
