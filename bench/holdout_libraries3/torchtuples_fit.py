"""torchtuples (the training layer under pycox): ``Model.fit(x, y, batch_size, epochs, callbacks, verbose,
val_data)`` prints one line per epoch with a counter first:
``3:\\t[0s / 0s],\\t\\ttrain_loss: 0.1546,\\tval_loss: 0.0674``. Truth: the ``TrainingLogger`` ``fit`` returns
(``log.to_pandas()['train_loss']``) at the epochs whose train loss the line prints: torchtuples leaves a NaN score
out of its line (``10:\t[0s / 0s],\t`` and nothing more), so a NaN epoch is kept apart, in
``nan_epochs_not_printed``."""

from __future__ import annotations

import argparse

import numpy as np
import torch
from h3_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--batch", type=int, default=64)
ap.add_argument("--opt", default="adam")
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--ramp", type=float, default=0.0, help="a callback multiplying the rate every epoch")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--early-stopping", action="store_true")
ap.add_argument("--cycle", action="store_true", help="tt.optim AdamWR (cyclic rate) instead of a fixed one")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torchtuples as tt  # noqa: E402

rng = np.random.RandomState(0)
n, d = 1200, 12
x = rng.randn(n, d).astype("float32")
w = rng.randn(d, 1).astype("float32")
if a.task == "reg":
    y = (x @ w + 0.3 * rng.randn(n, 1) + x[:, :1] ** 2).astype("float32")
    net = tt.practical.MLPVanilla(d, [32, 32], 1, batch_norm=False, dropout=0.1)
    loss = torch.nn.MSELoss()
else:
    z = (x @ w).ravel() + 0.5 * rng.randn(n)
    y = ((z > 0).astype("int64") + (z > 1.5).astype("int64"))
    net = tt.practical.MLPVanilla(d, [32], 3, batch_norm=False)
    loss = torch.nn.CrossEntropyLoss()
if a.cycle:
    opt = tt.optim.AdamWR(lr=a.lr, cycle_eta_multiplier=0.8, cycle_multiplier=2)
elif a.opt == "adam":
    opt = tt.optim.Adam(lr=a.lr)
else:
    opt = tt.optim.SGD(lr=a.lr)
model = tt.Model(net, loss, opt)


class Ramp(tt.callbacks.Callback):
    """The user's own callback: the rate times ``a.ramp`` after every epoch."""

    def on_epoch_end(self):
        for g in self.model.optimizer.param_groups:
            g["lr"] *= a.ramp


cbs = [tt.callbacks.EarlyStopping(patience=5)] if a.early_stopping else []
if a.ramp:
    cbs.append(Ramp())
val = None if a.no_val else (x[1000:], y[1000:])
log = model.fit(x[:1000], y[:1000], batch_size=a.batch, epochs=a.epochs, callbacks=cbs or None, verbose=True,
                val_data=val)

df = log.to_pandas()
allpts = list(zip(df.index.tolist(), df["train_loss"].tolist(), strict=True))
train = [(e, v) for e, v in allpts if not np.isnan(v)]
unprinted = [e for e, v in allpts if np.isnan(v)]
ev = list(zip(df.index.tolist(), df["val_loss"].tolist(), strict=True)) if "val_loss" in df else None
write_truth(framework="torchtuples", settings=vars(a), loss_name="train_loss",
            step_unit="epoch, 0-based (the counter first on the line)",
            tolerance=tol_decimals(4),
            record="the TrainingLogger fit returns: log.to_pandas()['train_loss'], at the epochs it prints (not NaN)",
            train_loss=train, eval_loss=ev, eval_name="val_loss" if ev else None,
            nan_epochs_not_printed=unprinted)
