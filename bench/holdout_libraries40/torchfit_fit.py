"""torchfit: a small torch MLP trained by ``torchfit.Learner(model, train_loader, val_loader, criterion, optimizer,
metrics, seed)`` and ``Learner.fit(lr, epochs, schedulers)``, as its README shows (defaults: cross entropy,
``SGD(momentum=0.9)``, the ``accuracy`` metric). Its Keras-style output on stdout: ``Epoch 3 / 10``, then a bar
redrawn with ``\\r`` at every 1 % of the epoch's batches holding the running mean of the batch losses,
``[========================================] 100%\\t  loss: 0.4980``, then the bar again with the epoch's metrics
and ``val_loss`` (``accuracy: 0.8812  val_loss: 0.5012  val_accuracy: ...``, 4 decimals) and a blank line.
Truth: the ``History`` object ``fit`` returns (``get_epoch_log("loss")``: the mean of the epoch's batch losses),
at the epoch, 1-based."""

from __future__ import annotations

import argparse

import numpy as np
from h40_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="default", choices=["default", "adam", "sgd", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--val", action="store_true", help="a validation loader")
ap.add_argument("--gamma", type=float, default=None, help="ExponentialLR in fit(schedulers=[...])")
ap.add_argument("--n", type=int, default=800)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
import torchfit  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

torch.set_num_threads(1)
rng = np.random.default_rng(1)
metrics: list | None  # None: the library's default metric (accuracy)
X = rng.normal(size=(a.n + 200, 10)).astype("float32")
if a.task == "reg":
    w = rng.normal(size=10)
    y = torch.tensor((X @ w + np.cos(2 * X[:, 1]) + rng.normal(scale=0.3, size=len(X))).astype("float32"))[:, None]
    model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 1))
    criterion, metrics = nn.MSELoss(), []
else:
    s = X @ rng.normal(size=(10, 4)) + rng.normal(scale=0.7, size=(len(X), 4))
    y = torch.tensor(s.argmax(1))
    model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 4))
    criterion, metrics = None, None  # the library's defaults: cross entropy, accuracy
Xt = torch.tensor(X)
train = DataLoader(TensorDataset(Xt[: a.n], y[: a.n]), batch_size=a.batch, shuffle=True)
val = DataLoader(TensorDataset(Xt[a.n:], y[a.n:]), batch_size=100) if a.val else None
opt = {"default": None,
       "adam": lambda: torch.optim.Adam(model.parameters(), lr=a.lr),
       "sgd": lambda: torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9),
       "rmsprop": lambda: torch.optim.RMSprop(model.parameters(), lr=a.lr)}[a.optimizer]
kw = {} if metrics is None else {"metrics": metrics}
learner = torchfit.Learner(model, train_loader=train, val_loader=val, criterion=criterion,
                           optimizer=opt() if opt else None, seed=1, device="cpu", **kw)
scheds = None
if a.gamma is not None:
    scheds = [torch.optim.lr_scheduler.ExponentialLR(learner.optimizer, gamma=a.gamma)]
hist = learner.fit(a.lr, epochs=a.epochs, schedulers=scheds)

train_loss = [(i + 1, float(v)) for i, v in enumerate(hist.get_epoch_log("loss"))]
evals = ([(i + 1, float(v)) for i, v in enumerate(hist.get_epoch_log("val_loss"))]
         if hist.has_epoch_key("val_loss") else None)
write_truth(framework=f"torchfit {torchfit.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`Epoch N / M`)", tolerance=tol_decimals(4),
            record="the `History` object `Learner.fit` returns (`get_epoch_log('loss')`)",
            train_loss=train_loss, **({"eval_loss": evals, "eval_name": "val_loss"} if evals else {}))
