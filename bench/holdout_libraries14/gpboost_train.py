"""GPBoost: tree boosting with grouped random effects, ``gpb.train(params, train_set, gp_model=gpb.GPModel(
group_data=...), num_boost_round, valid_sets=[train_set], evals_result=...)`` as its README's example runs it, the
metric ``neg_log_likelihood`` on the training data (the one metric GPBoost computes on the training data with a GP
model). GPBoost prints its evaluation as LightGBM (which it forks) does: ``[12]	train's Negative log-likelihood:
332.811`` (``%g``, 6 significant digits), every ``verbose_eval`` rounds (``verbose: 0``: no ``[GPBoost]`` lines).
Truth: the ``evals_result`` dict it fills (``train`` / ``Negative log-likelihood``, one value a round), at the
printed rounds (1-based)."""

from __future__ import annotations

import argparse

import numpy as np
from h14_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--rounds", type=int, default=30)
ap.add_argument("--lr", type=float, default=0.1)
ap.add_argument("--depth", type=int, default=3)
ap.add_argument("--leaves", type=int, default=31)
ap.add_argument("--verbose-eval", type=int, default=1)
ap.add_argument("--n", type=int, default=500)
ap.add_argument("--groups", type=int, default=20)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import gpboost as gpb  # noqa: E402

rng = np.random.default_rng(0)
X = rng.standard_normal((a.n, 5))
g = rng.integers(0, a.groups, a.n)
b = rng.standard_normal(a.groups)
f = X[:, 0] + np.sin(2 * X[:, 1]) + 0.5 * X[:, 2] * X[:, 3] + b[g]
y = f + 0.3 * rng.standard_normal(a.n)

gp_model = gpb.GPModel(group_data=g, likelihood="gaussian")
train = gpb.Dataset(X, y)
evals: dict = {}
params = {"learning_rate": a.lr, "max_depth": a.depth, "num_leaves": a.leaves, "min_data_in_leaf": 5,
          "verbose": 0, "metric": "neg_log_likelihood", "seed": 0}
bst = gpb.train(params=params, train_set=train, gp_model=gp_model, num_boost_round=a.rounds, valid_sets=[train],
                valid_names=["train"], evals_result=evals, verbose_eval=a.verbose_eval)
gp_model.summary()

vals = evals["train"]["Negative log-likelihood"]
write_truth(framework=f"gpboost {gpb.__version__}", settings=vars(a), loss_name="train's Negative log-likelihood",
            step_unit="boosting round, 1-based (`[N]`)", tolerance=tol_sig(6),
            record="gpb.train's evals_result (train / Negative log-likelihood, one value a round)",
            train_loss=[(i + 1, v) for i, v in enumerate(vals) if (i + 1) % a.verbose_eval == 0])
