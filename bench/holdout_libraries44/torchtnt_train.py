"""torchtnt: a small torch MLP trained by ``torchtnt.framework.train`` (or ``fit`` with an eval loader) through a
user's ``TrainUnit`` / ``EvalUnit`` as its docs' examples write one: ``train_step`` does forward, backward and the
optimizer step, and every ``--log-every`` steps logs the step's loss with torchtnt's metric loggers: its
``StdoutLogger`` (stdout, block-buffered: ``\\n[Step 20] train_loss=1.2345`` with ``--precision`` decimals, a
``lr=`` beside it) and its ``CSVLogger`` (``metrics.csv``, the file it writes: ``step``, ``train_loss``, ...).
Optionally the ``TQDMProgressBar`` callback (stderr), an ``ExponentialLR`` stepped each epoch, an eval loop
(``eval_loss`` logged at the train step reached). Truth: the ``CSVLogger``'s ``metrics.csv`` (``train_loss`` at its
``step``: the unit's ``train_progress.num_steps_completed`` after the step, 1-based, across epochs)."""

from __future__ import annotations

import argparse
import csv
import logging
from pathlib import Path

import torch
from h44_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=5)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam", "momentum"])
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma, stepped at each epoch's end")
ap.add_argument("--log-every", type=int, default=10)
ap.add_argument("--precision", type=int, default=4)
ap.add_argument("--tqdm", action="store_true", help="add the TQDMProgressBar callback")
ap.add_argument("--val", action="store_true", help="fit with an eval loader (eval_loss)")
ap.add_argument("--info", action="store_true", help="logging.basicConfig(level=INFO), as torchtnt's examples do")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
if a.info:
    logging.basicConfig(level=logging.INFO)

from torchtnt.framework import fit, train  # noqa: E402
from torchtnt.framework.callbacks import TQDMProgressBar  # noqa: E402
from torchtnt.framework.state import State  # noqa: E402
from torchtnt.framework.unit import EvalUnit, TrainUnit  # noqa: E402
from torchtnt.utils.loggers import CSVLogger, StdoutLogger  # noqa: E402

g = torch.Generator().manual_seed(0)
n_val = a.n // 4
X = torch.randn(a.n + n_val, 8, generator=g)
if a.task == "cls":
    W = torch.randn(8, 4, generator=g)
    y = (X @ W + 0.5 * torch.randn(a.n + n_val, 4, generator=g)).argmax(1)
    loss_fn = torch.nn.functional.cross_entropy
    out_dim = 4
else:
    w = torch.randn(8, 1, generator=g)
    y = torch.sin(X @ w) * 3 + X[:, :1] ** 2 + 0.1 * torch.randn(a.n + n_val, 1, generator=g)
    loss_fn = torch.nn.functional.mse_loss
    out_dim = 1
train_ds = torch.utils.data.TensorDataset(X[: a.n], y[: a.n])
val_ds = torch.utils.data.TensorDataset(X[a.n:], y[a.n:])
train_loader = torch.utils.data.DataLoader(train_ds, batch_size=a.batch, shuffle=True,
                                           generator=torch.Generator().manual_seed(1))
val_loader = torch.utils.data.DataLoader(val_ds, batch_size=64)

model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, out_dim))
if a.optimizer == "adam":
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
else:
    opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9 if a.optimizer == "momentum" else 0.0)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.gamma) if a.gamma else None

stdout_logger = StdoutLogger(precision=a.precision)
csv_logger = CSVLogger("metrics.csv")
eval_csv_logger = CSVLogger("eval_metrics.csv") if a.val else None
Batch = tuple[torch.Tensor, torch.Tensor]


class Unit(TrainUnit[Batch], EvalUnit[Batch]):
    def __init__(self) -> None:
        super().__init__()
        self.module = model
        self.optimizer = opt
        self.lr_scheduler = sched
        self.val_losses: list[float] = []

    def train_step(self, state: State, data: Batch) -> None:
        x, t = data
        loss = loss_fn(self.module(x), t)
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        step = self.train_progress.num_steps_completed + 1
        if step % a.log_every == 0:
            payload = {"train_loss": loss.item(), "lr": self.optimizer.param_groups[0]["lr"]}
            stdout_logger.log_dict(payload, step)
            csv_logger.log_dict(payload, step)

    def on_train_epoch_end(self, state) -> None:
        if self.lr_scheduler is not None:
            self.lr_scheduler.step()

    def on_eval_epoch_start(self, state) -> None:
        self.val_losses = []

    def eval_step(self, state: State, data: Batch) -> None:
        x, t = data
        with torch.no_grad():
            self.val_losses.append(loss_fn(self.module(x), t).item())

    def on_eval_end(self, state) -> None:
        v = sum(self.val_losses) / len(self.val_losses)
        step = self.train_progress.num_steps_completed
        stdout_logger.log("eval_loss", v, step)
        if eval_csv_logger is not None:  # (on_eval_end runs only with a validation set)
            eval_csv_logger.log("eval_loss", v, step)


unit = Unit()
callbacks = [TQDMProgressBar(refresh_rate=5)] if a.tqdm else []
if a.val:
    fit(unit, train_loader, val_loader, max_epochs=a.epochs, callbacks=callbacks)
else:
    train(unit, train_loader, max_epochs=a.epochs, callbacks=callbacks)
csv_logger.close()
if eval_csv_logger is not None:
    eval_csv_logger.close()
stdout_logger.close()

rows = list(csv.DictReader(Path("metrics.csv").open()))
keep("metrics.csv")
erows = list(csv.DictReader(Path("eval_metrics.csv").open())) if a.val else []
if a.val:
    keep("eval_metrics.csv")
import torchtnt  # noqa: E402

write_truth(framework=f"torchtnt {torchtnt.__version__}", settings=vars(a), loss_name="train_loss",
            step_unit="step, 1-based, across epochs (`[Step N]`: the unit's steps completed)",
            tolerance=tol_decimals(a.precision),
            record="torchtnt's CSVLogger file `metrics.csv` (`train_loss` at its `step`)",
            train_loss=[(int(float(r["step"])), float(r["train_loss"])) for r in rows if r.get("train_loss")],
            eval_loss=[(int(float(r["step"])), float(r["eval_loss"])) for r in erows] if a.val
            else None, eval_name="eval_loss" if a.val else None, steps_per_epoch=len(train_loader))
