"""keras-tuner: a search over a small Keras model's optimizer learning rate (and width), Keras 3 on its torch backend
(``KERAS_BACKEND=torch``), ``tuner.search(x, y, epochs=E, ...)`` as its getting-started guide shows: ``GridSearch``
(a learning-rate sweep, in the order the ``Choice`` lists it), ``RandomSearch``, ``BayesianOptimization`` or
``Hyperband``, the objective ``loss`` or ``val_loss``. Its own messages on stdout: per trial ``Search: Running Trial
#N``, a table of the trial's values and the best so far, Keras' own per-epoch progress of the trial's fit (``Epoch
1/3`` and a progress bar with ``- loss: 0.1234``), then ``Trial N Complete [00h 00m 01s]``, ``loss: X`` (the trial's
objective, Python's ``str`` of the float: all digits, ``nan``), ``Best loss So Far: X`` and ``Total elapsed time``.
Its own files: the project folder's ``oracle.json``, ``tuner0.json`` and each ``trial_K/trial.json`` (the weights'
checkpoints are left out). Truth: the oracle's trials (``trial.score``, the objective of each trial: the best epoch's
value of the objective within the trial's fit), at the trial number ``Trial N Complete`` prints (trial_id + 1)."""

from __future__ import annotations

import argparse
import os
import shutil
from pathlib import Path

os.environ.setdefault("KERAS_BACKEND", "torch")

from h30_truth import dest, seed_all, tol_sig, write_truth  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--tuner", default="grid", choices=["grid", "random", "bayes", "hyperband"])
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam", "rmsprop"])
ap.add_argument("--lrs", default="0.001,0.003,0.01,0.03,0.1")
ap.add_argument("--lr-min", type=float, default=1e-4)
ap.add_argument("--lr-max", type=float, default=0.1)
ap.add_argument("--trials", type=int, default=8)
ap.add_argument("--epochs", type=int, default=3)
ap.add_argument("--val", action="store_true", help="validation data, objective val_loss")
ap.add_argument("--scale", type=float, default=1.0, help="scale of the features")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import keras  # noqa: E402
import keras_tuner  # noqa: E402
import numpy as np  # noqa: E402

keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)
X = (rng.normal(size=(320, 6)) * a.scale).astype("float32")
w = np.array([1.5, -2.0, 0.7, 1.0, -0.4, 0.3])
if a.task == "reg":
    y = (X @ w / a.scale + 1.0 + rng.normal(scale=0.3, size=320)).astype("float32")
    loss = "mse"
else:
    y = (X @ w / a.scale + rng.normal(scale=0.5, size=320) > 0).astype("float32")
    loss = "binary_crossentropy"
x_tr, y_tr, x_va, y_va = X[:256], y[:256], X[256:], y[256:]
OPT = {"sgd": keras.optimizers.SGD, "adam": keras.optimizers.Adam, "rmsprop": keras.optimizers.RMSprop}[a.optimizer]


def build(hp):
    if a.tuner == "grid":
        lr = hp.Choice("learning_rate", [float(v) for v in a.lrs.split(",")], ordered=True)
    else:
        lr = hp.Float("learning_rate", a.lr_min, a.lr_max, sampling="log")
    units = hp.Int("units", 8, 32, step=8) if a.tuner != "grid" else 16
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(units, activation="relu"),
                              keras.layers.Dense(1, activation="sigmoid" if a.task == "cls" else None)])
    model.compile(optimizer=OPT(learning_rate=lr), loss=loss)
    return model


objective = "val_loss" if a.val else "loss"
common = dict(objective=objective, directory="kt", project_name="search", seed=0)
if a.tuner == "grid":
    tuner = keras_tuner.GridSearch(build, max_trials=a.trials, **common)
elif a.tuner == "random":
    tuner = keras_tuner.RandomSearch(build, max_trials=a.trials, **common)
elif a.tuner == "bayes":
    tuner = keras_tuner.BayesianOptimization(build, max_trials=a.trials, **common)
else:
    tuner = keras_tuner.Hyperband(build, max_epochs=a.epochs, factor=3, hyperband_iterations=1, **common)
fit = dict(epochs=a.epochs, batch_size=32)
if a.val:
    fit["validation_data"] = (x_va, y_va)
error = None
try:
    tuner.search(x_tr, y_tr, **fit)
except RuntimeError as e:  # "Number of consecutive failures exceeded the limit of 3.": raised again below
    error = e

trials = sorted(tuner.oracle.trials.values(), key=lambda t: int(t.trial_id))
if error is not None:  # the trial whose ending raised is recorded but never displayed (no `Trial N Complete`)
    trials = trials[:-1]
train_loss = [(int(t.trial_id) + 1, float("nan") if t.score is None else float(t.score)) for t in trials]

d = dest()
if d is not None:
    src = Path("kt") / "search"
    for f in src.rglob("*.json"):
        out = d / "kt_search" / f.relative_to(src)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(f, out)
write_truth(framework=f"keras-tuner {keras_tuner.__version__}", settings=vars(a), loss_name=objective,
            step_unit="trial, 1-based (`Trial N Complete`)", tolerance=tol_sig(15),
            record="the oracle's trials (`tuner.oracle.trials`, each trial's `score`: the objective it reached)",
            train_loss=train_loss, keras=keras.__version__, keras_backend=keras.backend.backend(),
            search_error=None if error is None else str(error))
if error is not None:
    raise error
