"""optuna: a study of small trainings, as its tutorials write one. Each trial trains a tiny numpy model (a linear
regression or a logistic regression by full-batch gradient descent, a few epochs) with the trial's suggested
learning rate (and momentum), and returns its final training loss. The study logs with optuna's own logger (its
default, INFO, on stderr): ``[I 2026-12-06 08:10:00,123] Trial 3 finished with value: 0.4123 and parameters: {...}.
Best is trial 2 with value: 0.39.`` (the value as ``repr``); a trial returning ``nan`` is failed with a warning
(``Trial 5 failed with value nan.``). ``--sweep`` enqueues a learning-rate sweep (``study.enqueue_trial``), a range
test, in increasing order. ``--progress`` adds optuna's progress bar. Truth: the study's own record,
``study.trials`` (each trial's ``value``, ``nan`` for a failed trial whose objective returned nan), at the trial's
``number`` (0-based)."""

from __future__ import annotations

import argparse
import math

import numpy as np
from h19_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--sampler", default="tpe", choices=["tpe", "random"])
ap.add_argument("--trials", type=int, default=20)
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr-low", type=float, default=1e-3)
ap.add_argument("--lr-high", type=float, default=0.5)
ap.add_argument("--momentum", action="store_true", help="also search a momentum")
ap.add_argument("--sweep", default="", help="comma-separated learning rates enqueued in order")
ap.add_argument("--progress", action="store_true")
ap.add_argument("--n", type=int, default=200)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import optuna  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 5)) * np.array([1.0, 3.0, 0.5, 2.0, 4.0])
w_true = np.array([1.5, -2.0, 0.7, 1.0, -0.5])
if a.task == "reg":
    y = X @ w_true + 3.0 + rng.normal(scale=0.5, size=a.n)
else:
    y = (X @ w_true + rng.normal(scale=1.0, size=a.n) > 0).astype(float)


def train(lr: float, momentum: float) -> float:
    w = np.zeros(X.shape[1])
    b = 0.0
    vw = np.zeros_like(w)
    vb = 0.0
    loss = float("nan")
    with np.errstate(all="ignore"):
        for _ in range(a.epochs):
            z = X @ w + b
            if a.task == "reg":
                err = z - y
                loss = float(np.mean(err ** 2))
                gw, gb = 2 * X.T @ err / a.n, 2 * err.mean()
            else:
                p = 1 / (1 + np.exp(-z))
                loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
                gw, gb = X.T @ (p - y) / a.n, (p - y).mean()
            vw = momentum * vw - lr * gw
            vb = momentum * vb - lr * gb
            w = w + vw
            b = b + vb
    return loss


def objective(trial: optuna.Trial) -> float:
    lr = trial.suggest_float("lr", a.lr_low, a.lr_high, log=True)
    momentum = trial.suggest_float("momentum", 0.0, 0.9) if a.momentum else 0.0
    return train(lr, momentum)


sampler = optuna.samplers.TPESampler(seed=0) if a.sampler == "tpe" else optuna.samplers.RandomSampler(seed=0)
study = optuna.create_study(direction="minimize", sampler=sampler)
for lr in [float(s) for s in a.sweep.split(",") if s]:
    study.enqueue_trial({"lr": lr} | ({"momentum": 0.0} if a.momentum else {}))
study.optimize(objective, n_trials=a.trials, show_progress_bar=a.progress)

points = []
for t in study.trials:
    if t.state == optuna.trial.TrialState.COMPLETE:
        points.append((t.number, t.value))
    elif t.state == optuna.trial.TrialState.FAIL:
        points.append((t.number, math.nan))
write_truth(framework=f"optuna {optuna.__version__}", settings=vars(a),
            loss_name="value (the trial's final training loss, MSE)" if a.task == "reg"
            else "value (the trial's final training loss, log loss)",
            step_unit="trial, 0-based (`Trial N finished with value`)", tolerance=tol_sig(12),
            record="the study's `study.trials` (`value` of each COMPLETE trial; nan for a FAIL trial whose objective "
                   "returned nan)",
            train_loss=points)
