"""kymatio: a wavelet scattering transform (``Scattering1D``) in front of a small classifier or regressor, trained on
synthetic 1-D signals (noisy chirps and tones, made here) the two ways its examples train one: the Keras frontend
(``kymatio.keras.Scattering1D`` as a layer of a tf.keras model, ``model.fit``; Keras prints its progress, stdout,
no TTY: ``verbose=1`` one line an epoch with the first batch's display, backspaces and ``\\r``, ``verbose=2`` one
plain line an epoch; ``loss: 0.6931`` with 4 decimals) or the scikit-learn frontend (``kymatio.sklearn.Scattering1D``
as a transformer in a ``Pipeline`` before ``MLPClassifier``/``MLPRegressor(verbose=True)``, which prints
``Iteration 3, loss = 0.69314718``, 8 decimals). Truth: the Keras ``History`` (``history['loss']`` at each epoch,
1-based) or the estimator's ``loss_curve_`` (one value an iteration, 1-based)."""

from __future__ import annotations

import argparse
import os

from h84_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--frontend", default="keras", choices=["keras", "sklearn"])
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--opt", default="adam", choices=["adam", "sgd", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=240)
ap.add_argument("--length", type=int, default=256)
ap.add_argument("--J", type=int, default=4)
ap.add_argument("--Q", type=int, default=4)
ap.add_argument("--lr-growth", type=float, default=0.0,
                help="Keras: a LearningRateScheduler multiplying the rate by this each epoch")
ap.add_argument("--verbose", type=int, default=1, help="Keras fit's verbose (1 or 2)")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

import kymatio  # noqa: E402
import numpy as np  # noqa: E402

rng = np.random.default_rng(0)
t = np.arange(a.length) / a.length
cls = rng.integers(0, 3, a.n)
freq = rng.uniform(4, 40, a.n)
sig = []
for c, f in zip(cls, freq, strict=True):
    ph = rng.uniform(0, 2 * np.pi)
    if a.task == "cls":  # a tone, a rising chirp, or bursts: the class is the shape, not the pitch
        s = [np.sin(2 * np.pi * f * t + ph), np.sin(2 * np.pi * (f * t + 20 * t**2) + ph),
             np.sin(2 * np.pi * f * t + ph) * (np.sin(2 * np.pi * 3 * t) > 0.3)][c]
    else:  # a tone whose pitch is the target
        s = np.sin(2 * np.pi * f * t + ph)
    sig.append(s + 0.3 * rng.normal(size=a.length))
X = np.asarray(sig, dtype="float32")
y = cls if a.task == "cls" else ((freq - 22) / 10).astype("float32")
n_tr = a.n if a.no_val else a.n * 4 // 5
framework = f"kymatio {kymatio.__version__}"

if a.frontend == "keras":
    import tensorflow as tf  # noqa: E402
    import tf_keras as keras  # noqa: E402
    from kymatio.keras import Scattering1D  # noqa: E402

    tf.random.set_seed(0)
    inp = keras.layers.Input(shape=(a.length,))
    h = Scattering1D(J=a.J, Q=a.Q)(inp)
    h = keras.layers.Lambda(lambda z: tf.math.log(tf.abs(z) + 1e-6))(h)
    h = keras.layers.GlobalAveragePooling1D(data_format="channels_first")(h)
    h = keras.layers.BatchNormalization()(h)
    h = keras.layers.Dense(32, activation="relu")(h)
    if a.task == "cls":
        out, loss, metrics = keras.layers.Dense(3, activation="softmax")(h), "sparse_categorical_crossentropy", \
            ["accuracy"]
    else:
        out, loss, metrics = keras.layers.Dense(1)(h), "mse", ["mae"]
    model = keras.Model(inp, out)
    opt = {"adam": keras.optimizers.Adam, "sgd": keras.optimizers.SGD, "rmsprop": keras.optimizers.RMSprop}[a.opt]
    model.compile(optimizer=opt(learning_rate=a.lr), loss=loss, metrics=metrics)
    growth = a.lr_growth
    cbs = [keras.callbacks.LearningRateScheduler(lambda e, lr: lr * growth if e else lr, verbose=1)] if growth else []
    hist = model.fit(X[:n_tr], y[:n_tr], epochs=a.epochs, batch_size=a.batch, verbose=a.verbose, callbacks=cbs,
                     validation_data=None if a.no_val else (X[n_tr:], y[n_tr:]))
    h_ = hist.history
    write_truth(framework=framework, settings=vars(a), loss_name="loss",
                step_unit="epoch, 1-based (`Epoch 3/10`)", tolerance=tol_decimals(4),
                record="the Keras `History` returned by `model.fit` (`history['loss']`)",
                train_loss=list(enumerate(h_["loss"], 1)),
                eval_loss=list(enumerate(h_["val_loss"], 1)) if "val_loss" in h_ else None,
                eval_name="val_loss" if "val_loss" in h_ else None)
else:
    from kymatio.sklearn import Scattering1D as SkScattering1D  # noqa: E402
    from sklearn.neural_network import MLPClassifier, MLPRegressor  # noqa: E402
    from sklearn.pipeline import Pipeline  # noqa: E402
    from sklearn.preprocessing import FunctionTransformer, StandardScaler  # noqa: E402

    solver = {"adam": "adam", "sgd": "sgd", "rmsprop": "adam"}[a.opt]
    kw = dict(hidden_layer_sizes=(32,), solver=solver, learning_rate_init=a.lr, max_iter=a.epochs,
              batch_size=a.batch, verbose=True, random_state=0, early_stopping=not a.no_val, n_iter_no_change=1000,
              tol=0.0)
    est = MLPClassifier(**kw) if a.task == "cls" else MLPRegressor(**kw)
    pipe = Pipeline([("scattering", SkScattering1D(J=a.J, shape=(a.length,), Q=a.Q)),
                     ("log", FunctionTransformer(lambda z: np.log(np.abs(z.reshape(len(z), -1)) + 1e-6))),
                     ("scale", StandardScaler()), ("mlp", est)])
    err: ValueError | None = None
    try:
        pipe.fit(X, y)
    except ValueError as e:  # sklearn stops a fit whose weights went non-finite; its loss_curve_ stays: truth, raise
        err = e
    curve = est.loss_curve_
    write_truth(framework=framework, settings=vars(a), loss_name="loss",
                step_unit="iteration (epoch), 1-based (`Iteration 3, loss = ...`)", tolerance=tol_decimals(8),
                record="the estimator's `loss_curve_` (`MLPClassifier`/`MLPRegressor` after `Pipeline.fit`)",
                train_loss=list(enumerate(curve, 1)),
                eval_loss=list(enumerate(est.validation_scores_, 1)) if not a.no_val else None,
                eval_name="validation score (accuracy / R^2, higher is better)" if not a.no_val else None)
    if err is not None:
        raise err
