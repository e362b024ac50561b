"""torchensemble (Ensemble-PyTorch): a ``FusionClassifier`` / ``FusionRegressor`` of small torch MLPs on synthetic
data, as its README's quick start does: ``set_logger(name, use_tb_logger=True)``, ``set_optimizer``, optionally
``set_scheduler``, ``fit(train_loader, epochs, log_interval, test_loader)``. Its logger writes on stderr
``2026-12-06 01:50:00,123 - INFO: Epoch: 003 | Batch: 010 | Loss: 0.41234 | Correct: 27/32`` (the batch's loss, 5
decimals) every ``log_interval`` batches of an epoch (epoch and batch 0-based), ``Epoch: 003 | Validation Acc:
81.250 % | Historical Best: 82.500 %`` (``Validation Loss`` for a regressor), and its own log file
``logs/<name>-<date>.log`` (kept, scored too) in a longer format (``- fusion.py[line:126] - INFO: ...``); a few
``print`` lines on stdout at ``set_logger``. Truth: the ``fusion/Train_Loss`` scalars it writes to its TensorBoard
logger (``use_tb_logger``: at ``total_iters``, the global batch, 0-based: epoch x steps_per_epoch + batch); the
TensorBoard files are not kept."""

from __future__ import annotations

import argparse
import glob
import logging
import os

import torch
from h6_truth import dest, keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--estimators", type=int, default=3)
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--optimizer", default="Adam", choices=["Adam", "SGD", "RMSprop"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma via set_scheduler (per epoch)")
ap.add_argument("--log-interval", type=int, default=5)
ap.add_argument("--val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402
from torchensemble import FusionClassifier, FusionRegressor  # noqa: E402
from torchensemble.utils.logging import set_logger  # noqa: E402

g = torch.Generator().manual_seed(0)
n_val = a.n // 4
X = torch.randn(a.n + n_val, 10, generator=g)
if a.task == "cls":
    W = torch.randn(10, 3, generator=g)
    y = (X @ W + 0.7 * torch.randn(a.n + n_val, 3, generator=g)).argmax(1)
    out = 3
else:
    w = torch.randn(10, 1, generator=g)
    y = (torch.tanh(X @ w) * 2 + 0.3 * X[:, 1:2] ** 2 + 0.1 * torch.randn(a.n + n_val, 1, generator=g))
    out = 1


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(10, 32), torch.nn.ReLU(), torch.nn.Linear(32, out))

    def forward(self, x):
        return self.net(x)


train_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[: a.n], y[: a.n]), batch_size=a.batch,
                                           shuffle=True, generator=torch.Generator().manual_seed(1))
val_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[a.n:], y[a.n:]), batch_size=64)

name = "fusion_cls" if a.task == "cls" else "fusion_reg"
set_logger(name, use_tb_logger=True)
cls = FusionClassifier if a.task == "cls" else FusionRegressor
model = cls(estimator=MLP, n_estimators=a.estimators, cuda=False)
kw = {"momentum": 0.9} if a.optimizer == "SGD" else {}
model.set_optimizer(a.optimizer, lr=a.lr, **kw)
if a.gamma:
    model.set_scheduler("ExponentialLR", gamma=a.gamma)
model.fit(train_loader, epochs=a.epochs, log_interval=a.log_interval, test_loader=val_loader if a.val else None,
          save_model=False)

logging.disable(logging.CRITICAL)  # the TensorBoard reader below logs to the root logger: not in the log
tb_dir = glob.glob(f"logs/{name}-*_tb_logger")[0]
ea = EventAccumulator(tb_dir, size_guidance={"scalars": 0})
ea.Reload()
series = [(e.step, e.value) for e in ea.Scalars("fusion/Train_Loss")]
common = dict(framework=f"torchensemble {version('torchensemble')}", settings=vars(a), loss_name="Loss",
              step_unit="global batch, 0-based (`Epoch: E | Batch: B`: E x steps_per_epoch + B)",
              tolerance=tol_decimals(5),
              record="the `fusion/Train_Loss` scalars of its TensorBoard logger (`set_logger(use_tb_logger=True)`)",
              train_loss=series, steps_per_epoch=len(train_loader))
write_truth(**common)
log_file = [p for p in glob.glob(f"logs/{name}-*.log") if os.path.isfile(p)][0]
if dest() is not None:
    keep(log_file)
    write_truth(name="truth_store.json", file=os.path.basename(log_file), **common)
