"""StarDist: a tiny ``StarDist2D`` (a 2-level U-Net of 8-16 filters predicting object probabilities and star-convex
distances) trained with its own ``model.train(X, Y, validation_data=...)``, as its training notebook does, on
synthetic 64x64 fluorescence-like images of 3-6 noisy disks and their label masks made here (normalized as the
notebook does, with csbdeep's ``normalize``). Settings a user changes in ``Config2D``: the number of rays, the grid,
the batch size, the distance loss, the loss weights, the learning rate and ``train_reduce_lr`` (Keras'
``ReduceLROnPlateau``, verbose); a user's own Keras callback appended to ``model.callbacks`` after
``prepare_for_training()`` (a ``LearningRateScheduler``); optionally ``optimize_thresholds`` on the validation images
after training. The log is the libraries' own: TensorFlow's notices, StarDist's, then Keras' progress on stdout
without a TTY (``Epoch 3/8``, one line an epoch: the first batch's display, backspaces, ``\\r``, and the epoch's
summary ``10/10 [=====] - 0s 43ms/step - loss: 1.6947 - prob_loss: 0.6334 - dist_loss: 5.3068 - ... - val_loss:
1.6504 ... - lr: 3.0000e-04``, 4 decimals). Truth: the Keras ``History`` that ``train`` returns (``history['loss']`` at
each epoch, 1-based)."""

from __future__ import annotations

import argparse
import math
import os

from h75_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--steps", type=int, default=10, help="steps per epoch")
ap.add_argument("--batch", type=int, default=4)
ap.add_argument("--rays", type=int, default=16)
ap.add_argument("--grid", type=int, default=2)
ap.add_argument("--lr", type=float, default=3e-4)
ap.add_argument("--dist-loss", default="mae", choices=["mae", "mse"])
ap.add_argument("--prob-weight", type=float, default=1.0)
ap.add_argument("--dist-weight", type=float, default=0.2)
ap.add_argument("--reduce-lr-patience", type=int, default=0, help="0: StarDist's default (factor 0.5, patience 40)")
ap.add_argument("--lr-growth", type=float, default=0.0, help="a LearningRateScheduler multiplying the rate each epoch")
ap.add_argument("--thresholds", action="store_true", help="optimize_thresholds on the validation images after training")
ap.add_argument("--n", type=int, default=24)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import stardist  # noqa: E402
import tensorflow as tf  # noqa: E402
from csbdeep.utils import normalize  # noqa: E402
from stardist.models import Config2D, StarDist2D  # noqa: E402

tf.random.set_seed(0)
rng = np.random.default_rng(0)


def sample(size: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """An image of 3-6 bright disks on a noisy background and its label mask (0 background, 1..k the objects)."""
    yy, xx = np.mgrid[:size, :size]
    lab = np.zeros((size, size), np.uint16)
    for k in range(1, int(rng.integers(3, 7)) + 1):
        cy, cx = rng.integers(8, size - 8, 2)
        r = rng.integers(4, 9)
        m = ((yy - cy) ** 2 + (xx - cx) ** 2 < r * r) & (lab == 0)
        lab[m] = k
    img = (lab > 0) * rng.uniform(0.6, 1.0) + 0.25 * rng.normal(size=(size, size))
    return img.astype(np.float32), lab


data = [sample() for _ in range(a.n)]
X = [normalize(x, 1, 99.8) for x, _ in data]
Y = [y for _, y in data]
n_val = max(2, a.n // 6)
X_trn, Y_trn, X_val, Y_val = X[:-n_val], Y[:-n_val], X[-n_val:], Y[-n_val:]

reduce_lr = {"factor": 0.5, "patience": a.reduce_lr_patience, "min_delta": 0} if a.reduce_lr_patience else None
conf = Config2D(n_rays=a.rays, grid=(a.grid, a.grid), n_channel_in=1, train_patch_size=(64, 64),
                train_batch_size=a.batch, unet_n_depth=2, unet_n_filter_base=8, train_learning_rate=a.lr,
                train_dist_loss=a.dist_loss, train_loss_weights=(a.prob_weight, a.dist_weight),
                train_epochs=a.epochs, train_steps_per_epoch=a.steps,
                **({"train_reduce_lr": reduce_lr} if reduce_lr else {}))
model = StarDist2D(conf, name="stardist", basedir="models")
if a.lr_growth:
    model.prepare_for_training()
    model.callbacks.append(tf.keras.callbacks.LearningRateScheduler(
        lambda epoch, lr: lr * a.lr_growth if epoch > 0 else lr, verbose=1))
hist = model.train(X_trn, Y_trn, validation_data=(X_val, Y_val), epochs=a.epochs, steps_per_epoch=a.steps, seed=0)
if a.thresholds and all(math.isfinite(v) for v in hist.history["loss"]):
    model.optimize_thresholds(X_val, Y_val)

h = hist.history
keep("models/stardist/config.json")
if os.path.isfile("models/stardist/thresholds.json"):
    keep("models/stardist/thresholds.json")
write_truth(framework=f"stardist {stardist.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`Epoch 3/8`)", tolerance=tol_decimals(4),
            record="the Keras `History` that `StarDist2D.train` returns (`history['loss']`)",
            train_loss=list(enumerate(h["loss"], 1)),
            eval_loss=list(enumerate(h["val_loss"], 1)) if "val_loss" in h else None,
            eval_name="val_loss" if "val_loss" in h else None)
