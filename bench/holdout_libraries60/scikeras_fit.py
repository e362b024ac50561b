"""scikeras: ``KerasClassifier`` / ``KerasRegressor`` (scikit-learn estimators around a Keras 3 model, here on the
torch backend) fitted with ``.fit(X, y)`` as its tutorials do: the model built by a ``model=`` function of ``meta``,
the loss, optimizer and its routed parameters (``optimizer__learning_rate``), ``epochs``, ``batch_size``,
``validation_split``, ``verbose`` and ``callbacks`` as estimator parameters. Keras 3 prints the progress (stdout, no
TTY: ``Epoch 3/10`` then a progress line an epoch ending ``- loss: 0.4031 - val_loss: 0.3868``, 4 decimals; with
``verbose=2`` one plain line an epoch). Truth: the estimator's own ``history_`` (``history_['loss']`` at each
epoch, 1-based)."""

from __future__ import annotations

import argparse
import json
import os

from h60_truth import dest, seed_all, tol_decimals, write_truth

os.environ.setdefault("KERAS_BACKEND", "torch")

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="adam")
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=400)
ap.add_argument("--hidden", type=int, default=16)
ap.add_argument("--val", type=float, default=0.0, help="validation_split (0: none)")
ap.add_argument("--verbose", type=int, default=1)
ap.add_argument("--schedule", default="none", choices=["none", "exp_growth", "cosine"])
ap.add_argument("--gamma", type=float, default=1.0, help="exp_growth: the rate is multiplied by this each epoch")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import keras  # noqa: E402
import numpy as np  # noqa: E402
import scikeras  # noqa: E402
from scikeras.wrappers import KerasClassifier, KerasRegressor  # noqa: E402

keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 10)).astype("float32")
if a.task == "cls":
    W = rng.normal(size=(10, 3))
    y = (X @ W + 0.5 * rng.normal(size=(a.n, 3))).argmax(1)
else:
    w = rng.normal(size=(10,))
    y = (np.sin(X @ w) * 3 + X[:, 0] ** 2 + 0.1 * rng.normal(size=a.n)).astype("float32")


def get_model(meta: dict, hidden: int = 16) -> keras.Model:
    """The Keras model, built by scikeras from the data it sees (``meta``), as its docs do."""
    out = meta["n_classes_"] if a.task == "cls" else 1
    act = "softmax" if a.task == "cls" else None
    return keras.Sequential([keras.layers.Input((meta["n_features_in_"],)),
                             keras.layers.Dense(hidden, activation="relu"),
                             keras.layers.Dense(hidden, activation="relu"),
                             keras.layers.Dense(out, activation=act)])


callbacks: list = []
if a.schedule == "exp_growth":
    callbacks.append(keras.callbacks.LearningRateScheduler(lambda ep, lr: lr * a.gamma if ep else lr))
elif a.schedule == "cosine":
    callbacks.append(keras.callbacks.LearningRateScheduler(
        lambda ep, lr: a.lr * 0.5 * (1 + np.cos(np.pi * ep / a.epochs)), verbose=1))
common = dict(model=get_model, model__hidden=a.hidden, optimizer=a.optimizer, optimizer__learning_rate=a.lr,
              epochs=a.epochs, batch_size=a.batch, verbose=a.verbose, callbacks=callbacks or None,
              validation_split=a.val, random_state=0)
est: KerasClassifier | KerasRegressor
if a.task == "cls":
    est = KerasClassifier(loss="sparse_categorical_crossentropy", metrics=["accuracy"], **common)
else:
    est = KerasRegressor(loss="mse", **common)
est.fit(X, y)
h = est.history_
d = dest()
if d is not None:
    (d / "history.json").write_text(json.dumps({k: [float(v) for v in vs] for k, vs in h.items()}, indent=1) + "\n")
write_truth(framework=f"scikeras {scikeras.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`Epoch 3/10`)", tolerance=tol_decimals(4),
            record="the estimator's `history_` after `fit` (`history_['loss']`)",
            train_loss=list(enumerate(h["loss"], 1)),
            eval_loss=list(enumerate(h["val_loss"], 1)) if "val_loss" in h else None,
            eval_name="val_loss" if "val_loss" in h else None)
