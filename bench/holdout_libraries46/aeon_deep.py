"""aeon: one of its deep-learning time-series estimators (``FCNClassifier``, ``MLPClassifier``,
``TimeCNNClassifier``, ``FCNRegressor``, ``MLPRegressor``) fitted on a small synthetic series set with
``verbose=True``, as its examples show. It trains a Keras model with ``fit(verbose=True)``: without a terminal Keras
prints ``Epoch 3/20`` and one line an epoch, ``4/4 - 0s - 12ms/step - loss: 0.6843`` (``%.4f``). Truth: the
estimator's ``history`` (the Keras ``History`` its ``fit`` keeps), ``history['loss']`` at the epoch, 1-based, as
``Epoch N/M`` counts it."""

from __future__ import annotations

import argparse
import os

import numpy as np
from h46_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="fcn", choices=["fcn", "mlp", "timecnn"])
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "rmsprop"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--n", type=int, default=64)
ap.add_argument("--length", type=int, default=32)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")

import aeon  # noqa: E402
import keras  # noqa: E402

rng = np.random.default_rng(0)
t = np.linspace(0, 1, a.length)
freq = rng.uniform(1, 4, size=a.n)
X = (np.sin(2 * np.pi * freq[:, None] * t[None, :]) + rng.normal(scale=0.3, size=(a.n, a.length)))[:, None, :]
y_cls = (freq > 2.5).astype(int).astype(str)
y_reg = freq + rng.normal(scale=0.1, size=a.n)
opt = {"adam": keras.optimizers.Adam, "sgd": keras.optimizers.SGD, "rmsprop": keras.optimizers.RMSprop}[a.optimizer]
kw = dict(n_epochs=a.epochs, batch_size=a.batch, verbose=True, random_state=0, optimizer=opt(learning_rate=a.lr))
if a.task == "cls":
    from aeon.classification import deep_learning as dl
    cls = {"fcn": "FCNClassifier", "mlp": "MLPClassifier", "timecnn": "TimeCNNClassifier"}[a.model]
    est, y = getattr(dl, cls)(**kw), y_cls
else:
    from aeon.regression import deep_learning as dl
    cls = {"fcn": "FCNRegressor", "mlp": "MLPRegressor", "timecnn": "TimeCNNRegressor"}[a.model]
    est, y = getattr(dl, cls)(**kw), y_reg
est.fit(X, y)

losses = [float(v) for v in est.history.history["loss"]]
write_truth(framework=f"aeon {aeon.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`Epoch N/M`)", tolerance=tol_decimals(4),
            record=f"the estimator's `history` ({cls}.fit: the Keras History, history['loss'])",
            train_loss=[(i + 1, v) for i, v in enumerate(losses)])
