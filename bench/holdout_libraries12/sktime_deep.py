"""sktime: one of its deep-learning estimators (``CNNClassifier``, ``FCNClassifier``, ``MLPClassifier``,
``CNNRegressor``) fitted on synthetic panel data with ``verbose=True``, as its docs fit them: sktime prints the
network's Keras summary, then Keras' own per-epoch progress (``Epoch 3/20`` then the bar with ``loss: 0.2345``) on
stdout; optional Keras callbacks passed through the estimator's ``callbacks`` (``LearningRateScheduler`` with its
verbose line). Truth: the estimator's ``history`` (the Keras ``History`` its ``fit`` keeps), ``loss`` per epoch."""

from __future__ import annotations

import argparse

import numpy as np
from h12_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="cnn", choices=["cnn", "fcn", "mlp", "cnnreg"])
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--n", type=int, default=120)
ap.add_argument("--length", type=int, default=32)
ap.add_argument("--optimizer", default="", choices=["", "adam", "sgd", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--lr-growth", type=float, default=0.0, help="LearningRateScheduler multiplying the rate each epoch")
ap.add_argument("--scale", type=float, default=1.0, help="targets' scale (regressor)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import keras  # noqa: E402
import sktime  # noqa: E402

keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)
t = np.linspace(0, 1, a.length)
freq = rng.uniform(1, 4, a.n)
phase = rng.uniform(0, 2 * np.pi, a.n)
X = np.sin(2 * np.pi * freq[:, None] * t[None, :] + phase[:, None]) + 0.3 * rng.normal(size=(a.n, a.length))
X = X[:, None, :]
y_reg = (freq - 2.5) * a.scale
y_cls = np.where(freq < 2, "slow", np.where(freq < 3, "mid", "fast"))

kw = {"n_epochs": a.epochs, "batch_size": a.batch, "verbose": True, "random_state": 0}
if a.optimizer:
    kw["optimizer"] = {"adam": keras.optimizers.Adam, "sgd": keras.optimizers.SGD,
                       "rmsprop": keras.optimizers.RMSprop}[a.optimizer](learning_rate=a.lr)
if a.lr_growth:
    kw["callbacks"] = [keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * a.lr_growth if epoch else lr,
                                                             verbose=1)]
if a.model == "cnn":
    from sktime.classification.deep_learning.cnn import CNNClassifier as Est
elif a.model == "fcn":
    from sktime.classification.deep_learning.fcn import FCNClassifier as Est
elif a.model == "mlp":
    from sktime.classification.deep_learning.mlp import MLPClassifier as Est
else:
    from sktime.regression.deep_learning.cnn import CNNRegressor as Est
est = Est(**kw)
est.fit(X, y_reg if a.model == "cnnreg" else y_cls)
hist = est.history.history
write_truth(framework=f"sktime {sktime.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (Keras' `Epoch N/M`)", tolerance=tol_decimals(4),
            record="the estimator's `history` (Keras `History.history['loss']`, one value an epoch)",
            train_loss=[(i + 1, v) for i, v in enumerate(hist["loss"])])
