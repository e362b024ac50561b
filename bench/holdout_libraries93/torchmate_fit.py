"""torchmate: a tiny MLP trained with its Keras-like ``Trainer`` (``Trainer(model, train_dataloader,
val_dataloader, loss_fn, optimizer, num_epochs, metrics, callbacks, scheduler).fit()``), with its ``CSVLogger``
callback, as its README does. torchmate prints a coloured ``Epoch 3/10`` line, then its own progress bar for the
training batches (``\\r``-redrawn, ``train: 20/20 [=====] 100.0% | ET: 12ms | 1ms\\step | loss: 0.41234``, the
running mean of the epoch rounded to 5 decimals) and one for the validation batches (``valid: ... | val_loss: ...``).
Truth: the ``CSVLogger`` file it writes (``loss`` at ``Epoch``, 1-based)."""

from __future__ import annotations

import argparse
import csv

from h93_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "rmsprop", "adamw"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--scheduler", default="none", choices=["none", "step", "exp", "plateau"])
ap.add_argument("--gamma", type=float, default=0.5)
ap.add_argument("--metric", action="store_true", help="also a metric (MAE or accuracy) on each bar")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402
from torchmate.callbacks import CSVLogger  # noqa: E402
from torchmate.trainer import Trainer  # noqa: E402

torch.set_num_threads(1)
g = torch.Generator().manual_seed(0)
n_val = a.n // 4
X = torch.randn(a.n + n_val, 8, generator=g)
if a.task == "reg":
    w = torch.randn(8, 1, generator=g)
    y = torch.sin(X @ w) * 2 + 0.5 * X[:, :1] ** 2 + 0.1 * torch.randn(a.n + n_val, 1, generator=g)
    out = 1
    loss_fn: torch.nn.Module = torch.nn.MSELoss()
else:
    W = torch.randn(8, 3, generator=g)
    y = (X @ W + 0.5 * torch.randn(a.n + n_val, 3, generator=g)).argmax(1)
    out = 3
    loss_fn = torch.nn.CrossEntropyLoss()
model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 32), torch.nn.ReLU(),
                            torch.nn.Linear(32, out))
train_dl = DataLoader(TensorDataset(X[: a.n], y[: a.n]), batch_size=a.batch, shuffle=True, generator=g)
val_dl = DataLoader(TensorDataset(X[a.n:], y[a.n:]), batch_size=a.batch)
opts = {"adam": torch.optim.Adam, "sgd": torch.optim.SGD, "rmsprop": torch.optim.RMSprop, "adamw": torch.optim.AdamW}
opt = opts[a.optimizer](model.parameters(), lr=a.lr)
sched = None
if a.scheduler == "step":
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=a.gamma)
elif a.scheduler == "exp":
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.gamma)
elif a.scheduler == "plateau":
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=a.gamma, patience=1)


def mae(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return (pred - target).abs().mean()


def accuracy(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return (pred.argmax(1) == target).float().mean()


metrics = [mae if a.task == "reg" else accuracy] if a.metric else None
trainer = Trainer(model, train_dl, val_dl, loss_fn, opt, num_epochs=a.epochs, metrics=metrics,
                  callbacks=[CSVLogger(filename="logs/history.csv")], scheduler=sched)
trainer.fit()

with open("logs/history.csv", newline="") as f:
    rows = list(csv.DictReader(f))
keep("logs/history.csv")
write_truth(framework="torchmate 0.1.1", settings=vars(a), loss_name="loss", step_unit="epoch, 1-based (`Epoch 3/10`)",
            tolerance=tol_decimals(5), record="torchmate's `CSVLogger` file (`logs/history.csv`: `loss` at `Epoch`)",
            train_loss=[(int(r["Epoch"]), float(r["loss"])) for r in rows],
            eval_loss=[(int(r["Epoch"]), float(r["val_loss"])) for r in rows], eval_name="val_loss")
