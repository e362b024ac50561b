"""keras4torch: a small torch MLP wrapped in ``keras4torch.Model``, ``compile`` (optimizer by name or a torch
optimizer, loss ``mse`` / ``ce_loss``, metrics) and ``fit(x, y, epochs, batch_size, validation_split, verbose,
callbacks)``, as its README shows. Its Keras-like output on stdout: ``Train on 800 samples, validate on 200
samples:``, then per epoch ``Epoch 3/20`` and (``verbose=1``) a progress bar redrawn with backspaces and ``\\r``
(``13/25 [===>...] - ETA: 0s - loss: 0.5123``), closed by ``25/25 - 0.1s - loss: 0.4980 - val_loss: 0.5012 - lr:
1e-03``; ``verbose=2`` prints ``Epoch 3/20 - 0.1s - loss: ...`` on one line. Values ``{:.4f}`` (``{:.4e}`` at or
below 1e-3, so ``nan``). Optional ``CSVLogger`` (its own ``history.csv``, kept) and ``LRScheduler``.
Truth: the history DataFrame ``fit`` returns (``loss`` = the epoch's mean batch loss), at the epoch, 1-based."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
from h40_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "rmsprop", "sgd-plain", "adamw"])
ap.add_argument("--lr", type=float, default=None, help="None: the library's default for a named optimizer")
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--val", type=float, default=0.0, help="validation_split (0: none)")
ap.add_argument("--verbose", type=int, default=1)
ap.add_argument("--gamma", type=float, default=None, help="ExponentialLR through keras4torch's LRScheduler")
ap.add_argument("--csv", action="store_true", help="keras4torch's CSVLogger callback (history.csv)")
ap.add_argument("--n", type=int, default=800)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import keras4torch as k4t  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

torch.set_num_threads(1)
rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 8)).astype("float32")
w = rng.normal(size=8)
if a.task == "reg":
    y = (X @ w + 0.5 * np.sin(3 * X[:, 0]) + rng.normal(scale=0.3, size=a.n)).astype("float32")[:, None] * 2.0
    net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
    loss, metrics = "mse", ["mae"]
else:
    s = X @ rng.normal(size=(8, 3)) + rng.normal(scale=0.5, size=(a.n, 3))
    y = s.argmax(1).astype("int64")
    net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3))
    loss, metrics = "ce_loss", ["acc"]

model = k4t.Model(net).build([8])
if a.lr is None:
    opt = a.optimizer
else:
    params = model.parameters()
    opt = {"adam": lambda: torch.optim.Adam(params, lr=a.lr),
           "adamw": lambda: torch.optim.AdamW(params, lr=a.lr),
           "sgd": lambda: torch.optim.SGD(params, lr=a.lr, momentum=0.9),
           "sgd-plain": lambda: torch.optim.SGD(params, lr=a.lr),
           "rmsprop": lambda: torch.optim.RMSprop(params, lr=a.lr)}[a.optimizer]()
model.compile(optimizer=opt, loss=loss, metrics=metrics)
callbacks = []
if a.gamma is not None:
    callbacks.append(k4t.callbacks.LRScheduler(torch.optim.lr_scheduler.ExponentialLR(model.trainer.optimizer,
                                                                                     gamma=a.gamma)))
if a.csv:
    callbacks.append(k4t.callbacks.CSVLogger("history.csv"))
history = model.fit(X, y, epochs=a.epochs, batch_size=a.batch, validation_split=a.val or None,
                    verbose=a.verbose, callbacks=callbacks)

if a.csv and Path("history.csv").is_file():
    keep("history.csv")
train = [(int(e), float(v)) for e, v in history["loss"].items()]
evals = [(int(e), float(v)) for e, v in history["val_loss"].items()] if "val_loss" in history else None
# {:.4f} above 1e-3, {:.4e} at or below it: 4 decimals cover both
tol = tol_decimals(4)
if any(math.isfinite(v) and abs(v) <= 1e-3 for _, v in train):
    tol = {"rel": 0.51e-4, "abs": 0.51e-4}
write_truth(framework=f"keras4torch {k4t.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`Epoch N/M`)", tolerance=tol,
            record="the history DataFrame `Model.fit` returns (`loss`, the epoch's mean batch loss)",
            train_loss=train, **({"eval_loss": evals, "eval_name": "val_loss"} if evals else {}))
