"""Darts: a torch forecasting model (``NBEATSModel``, ``TCNModel``, ``RNNModel``, ``DLinearModel``) ``fit`` on a
synthetic series with darts' own progress bar, ``TFMProgressBar`` (a Lightning tqdm bar per epoch, redrawn each step:
``Epoch 3:  40%|...| 6/15 [..., train_loss=0.0123]``; Lightning's default rich bar prints nothing per epoch into a
file), and Lightning's ``CSVLogger`` given through ``pl_trainer_kwargs`` with ``log_every_n_steps=1`` (its
``metrics.csv``). Truth: that ``metrics.csv``'s ``train_loss`` (the loss of each step, as darts logs it), at the
global step counted from 1 (the CSV's 0-based ``step`` + 1 = the epoch's bar count + epoch x steps per epoch)."""

from __future__ import annotations

import argparse
import csv
import glob

import numpy as np
from h4_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="NBEATS", choices=["NBEATS", "TCN", "RNN", "DLinear"])
ap.add_argument("--epochs", type=int, default=15)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd"])
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma per epoch")
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--train-bar-only", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from darts import TimeSeries  # noqa: E402
from darts.models import DLinearModel, NBEATSModel, RNNModel, TCNModel  # noqa: E402
from darts.utils.callbacks import TFMProgressBar  # noqa: E402
from lightning.pytorch.loggers import CSVLogger  # noqa: E402

torch.set_num_threads(1)
rng = np.random.default_rng(0)
t = np.arange(600)
vals = np.sin(t / 12) + 0.5 * np.sin(t / 37) + 0.002 * t + 0.1 * rng.normal(size=t.size)
series = TimeSeries.from_values(vals.astype(np.float32))
train, val = series[:480], series[480:]

kw = dict(input_chunk_length=24, output_chunk_length=6, n_epochs=a.epochs, batch_size=a.batch, random_state=0,
          optimizer_kwargs={"lr": a.lr},
          pl_trainer_kwargs={"accelerator": "cpu", "logger": CSVLogger("logs", name="darts"),
                             "log_every_n_steps": 1,
                             "callbacks": [TFMProgressBar(enable_train_bar_only=a.train_bar_only)]})
if a.optimizer == "sgd":
    kw["optimizer_cls"] = torch.optim.SGD
if a.gamma:
    kw["lr_scheduler_cls"] = torch.optim.lr_scheduler.ExponentialLR
    kw["lr_scheduler_kwargs"] = {"gamma": a.gamma}
if a.model == "NBEATS":
    model = NBEATSModel(num_stacks=2, num_blocks=1, num_layers=2, layer_widths=32, **kw)
elif a.model == "TCN":
    model = TCNModel(kernel_size=3, num_filters=8, **kw)
elif a.model == "DLinear":
    model = DLinearModel(**kw)
else:
    kw.pop("output_chunk_length")
    model = RNNModel(model="LSTM", hidden_dim=16, training_length=30, **kw)
model.fit(train, val_series=None if a.no_val else val, verbose=True)

import darts  # noqa: E402

path = sorted(glob.glob("logs/darts/version_*/metrics.csv"))[-1]
keep(path)
train_loss, val_loss = [], []
with open(path) as f:
    for row in csv.DictReader(f):
        if row.get("train_loss"):
            train_loss.append((int(row["step"]) + 1, float(row["train_loss"])))
        if row.get("val_loss"):
            val_loss.append((int(row["step"]) + 1, float(row["val_loss"])))
write_truth(framework=f"darts {darts.__version__}", settings=vars(a), loss_name="train_loss",
            step_unit="global step, 1-based (the bar's n under `Epoch e` + e x steps_per_epoch)", tolerance=tol_sig(3),
            record="Lightning CSVLogger metrics.csv (train_loss per step, as darts logs it; step + 1)",
            train_loss=train_loss, eval_loss=val_loss or None, eval_name="val_loss" if val_loss else None,
            steps_per_epoch=model.trainer.num_training_batches)
