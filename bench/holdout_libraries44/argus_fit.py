"""pytorch-argus: a small torch MLP as an ``argus.Model`` (``nn_module``, ``optimizer``, ``loss`` named in the
class, as its README's example), trained by ``model.fit(train_loader, val_loader, num_epochs, metrics,
callbacks)``: argus attaches its ``default_logging`` (``state.logger.info``: ``train - epoch: 3, lr: 0.01,
train_loss: 0.8123456`` each epoch, metrics with ``.7g``, ``val - epoch: 3, val_loss: ...`` after a validation
pass, through argus' own logger and its default stream handler on stderr:
``[2026-12-06 18:53:42,397][INFO]: train - epoch: 0, ...``), optionally ``LoggingToFile`` (its own ``train.txt``,
kept) and ``LoggingToCSV`` (``log.csv``: the truth), its ``ExponentialLR`` callback. Truth: the
``LoggingToCSV`` file (``train_loss`` at its ``epoch``, argus's epoch number, 0-based)."""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import torch
from h44_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="SGD", choices=["SGD", "Adam", "RMSprop"])
ap.add_argument("--gamma", type=float, default=0.0, help="argus' ExponentialLR callback")
ap.add_argument("--val", action="store_true")
ap.add_argument("--logfile", action="store_true", help="add LoggingToFile (train.txt)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import argus  # noqa: E402
from argus.callbacks import ExponentialLR, LoggingToCSV, LoggingToFile  # noqa: E402

g = torch.Generator().manual_seed(0)
n_val = a.n // 4
X = torch.randn(a.n + n_val, 8, generator=g)
if a.task == "cls":
    W = torch.randn(8, 4, generator=g)
    y = (X @ W + 0.5 * torch.randn(a.n + n_val, 4, generator=g)).argmax(1)
    out_dim, loss_name = 4, "CrossEntropyLoss"
else:
    w = torch.randn(8, 1, generator=g)
    y = torch.sin(X @ w) * 3 + X[:, :1] ** 2 + 0.1 * torch.randn(a.n + n_val, 1, generator=g)
    out_dim, loss_name = 1, "MSELoss"
train_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[: a.n], y[: a.n]), batch_size=a.batch,
                                           shuffle=True, generator=torch.Generator().manual_seed(1))
val_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[a.n:], y[a.n:]), batch_size=64)


class MLP(torch.nn.Module):
    def __init__(self, out_dim: int) -> None:
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, out_dim))

    def forward(self, x):
        return self.net(x)


class MLPModel(argus.Model):
    nn_module = MLP
    optimizer = getattr(torch.optim, a.optimizer)
    loss = getattr(torch.nn, loss_name)


model = MLPModel({"nn_module": {"out_dim": out_dim}, "optimizer": {"lr": a.lr}, "loss": {}, "device": "cpu"})
callbacks = [LoggingToCSV("log.csv")]
if a.logfile:
    callbacks.append(LoggingToFile("train.txt"))
if a.gamma:
    callbacks.append(ExponentialLR(gamma=a.gamma))
model.fit(train_loader, val_loader=val_loader if a.val else None, num_epochs=a.epochs,
          metrics=["accuracy"] if a.task == "cls" and a.val else [], callbacks=callbacks)

rows = list(csv.DictReader(Path("log.csv").open()))
keep("log.csv")
if a.logfile:
    keep("train.txt")
write_truth(framework=f"pytorch-argus {argus.__version__}", settings=vars(a), loss_name="train_loss",
            step_unit="epoch, 0-based (`train - epoch: N`)", tolerance=tol_sig(7),
            record="argus' LoggingToCSV file `log.csv` (`train_loss` at its `epoch`)",
            train_loss=[(int(r["epoch"]), float(r["train_loss"])) for r in rows],
            eval_loss=[(int(r["epoch"]), float(r["val_loss"])) for r in rows] if a.val else None,
            eval_name="val_loss" if a.val else None)
if a.logfile:
    write_truth(framework=f"pytorch-argus {argus.__version__}", settings=vars(a), loss_name="train_loss",
                step_unit="epoch, 0-based (`train - epoch: N`)", tolerance=tol_sig(7),
                record="argus' LoggingToCSV file `log.csv` (`train_loss` at its `epoch`), for its LoggingToFile file",
                train_loss=[(int(r["epoch"]), float(r["train_loss"])) for r in rows],
                eval_loss=[(int(r["epoch"]), float(r["val_loss"])) for r in rows] if a.val else None,
                eval_name="val_loss" if a.val else None, name="truth_store.json", file="train.txt")
