"""torchdyn: a ``NeuralODE`` trained as its quickstart tutorial writes it: a PyTorch Lightning ``Learner`` whose
``training_step`` solves the ODE over ``t_span`` and takes the last state, fit by ``pl.Trainer`` (Lightning's tqdm bar,
``TQDMProgressBar()``, and its model summary), the loss logged with ``self.log("train_loss", loss, prog_bar=True)``
as Lightning users do, a ``CSVLogger`` (``logs/lightning_logs/version_0/metrics.csv``) with ``log_every_n_steps``.
Data from torchdyn's own ``ToyDataset`` (moons, spirals, gaussians: generated, no download) or a 2-d regression.
Options: solver (``rk4``, ``euler``, ``dopri5``, ``tsit5``), sensitivity (``autograd``, ``adjoint``), optimizer,
learning rate, an optional ``ExponentialLR`` every epoch, an optional validation loader (``val_loss`` per epoch).
Truth: the CSVLogger's ``metrics.csv`` (``train_loss`` at its ``step``, Lightning's global step, 0-based)."""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import torch
from h15_truth import keep, seed_all, tol_sig, write_truth
from torch import nn

ap = argparse.ArgumentParser()
ap.add_argument("--data", default="moons", choices=["moons", "spirals", "gaussians", "reg"])
ap.add_argument("--n", type=int, default=256)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--epochs", type=int, default=5)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "momentum", "rmsprop"])
ap.add_argument("--solver", default="rk4")
ap.add_argument("--sensitivity", default="autograd")
ap.add_argument("--steps", type=int, default=5, help="points in t_span")
ap.add_argument("--every", type=int, default=5, help="Trainer(log_every_n_steps=...)")
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma, stepped every epoch")
ap.add_argument("--val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pytorch_lightning as pl  # noqa: E402
import torchdyn  # noqa: E402
from pytorch_lightning.callbacks import TQDMProgressBar  # noqa: E402
from pytorch_lightning.loggers import CSVLogger  # noqa: E402
from torchdyn.core import NeuralODE  # noqa: E402
from torchdyn.datasets import ToyDataset  # noqa: E402

pl.seed_everything(0)
n_all = a.n + a.n // 4
if a.data == "reg":
    g = torch.Generator().manual_seed(0)
    X = torch.randn(n_all, 2, generator=g)
    rot = torch.tensor([[0.0, -1.0], [1.0, 0.0]])
    y = torch.tanh(X @ rot) * 2 + 0.05 * torch.randn(n_all, 2, generator=g)
    loss_fn = nn.MSELoss()
else:
    kw = {"n_gaussians": 4} if a.data == "gaussians" else {}
    X, y = ToyDataset().generate(n_samples=n_all, noise=1e-1, dataset_type=a.data, **kw)
    X, y = torch.as_tensor(X).float(), torch.as_tensor(y).long()
    perm = torch.randperm(len(X), generator=torch.Generator().manual_seed(0))
    X, y = X[perm], y[perm]
    loss_fn = nn.CrossEntropyLoss()
n_out = 2 if a.data != "gaussians" else 4
train = torch.utils.data.TensorDataset(X[: a.n], y[: a.n])
val = torch.utils.data.TensorDataset(X[a.n:], y[a.n:])
trainloader = torch.utils.data.DataLoader(train, batch_size=a.batch, shuffle=True)
valloader = torch.utils.data.DataLoader(val, batch_size=64)

dim = 2 if n_out == 2 else 4
f = nn.Sequential(nn.Linear(dim, 16), nn.Tanh(), nn.Linear(16, dim))
t_span = torch.linspace(0, 1, a.steps)
model = NeuralODE(f, sensitivity=a.sensitivity, solver=a.solver, interpolator=None, atol=1e-3, rtol=1e-3)


class Learner(pl.LightningModule):
    def __init__(self, t_span: torch.Tensor, model: nn.Module):
        super().__init__()
        self.model, self.t_span = model, t_span

    def forward(self, x):
        return self.model(x)

    def _loss(self, batch):
        x, y = batch
        if dim > x.shape[1]:
            x = torch.cat([x, torch.zeros(len(x), dim - x.shape[1])], 1)
        t_eval, y_hat = self.model(x, self.t_span)
        y_hat = y_hat[-1]  # select last point of solution trajectory
        return loss_fn(y_hat, y)

    def training_step(self, batch, batch_idx):
        loss = self._loss(batch)
        self.log("train_loss", loss, prog_bar=True)
        return {"loss": loss}

    def validation_step(self, batch, batch_idx):
        self.log("val_loss", self._loss(batch), prog_bar=True)

    def configure_optimizers(self):
        p = self.model.parameters()
        if a.optimizer == "adam":
            opt = torch.optim.Adam(p, lr=a.lr)
        elif a.optimizer == "rmsprop":
            opt = torch.optim.RMSprop(p, lr=a.lr)
        else:
            opt = torch.optim.SGD(p, lr=a.lr, momentum=0.9 if a.optimizer == "momentum" else 0.0)
        if a.gamma:
            return [opt], [torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.gamma)]
        return opt

    def train_dataloader(self):
        return trainloader


learn = Learner(t_span, model)
# Lightning's tqdm bar, named (with rich installed its default is the rich bar, which a file gets only at the end)
trainer = pl.Trainer(max_epochs=a.epochs, log_every_n_steps=a.every, logger=CSVLogger("logs"),
                     enable_checkpointing=False, callbacks=[TQDMProgressBar()])
trainer.fit(learn, val_dataloaders=valloader if a.val else None)

metrics = Path(trainer.logger.log_dir) / "metrics.csv"
rows = list(csv.DictReader(metrics.open()))
keep(metrics)
train_loss = [(int(r["step"]), float(r["train_loss"])) for r in rows if r.get("train_loss")]
eval_loss = [(int(r["step"]), float(r["val_loss"])) for r in rows if r.get("val_loss")] if a.val else None
write_truth(framework=f"torchdyn {torchdyn.__version__}", settings=vars(a), loss_name="train_loss",
            step_unit="optimizer step, 0-based, across epochs (Lightning's global step, metrics.csv `step`)",
            tolerance=tol_sig(3), record="the CSVLogger's metrics.csv (`train_loss` at its `step`)",
            train_loss=train_loss, eval_loss=eval_loss, eval_name="val_loss" if a.val else None,
            steps_per_epoch=len(trainloader), pytorch_lightning=pl.__version__)
