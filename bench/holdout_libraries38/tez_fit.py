"""tez: a small MLP (an ``nn.Module`` whose ``forward(**batch)`` returns ``(output, loss, metrics)`` and whose
``optimizer_scheduler()`` gives its optimizer and scheduler, as tez's README shows) trained by ``tez.Tez(model).fit``
on a synthetic table, with or without a validation set. tez's ``Progress`` callback draws a tqdm bar on stderr with
the running metrics as its postfix, and writes one line an epoch: ``[train] mae=0.8123, loss=1.0345 [e=0 steps=16]``
(``[valid] ...`` too with a validation set; ``{:.4f}``). Truth: that callback's own record, ``Progress.history``
(the epoch's mean train loss at ``steps``, the global train step, 1-based, across epochs)."""

from __future__ import annotations

import argparse

import numpy as np
from h38_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "momentum", "rmsprop"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma (0: no scheduler)")
ap.add_argument("--sched-after", default="epoch", choices=["epoch", "batch"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import tez  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

rng = np.random.default_rng(0)
n_all = a.n + (a.n // 4 if a.val else 0)
X = rng.normal(size=(n_all, 8)).astype(np.float32)
w = rng.normal(size=(8,)).astype(np.float32)
if a.task == "reg":
    Y = (X @ w + 0.5 * np.sin(3 * X[:, 0]) + rng.normal(scale=0.3, size=n_all)).astype(np.float32) * 3 + 2
else:
    Y = ((X @ w + rng.normal(scale=0.5, size=n_all)) > 0).astype(np.int64) + (X[:, 1] > 1).astype(np.int64)


class Table(torch.utils.data.Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"x": torch.tensor(self.x[i]), "y": torch.tensor(self.y[i])}


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        out = 1 if a.task == "reg" else 3
        self.net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, out))

    def optimizer_scheduler(self):
        if a.optimizer == "adam":
            opt = torch.optim.Adam(self.parameters(), lr=a.lr)
        elif a.optimizer == "sgd":
            opt = torch.optim.SGD(self.parameters(), lr=a.lr)
        elif a.optimizer == "momentum":
            opt = torch.optim.SGD(self.parameters(), lr=a.lr, momentum=0.9)
        else:
            opt = torch.optim.RMSprop(self.parameters(), lr=a.lr)
        sch = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.gamma) if a.gamma else None
        return opt, sch

    def forward(self, x, y=None):
        out = self.net(x)
        if a.task == "reg":
            out = out.squeeze(-1)
            loss = nn.functional.mse_loss(out, y)
            return out, loss, {"mae": (out - y).abs().mean()}
        loss = nn.functional.cross_entropy(out, y)
        return out, loss, {"accuracy": (out.argmax(-1) == y).float().mean()}


train = Table(X[:a.n], Y[:a.n])
valid = Table(X[a.n:], Y[a.n:]) if a.val else None
model = tez.Tez(Net())
config = tez.TezConfig(device="cpu", training_batch_size=a.batch, validation_batch_size=64, epochs=a.epochs,
                       num_jobs=0, step_scheduler_after=a.sched_after)
model.fit(train, valid_dataset=valid, config=config)

hist = model._progress.history
steps_per_epoch = len(model.train_loader)
write_truth(framework=f"tez {tez.__version__}", settings=vars(a), loss_name="loss",
            step_unit="global train step, 1-based, across epochs (`steps=` of `[e=E steps=S]`)",
            tolerance=tol_decimals(4),
            record="tez's Progress callback's own record, `Progress.history` (`train.loss`: the epoch's mean)",
            train_loss=[(h["steps"], h["train"]["loss"]) for h in hist],
            eval_loss=[(h["steps"], h["valid"]["loss"]) for h in hist if "valid" in h] if a.val else None,
            eval_name="valid loss" if a.val else None, steps_per_epoch=steps_per_epoch)
