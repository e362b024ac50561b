"""torchmanager: its ``Manager`` (a Keras-like ``compile``/``fit`` over a torch model) training a small MLP on a
synthetic table, its logger's console added with ``view.add_console()`` (the ``torchmanager`` logger has no handler
of its own), optionally its ``ProgressBar`` (``show_verbose=True``), a validation set and its ``LrScheduler``
callback. Its logger writes on stderr ``Training epoch 3/10`` then ``Epoch 3/10: loss=0.4123,
val_loss=..., lr=0.0100`` (``{:.4f}``) each epoch; the progress bar is tqdm's, redrawn with ``\\r`` and closed each
epoch (``100%|...| 16/16 [00:00<00:00, 201.2it/s, loss=0.41]``). Truth: the ``summary`` its
``fit`` hands each callback's ``on_epoch_end`` (a recording ``Callback``), at the epoch, 1-based, as ``Epoch N/M``
counts it."""

from __future__ import annotations

import argparse

import numpy as np
from h47_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam", "momentum", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR through its LrScheduler callback")
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--val", action="store_true")
ap.add_argument("--progress", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
import torchmanager  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402
from torchmanager import callbacks, losses  # noqa: E402
from torchmanager_core import view  # noqa: E402

torch.set_num_threads(1)
torch.manual_seed(0)
rng = np.random.default_rng(0)
X = rng.normal(size=(a.n + 128, 8)).astype(np.float32)
W = rng.normal(size=(8, 3)).astype(np.float32)
if a.task == "cls":
    y = torch.tensor((X @ W + 0.5 * rng.normal(size=(len(X), 3))).argmax(1))
    out, loss_fn = 3, losses.CrossEntropy()
    mets: dict = {}  # its SparseCategoricalAccuracy fails in 1.5 (no `_dim`): loss only
else:
    y = torch.tensor(np.sin(X[:, :1] * 2) + X[:, 1:2] ** 2 + 0.1 * rng.normal(size=(len(X), 1)), dtype=torch.float32)
    out, loss_fn = 1, losses.MSE()
    mets = {}
X = torch.tensor(X)
train = DataLoader(TensorDataset(X[: a.n], y[: a.n]), batch_size=a.batch, shuffle=True)
val = DataLoader(TensorDataset(X[a.n:], y[a.n:]), batch_size=64) if a.val else None
model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 32), torch.nn.ReLU(),
                            torch.nn.Linear(32, out))
opt = {"sgd": lambda p: torch.optim.SGD(p, lr=a.lr),
       "momentum": lambda p: torch.optim.SGD(p, lr=a.lr, momentum=0.9),
       "adam": lambda p: torch.optim.Adam(p, lr=a.lr),
       "rmsprop": lambda p: torch.optim.RMSprop(p, lr=a.lr)}[a.optimizer](model.parameters())


class Record(callbacks.Callback):
    """The summaries ``fit`` hands its callbacks at each epoch's end."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[tuple[int, dict, dict | None]] = []

    def on_epoch_end(self, epoch, summary={}, val_summary=None):  # noqa: B006
        self.rows.append((epoch, dict(summary), dict(val_summary) if val_summary is not None else None))


view.add_console()
manager = torchmanager.Manager(model, opt, loss_fn=loss_fn, metrics=mets)
record = Record()
cbs: list = []
if a.gamma:
    cbs.append(callbacks.LrScheduler(torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.gamma)))
cbs.append(record)
manager.fit(train, epochs=a.epochs, val_dataset=val, callbacks_list=cbs, show_verbose=a.progress)

write_truth(framework=f"torchmanager {torchmanager.VERSION}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`Epoch N/M`)", tolerance=tol_decimals(4),
            record="the `summary` fit hands its callbacks' `on_epoch_end` (a recording Callback)",
            train_loss=[(e + 1, s["loss"]) for e, s, _ in record.rows],
            eval_loss=[(e + 1, v["loss"]) for e, _, v in record.rows if v is not None] if a.val else None,
            eval_name="val_loss" if a.val else None, steps_per_epoch=len(train))
