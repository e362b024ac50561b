"""torchbearer: a ``Trial`` run with its default ``Tqdm`` printer (``verbose=2``: a bar per epoch redrawn every
step, labelled ``0/10(t)``; ``verbose=1``: one bar over the epochs, redrawn after each) and, optionally, its
``CSVLogger`` callback. Truth: the history ``Trial.run`` returns (one dict per epoch: ``loss``, ``val_loss``)."""

from __future__ import annotations

import argparse
import os

import torch
import torchbearer
from h4_truth import keep, seed_all, tol_decimals, write_truth
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from torchbearer import Trial
from torchbearer.callbacks import CSVLogger
from torchbearer.callbacks.torch_scheduler import ExponentialLR

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--opt", default="adam")
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--ramp", type=float, default=0.0, help="torchbearer ExponentialLR gamma per epoch")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--csv", action="store_true")
ap.add_argument("--verbose", type=int, default=2)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

n, d = 1200, 16
x = torch.randn(n, d)
w = torch.randn(d, 1)
if a.task == "cls":
    logits = x @ w + 0.5 * torch.randn(n, 1)
    y = (logits.squeeze(1) > 0).long() + (logits.squeeze(1) > 1.5).long()
    net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 3))
    loss_fn, metrics = nn.CrossEntropyLoss(), ["loss", "acc"]
else:
    y = x @ w + 0.3 * torch.randn(n, 1) + x[:, :1] ** 2
    net = nn.Sequential(nn.Linear(d, 32), nn.Tanh(), nn.Linear(32, 1))
    loss_fn, metrics = nn.MSELoss(), ["loss", "mse"]
train = DataLoader(TensorDataset(x[:1000], y[:1000]), batch_size=a.batch, shuffle=True)
val = DataLoader(TensorDataset(x[1000:], y[1000:]), batch_size=100)

opt = torch.optim.Adam(net.parameters(), lr=a.lr) if a.opt == "adam" else torch.optim.SGD(net.parameters(), lr=a.lr)
callbacks = [CSVLogger("log.csv")] if a.csv else []
if a.ramp:
    callbacks.append(ExponentialLR(gamma=a.ramp))
trial = Trial(net, opt, loss_fn, metrics=metrics, callbacks=callbacks, verbose=a.verbose)
trial.with_generators(train_generator=train, val_generator=None if a.no_val else val)
history = trial.run(epochs=a.epochs)

if a.csv and os.path.exists("log.csv"):
    keep("log.csv")
# verbose=2 labels each epoch's bar `e/E(t)` (0-based); verbose=1 draws one bar over the epochs, whose count after an
# epoch is that epoch counted from 1
first = 1 if a.verbose == 1 else 0
tr = [(i + first, h["loss"]) for i, h in enumerate(history)]
ev = None if a.no_val else [(i + first, h["val_loss"]) for i, h in enumerate(history)]
write_truth(framework=f"torchbearer {torchbearer.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 0-based (the bar's `e/E(t)`)" if first == 0 else
            "epoch, 1-based (the count of the one bar over the epochs)", tolerance=tol_decimals(4),
            record="the history Trial.run returns (h['loss'] per epoch)",
            train_loss=tr, eval_loss=ev, eval_name=None if ev is None else "val_loss")
