"""torchkeras: a small MLP wrapped in ``torchkeras.KerasModel(net, loss_fn, optimizer=..., lr_scheduler=...)`` and
trained with ``fit(train_data, val_data, epochs, monitor, patience, plot)`` on a synthetic table, as its README shows.
With ``plot=False`` it prints ``Epoch N / M`` under a ``=====`` rule with the time, and one tqdm bar per epoch (and
per validation) on stdout whose postfix at the epoch's end holds the epoch's mean loss (``train_loss=0.532, lr=0.01``,
tqdm's 3 significant digits), then ``<<<<<< reach best val_loss : 0.4123... >>>>>>`` when the monitored value is a
new best; with ``plot=True`` (its default) it draws its own progress bar instead and saves a ``history.png``.
Truth: the ``dfhistory`` DataFrame ``fit`` returns (``train_loss``: the mean of the epoch's batch losses; ``val_loss``),
at its ``epoch`` column, 1-based."""

from __future__ import annotations

import argparse

import numpy as np
from h37_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "momentum", "rmsprop"])
ap.add_argument("--lr", type=float, default=3e-3)
ap.add_argument("--gamma", type=float, default=None, help="ExponentialLR factor, stepped every batch by torchkeras")
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--val", action="store_true")
ap.add_argument("--plot", action="store_true")
ap.add_argument("--patience", type=int, default=5)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
import torchkeras  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 8)).astype(np.float32)
W = rng.normal(size=(8, 3)).astype(np.float32)
if a.task == "cls":
    y = torch.tensor((X @ W + rng.normal(scale=0.5, size=(a.n, 3))).argmax(1))
    loss_fn = torch.nn.CrossEntropyLoss()
    out = 3
else:
    y = torch.tensor((np.sin(X[:, :1] * 2) + X @ W[:, :1] + rng.normal(scale=0.1, size=(a.n, 1))).astype(np.float32))
    loss_fn = torch.nn.MSELoss()
    out = 1
X = torch.tensor(X)
cut = int(a.n * 0.8) if a.val else a.n
dl_train = DataLoader(TensorDataset(X[:cut], y[:cut]), batch_size=a.batch, shuffle=True)
dl_val = DataLoader(TensorDataset(X[cut:], y[cut:]), batch_size=a.batch) if a.val else None

net = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 32), torch.nn.ReLU(),
                          torch.nn.Linear(32, out))
if a.optimizer == "adam":
    opt = torch.optim.Adam(net.parameters(), lr=a.lr)
elif a.optimizer == "sgd":
    opt = torch.optim.SGD(net.parameters(), lr=a.lr)
elif a.optimizer == "momentum":
    opt = torch.optim.SGD(net.parameters(), lr=a.lr, momentum=0.9)
else:
    opt = torch.optim.RMSprop(net.parameters(), lr=a.lr)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.gamma) if a.gamma else None

model = torchkeras.KerasModel(net, loss_fn=loss_fn, optimizer=opt, lr_scheduler=sched)
dfhistory = model.fit(train_data=dl_train, val_data=dl_val, epochs=a.epochs,
                      monitor="val_loss" if a.val else "train_loss", mode="min", patience=a.patience,
                      plot=a.plot)

epochs = [int(e) for e in dfhistory["epoch"]]
train = list(zip(epochs, [float(v) for v in dfhistory["train_loss"]], strict=True))
val = list(zip(epochs, [float(v) for v in dfhistory["val_loss"]], strict=True)) if a.val else None
write_truth(framework=f"torchkeras {torchkeras.__version__}", settings=vars(a),
            loss_name="CrossEntropyLoss" if a.task == "cls" else "MSELoss",
            step_unit="epoch, 1-based (`Epoch N / M`, the `epoch` column)", tolerance=tol_sig(3),
            record="the `dfhistory` DataFrame `KerasModel.fit` returns (`train_loss`, `val_loss` at `epoch`)",
            train_loss=train, eval_loss=val, eval_name="val_loss" if a.val else None)
