"""torchkeras (a Keras-style trainer for torch): ``KerasModel(net, loss_fn, metrics_dict, optimizer,
lr_scheduler).fit(train_data, val_data, epochs, monitor, patience, plot=False)`` on a small torch MLP and synthetic
data, as its README's quick start does (``plot=False``: its text output, not the notebook's plots). It prints on
stdout ``<<<<<< 🐌 cpu is used >>>>>>``, then each epoch a line of ``=`` with the time, ``Epoch 3 / 10`` and a tqdm
bar (``ncols=100``, ``\\r`` redraws, no TTY) whose postfix is the batch's loss during the epoch and the epoch's mean
at its end (``train_loss=0.532``: tqdm's 3 significant digits), a ``val`` bar the same way, and
``<<<<<< reach best val_loss : 0.41 >>>>>>`` when the monitored value improves. Truth: the ``dfhistory`` DataFrame
``fit`` returns (its ``train_loss`` column: the epoch's mean batch loss, at its ``epoch``, 1-based)."""

from __future__ import annotations

import argparse

import torch
from h35_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--optimizer", default="Adam", choices=["Adam", "SGD", "RMSprop"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma, stepped every batch by torchkeras")
ap.add_argument("--val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

from torchkeras import KerasModel  # noqa: E402

g = torch.Generator().manual_seed(0)
n_val = a.n // 4
X = torch.randn(a.n + n_val, 10, generator=g)
if a.task == "cls":
    W = torch.randn(10, 3, generator=g)
    y = (X @ W + 0.7 * torch.randn(a.n + n_val, 3, generator=g)).argmax(1)
    out, loss_fn = 3, torch.nn.CrossEntropyLoss()
else:
    w = torch.randn(10, 1, generator=g)
    y = torch.tanh(X @ w) * 2 + 0.3 * X[:, 1:2] ** 2 + 0.1 * torch.randn(a.n + n_val, 1, generator=g)
    out, loss_fn = 1, torch.nn.MSELoss()
net = torch.nn.Sequential(torch.nn.Linear(10, 32), torch.nn.ReLU(), torch.nn.Linear(32, out))
train_dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[: a.n], y[: a.n]), batch_size=a.batch,
                                       shuffle=True, generator=torch.Generator().manual_seed(1))
val_dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[a.n:], y[a.n:]), batch_size=64)
kw = {"momentum": 0.9} if a.optimizer == "SGD" else {}
opt = getattr(torch.optim, a.optimizer)(net.parameters(), lr=a.lr, **kw)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.gamma) if a.gamma else None
model = KerasModel(net, loss_fn=loss_fn, optimizer=opt, lr_scheduler=sched)
monitor = "val_loss" if a.val else "train_loss"
dfhistory = model.fit(train_data=train_dl, val_data=val_dl if a.val else None, epochs=a.epochs,
                      ckpt_path="checkpoint", patience=a.epochs + 1, monitor=monitor, mode="min", plot=False)

write_truth(framework=f"torchkeras {version('torchkeras')}", settings=vars(a), loss_name="train_loss",
            step_unit="epoch, 1-based (`Epoch N / M`)", tolerance=tol_sig(3),
            record="the `dfhistory` DataFrame `KerasModel.fit` returns (`train_loss`: the epoch's mean batch loss)",
            train_loss=[(int(e), float(v)) for e, v in zip(dfhistory["epoch"], dfhistory["train_loss"], strict=True)],
            eval_loss=([(int(e), float(v)) for e, v in zip(dfhistory["epoch"], dfhistory["val_loss"], strict=True)]
                       if a.val else None),
            eval_name="val_loss" if a.val else None)
