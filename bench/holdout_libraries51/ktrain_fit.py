"""ktrain: a tiny tf.keras MLP (built here, no weights downloaded) wrapped by ``ktrain.get_learner`` and trained with
its own schedules, ``fit_onecycle`` (1cycle), ``autofit`` (triangular, with ``reduce_on_plateau`` / early stopping
when there is validation) or ``fit`` (SGDR cycles), as its tutorials do. ktrain prints its own lines (``begin
training using onecycle policy with max lr of 0.01...``) and Keras' progress (stdout, no TTY: one line an epoch,
``loss: 0.6931`` with 4 decimals). Truth: the ``History`` the fit returns (``history['loss']`` at each epoch,
1-based)."""

from __future__ import annotations

import argparse
import os

from h51_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--method", default="onecycle", choices=["onecycle", "autofit", "fit"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

import numpy as np  # noqa: E402

# ktrain 0.41.4 still names np.Inf, which numpy 2 removed (TensorFlow 2.21 wants numpy 2)
np.Inf = np.inf  # type: ignore[attr-defined]
import ktrain  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_keras as keras  # noqa: E402

tf.random.set_seed(0)
rng = np.random.default_rng(0)
n_val = a.n // 4
X = rng.normal(size=(a.n + n_val, 10)).astype("float32")
act: str | None
if a.task == "cls":
    W = rng.normal(size=(10, 3))
    y = (X @ W + 0.5 * rng.normal(size=(a.n + n_val, 3))).argmax(1)
    y = keras.utils.to_categorical(y, 3)
    out, act, loss = 3, "softmax", "categorical_crossentropy"
else:
    w = rng.normal(size=(10, 1))
    y = (np.sin(X @ w) * 3 + X[:, :1] ** 2 + 0.1 * rng.normal(size=(a.n + n_val, 1))).astype("float32")
    out, act, loss = 1, None, "mse"
model = keras.Sequential([keras.layers.Input((10,)), keras.layers.Dense(32, activation="relu"),
                          keras.layers.Dense(out, activation=act)])
model.compile(optimizer="adam", loss=loss)
learner = ktrain.get_learner(model, train_data=(X[: a.n], y[: a.n]),
                             val_data=None if a.no_val else (X[a.n:], y[a.n:]), batch_size=a.batch)
if a.method == "onecycle":
    hist = learner.fit_onecycle(a.lr, a.epochs)
elif a.method == "autofit":
    hist = learner.autofit(a.lr, a.epochs)
else:
    hist = learner.fit(a.lr, a.epochs)
h = hist.history
write_truth(framework=f"ktrain {ktrain.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`Epoch 3/10`)", tolerance=tol_decimals(4),
            record="the Keras `History` returned by the fit (`history['loss']`)",
            train_loss=list(enumerate(h["loss"], 1)),
            eval_loss=list(enumerate(h["val_loss"], 1)) if "val_loss" in h else None,
            eval_name="val_loss" if "val_loss" in h else None)
