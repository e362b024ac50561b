"""A user's Keras 3 script (torch backend): a small dense net on synthetic tabular data, ``model.fit``.

Truth: the ``History`` returned by ``fit`` (``loss`` per epoch, 1-based as ``Epoch e/E`` prints it); a
``CSVLogger`` file is written too and checked to agree.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
from typing import Any

os.environ.setdefault("KERAS_BACKEND", "torch")

import keras  # noqa: E402
import numpy as np  # noqa: E402
from holdout_truth import write_truth  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--task", default="reg")  # reg | cls
p.add_argument("--verbose", default="1")
p.add_argument("--epochs", type=int, default=10)
p.add_argument("--batch", type=int, default=32)
p.add_argument("--val-split", type=float, default=0.0)
p.add_argument("--steps-per-epoch", type=int, default=0)
p.add_argument("--reduce-lr", action="store_true")
p.add_argument("--custom-loss", action="store_true")
p.add_argument("--terminate-nan", action="store_true")
p.add_argument("--lr-sched-growth", type=float, default=0.0)
p.add_argument("--early-stop", action="store_true")
p.add_argument("--opt", default="adam")
p.add_argument("--lr", type=float, default=1e-3)
p.add_argument("--n", type=int, default=800)
p.add_argument("--label", default="healthy")
p.add_argument("--should-stop", action="store_true")
args = p.parse_args()

keras.utils.set_random_seed(11)
rng = np.random.default_rng(5)
X = rng.normal(size=(args.n, 12)).astype("float32")
w = rng.normal(size=(12,)).astype("float32")
if args.task == "cls":
    y = (X @ w + 0.5 * rng.normal(size=args.n) > 0).astype("float32")
else:
    y = (X @ w + np.sin(X[:, 0] * 2) + 0.1 * rng.normal(size=args.n)).astype("float32") * 3.0

model = keras.Sequential([keras.Input((12,)), keras.layers.Dense(32, activation="relu"),
                          keras.layers.Dense(16, activation="relu"),
                          keras.layers.Dense(1, activation="sigmoid" if args.task == "cls" else None)])


def smooth_l1(y_true, y_pred):
    d = keras.ops.abs(keras.ops.reshape(y_true, (-1, 1)) - y_pred)
    return keras.ops.mean(keras.ops.where(d < 1.0, 0.5 * d * d, d - 0.5))


loss: Any
if args.task == "cls":
    loss, metrics = "binary_crossentropy", [keras.metrics.BinaryAccuracy(name="acc")]
else:
    loss = smooth_l1 if args.custom_loss else "mse"
    metrics = [keras.metrics.MeanAbsoluteError(name="mae_custom" if args.custom_loss else "mae")]
opt = keras.optimizers.SGD(args.lr, momentum=0.9) if args.opt == "sgd" else keras.optimizers.Adam(args.lr)
model.compile(optimizer=opt, loss=loss, metrics=metrics)

cbs = [keras.callbacks.CSVLogger("history.csv")]
if args.reduce_lr:
    cbs.append(keras.callbacks.ReduceLROnPlateau(monitor="val_loss" if args.val_split else "loss", factor=0.5,
                                                 patience=1, min_delta=0.05, verbose=1))
if args.terminate_nan:
    cbs.append(keras.callbacks.TerminateOnNaN())
if args.lr_sched_growth:
    cbs.append(keras.callbacks.LearningRateScheduler(lambda e, lr: lr * args.lr_sched_growth, verbose=1))
if args.early_stop:
    cbs.append(keras.callbacks.EarlyStopping(monitor="val_loss", patience=4, verbose=1,
                                             restore_best_weights=True))
verbose = args.verbose if args.verbose == "auto" else int(args.verbose)

if args.steps_per_epoch:
    def batches():
        i = 0
        while True:
            j = np.arange(i, i + args.batch) % args.n
            i += args.batch
            yield X[j], y[j]

    hist = model.fit(batches(), steps_per_epoch=args.steps_per_epoch, epochs=args.epochs, verbose=verbose,
                     callbacks=cbs)
    spe = args.steps_per_epoch
else:
    hist = model.fit(X, y, batch_size=args.batch, epochs=args.epochs, validation_split=args.val_split,
                     verbose=verbose, callbacks=cbs)
    spe = math.ceil(args.n * (1 - args.val_split) / args.batch)

h = hist.history
rows = list(csv.DictReader(open("history.csv")))
for r, v in zip(rows, h["loss"], strict=True):
    assert math.isclose(float(r["loss"]), v, rel_tol=1e-5) or (math.isnan(v) and r["loss"] == "nan"), (r, v)
write_truth(framework="keras 3 (torch backend)", settings={k: v for k, v in vars(args).items() if k != "label"},
            label=args.label, should_stop=args.should_stop, loss_name="loss",
            step_unit="epoch (History index + 1, as 'Epoch e/E' prints it)", tolerance={"rel": 1e-3, "abs": 5e-5},
            record="keras History (CSVLogger agrees)", train_loss=list(enumerate(h["loss"], 1)),
            steps_per_epoch=spe, val_loss=list(enumerate(h["val_loss"], 1)) if "val_loss" in h else None)
