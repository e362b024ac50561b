"""pytorch-trainer-tensorboard: its ``Trainer`` (``build_model``, ``initialize_dataloaders``, ``train(epochs,
loss_fn, optimizer, ...)``) on a small MLP and a synthetic table, with TensorBoard on, as its own example shows. It
prints on stdout ``3. Training loss = 0.5123456`` and ``3. Validation loss = ...`` (``{:.7f}``) each epoch (and
``3. Train Metric - Accuracy: 81.25`` with a metric), and tqdm bars on stderr (one over epochs, one over the
batches of each pass). Truth: the ``losses`` scalars it writes with ``add_scalars`` (``runs/<name>/losses_train``,
read back with TensorBoard's ``EventAccumulator``), at the epoch, 0-based, as it prints it."""

from __future__ import annotations

import argparse
from pathlib import Path

from h42_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="SGD", choices=["SGD", "Adam", "RMSprop", "momentum"])
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--gamma", type=float, default=None, help="ExponentialLR's gamma (a schedule)")
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--metric", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import importlib.metadata as md  # noqa: E402

import torch  # noqa: E402
from pytorch_trainer import Trainer  # noqa: E402
from pytorch_trainer.metric import Accuracy  # noqa: E402
from torch import nn, optim  # noqa: E402

g = torch.Generator().manual_seed(0)
X = torch.randn(a.n, 8, generator=g)
w = torch.randn(8, 3, generator=g)
if a.task == "cls":
    y = (X @ w + 0.5 * torch.randn(a.n, 3, generator=g)).argmax(1)
else:
    y = (X @ w[:, :1] + 0.3 * torch.randn(a.n, 1, generator=g))
cut = a.n * 3 // 4


def loaders(batch_size):
    tr = torch.utils.data.TensorDataset(X[:cut], y[:cut])
    va = torch.utils.data.TensorDataset(X[cut:], y[cut:])
    return (torch.utils.data.DataLoader(tr, batch_size=batch_size, shuffle=True, generator=g),
            torch.utils.data.DataLoader(va, batch_size=batch_size))


class MLP(nn.Module):
    def __init__(self, n_out):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, n_out))

    def forward(self, x):
        return self.net(x)


name = f"{a.task}_{a.optimizer.lower()}"
trainer = Trainer(name, {"use_cuda": False, "use_tensorboard": True, "tensorboard_weight_hist": False},
                  experiment_summary=f"{a.task} {a.optimizer} lr={a.lr}")
trainer.initialize_dataloaders(loaders, batch_size=a.batch)
trainer.build_model(MLP, n_out=3 if a.task == "cls" else 1)
opt, kw = {"SGD": (optim.SGD, {}), "Adam": (optim.Adam, {}), "RMSprop": (optim.RMSprop, {}),
           "momentum": (optim.SGD, {"momentum": 0.9})}[a.optimizer]
sched = dict(lr_scheduler=torch.optim.lr_scheduler.ExponentialLR, lr_scheduler_kwargs={"gamma": a.gamma}) \
    if a.gamma else {}
trainer.train(epochs=a.epochs, loss_fn=nn.CrossEntropyLoss if a.task == "cls" else nn.MSELoss, optimizer=opt,
              optimizer_kwargs={"lr": a.lr, **kw}, metric=Accuracy if (a.metric and a.task == "cls") else None,
              save_best=True, save_location="./saved_models", save_name=name, **sched)
trainer.logger.flush()

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402


def scalars(sub):
    ev = EventAccumulator(str(Path("runs") / name / sub))
    ev.Reload()
    return [(e.step, e.value) for e in ev.Scalars("losses")]


write_truth(framework=f"pytorch-trainer-tensorboard {md.version('pytorch-trainer-tensorboard')} (torch "
            f"{torch.__version__})", settings=vars(a), loss_name="Training loss",
            step_unit="epoch, 0-based (`3. Training loss = ...`)", tolerance={"rel": 2e-07, "abs": 5.1e-08},
            record="its TensorBoard scalars `losses` (add_scalars: runs/<name>/losses_train, losses_val)",
            train_loss=scalars("losses_train"), eval_loss=scalars("losses_val"), eval_name="Validation loss")
