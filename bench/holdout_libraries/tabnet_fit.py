"""pytorch-tabnet: TabNetClassifier / TabNetRegressor ``fit`` with its default History printing.

The truth is ``model.history['loss']`` (the epoch's mean train loss, epoch 0-based) at the epochs the History
callback prints (``epoch % verbose == 0``); it prints ``np.round(v, 5)``.
"""

from __future__ import annotations

import argparse

import numpy as np
from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg", "multi"])
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--verbose", type=int, default=1)
ap.add_argument("--lr", type=float, default=2e-2)
ap.add_argument("--batch", type=int, default=128)
ap.add_argument("--patience", type=int, default=50)
ap.add_argument("--no-eval", action="store_true")
ap.add_argument("--sched-gamma", type=float, default=0.0, help="StepLR gamma per epoch (>1 ramps the lr up)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from pytorch_tabnet.tab_model import TabNetClassifier, TabNetRegressor  # noqa: E402

rng = np.random.default_rng(0)
n, d = 1200, 12
X = rng.normal(size=(n, d)).astype(np.float32)
w = rng.normal(size=d)
z = X @ w + 0.5 * np.sin(3 * X[:, 0])
y: np.ndarray
if a.task == "reg":
    y = (z + 0.3 * rng.normal(size=n)).reshape(-1, 1).astype(np.float32)
elif a.task == "multi":
    y = np.digitize(z, np.quantile(z, [0.33, 0.66]))
else:
    y = (z + 0.5 * rng.normal(size=n) > 0).astype(int)
Xtr, Xva, ytr, yva = X[:960], X[960:], y[:960], y[960:]

kw = dict(n_d=8, n_a=8, n_steps=3, seed=0, verbose=a.verbose, device_name="cpu",
          optimizer_fn=torch.optim.Adam, optimizer_params=dict(lr=a.lr))
if a.sched_gamma:
    kw.update(scheduler_fn=torch.optim.lr_scheduler.StepLR, scheduler_params=dict(step_size=1, gamma=a.sched_gamma))
model = TabNetRegressor(**kw) if a.task == "reg" else TabNetClassifier(**kw)
fit = dict(max_epochs=a.epochs, patience=a.patience, batch_size=a.batch, virtual_batch_size=64, drop_last=False)
if not a.no_eval:
    fit.update(eval_set=[(Xtr, ytr), (Xva, yva)], eval_name=["train", "valid"],
               eval_metric=["mse"] if a.task == "reg" else (["accuracy"] if a.task == "multi" else ["auc", "logloss"]))
model.fit(Xtr, ytr, **fit)

hist = model.history["loss"]
printed = [(e, v) for e, v in enumerate(hist) if a.verbose and e % a.verbose == 0]
evals = None
if not a.no_eval:
    key = "valid_mse" if a.task == "reg" else ("valid_accuracy" if a.task == "multi" else "valid_logloss")
    evals = [(e, v) for e, v in enumerate(model.history[key]) if a.verbose and e % a.verbose == 0]
write_truth(framework="pytorch-tabnet", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="loss", step_unit="epoch, 0-based (History prints 'epoch N')",
            tolerance={"rel": 1e-9, "abs": 5.1e-6}, record="model.history['loss'] at the printed epochs",
            train_loss=printed, eval_loss=evals, eval_name=None if a.no_eval else key)
