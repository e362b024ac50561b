"""NGBoost: ``NGBRegressor`` / ``NGBClassifier`` ``fit`` with ``verbose_eval=N`` (its print:
``[iter 10] loss=6.2884 val_loss=6.4348 scale=1.0000 norm=107.1929``). Truth: ``evals_result['train'][score]``
(one value per boosting iteration, 0-based) at the iterations it prints."""

from __future__ import annotations

import argparse

import numpy as np
from h3_truth import seed_all, tol_decimals, write_truth
from ngboost import NGBClassifier, NGBRegressor
from ngboost.distns import Bernoulli, Exponential, Normal
from ngboost.scores import CRPScore, LogScore
from sklearn.datasets import make_classification, make_regression

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls", "exp"])
ap.add_argument("--n-estimators", type=int, default=200)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--every", type=int, default=10)
ap.add_argument("--score", default="log", choices=["log", "crps"])
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--early-stopping", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

score = LogScore if a.score == "log" else CRPScore
if a.task == "cls":
    X, y = make_classification(800, 12, n_informative=6, random_state=0)
    m = NGBClassifier(Dist=Bernoulli, Score=score, n_estimators=a.n_estimators, learning_rate=a.lr,
                      verbose_eval=a.every, random_state=0,
                      early_stopping_rounds=a.early_stopping or None)
else:
    X, y = make_regression(800, 12, noise=10, random_state=0)
    if a.task == "exp":
        y = np.exp((y - y.mean()) / y.std())
    m = NGBRegressor(Dist=Exponential if a.task == "exp" else Normal, Score=score, n_estimators=a.n_estimators,
                     learning_rate=a.lr, verbose_eval=a.every, random_state=0,
                     early_stopping_rounds=a.early_stopping or None)
Xtr, ytr, Xva, yva = X[:640], y[:640], X[640:], y[640:]
if a.no_val:
    m.fit(Xtr, ytr)
else:
    m.fit(Xtr, ytr, X_val=Xva, Y_val=yva)

name = score.__name__.upper()
tr = m.evals_result["train"][name]
train = [(i, v) for i, v in enumerate(tr) if i % a.every == 0]
ev = None
if "val" in m.evals_result and not a.no_val:
    va = m.evals_result["val"][name]
    ev = [(i, v) for i, v in enumerate(va) if i % a.every == 0]
write_truth(framework="ngboost", settings=vars(a), loss_name="loss", step_unit="boosting iteration, 0-based ([iter N])",
            tolerance=tol_decimals(4), record=f"evals_result['train']['{name}'] at the printed iterations",
            train_loss=train, eval_loss=ev, eval_name=None if ev is None else "val_loss")
