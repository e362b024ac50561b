"""Poutyne (Keras-like training for PyTorch): ``Model.fit`` with its progression printout and, optionally, its
``CSVLogger``. Truth: the history ``fit`` returns (one dict per epoch: ``loss``, ``val_loss``)."""

from __future__ import annotations

import argparse
import os

import torch
from h3_truth import keep, seed_all, tol_decimals, write_truth
from poutyne import CSVLogger, ExponentialLR, Model
from torch import nn

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=15)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--opt", default="adam")
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--ramp", type=float, default=0.0, help="poutyne ExponentialLR gamma per epoch")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--csv", action="store_true")
ap.add_argument("--verbose", type=int, default=1)
ap.add_argument("--progress", default="default", choices=["default", "steps"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

n, d = 1200, 20
x = torch.randn(n, d)
w = torch.randn(d, 1)
if a.task == "cls":
    logits = x @ w + 0.5 * torch.randn(n, 1)
    y = (logits.squeeze(1) > 0).long() + (logits.squeeze(1) > 1.5).long()
    net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 3))
    loss_fn, metrics = "cross_entropy", ["accuracy"]
else:
    y = x @ w + 0.3 * torch.randn(n, 1) + (x[:, :1] ** 2)
    net = nn.Sequential(nn.Linear(d, 32), nn.Tanh(), nn.Linear(32, 1))
    loss_fn, metrics = "mse", []
xtr, ytr, xva, yva = x[:1000], y[:1000], x[1000:], y[1000:]

opt = torch.optim.Adam(net.parameters(), lr=a.lr) if a.opt == "adam" else torch.optim.SGD(net.parameters(), lr=a.lr)
model = Model(net, opt, loss_fn, batch_metrics=metrics)
callbacks = [CSVLogger("log.csv")] if a.csv else []
if a.ramp:
    callbacks.append(ExponentialLR(gamma=a.ramp))
kw = {} if a.progress == "default" else {"progress_options": {"show_every_n_train_steps": 10}}
history = model.fit(xtr, ytr, validation_data=None if a.no_val else (xva, yva), epochs=a.epochs,
                    batch_size=a.batch, callbacks=callbacks, verbose=bool(a.verbose), **kw)

if a.csv and os.path.exists("log.csv"):
    keep("log.csv")
train = [(h["epoch"], h["loss"]) for h in history]
ev = None if a.no_val else [(h["epoch"], h["val_loss"]) for h in history]
write_truth(framework="poutyne", settings=vars(a), loss_name="loss", step_unit="epoch, 1-based",
            tolerance=tol_decimals(6), record="the history Model.fit returns (h['loss'] per epoch)",
            train_loss=train, eval_loss=ev, eval_name=None if ev is None else "val_loss")
