"""A user's pytorch-tabnet script: ``TabNetClassifier`` / ``TabNetRegressor.fit(..., eval_set=..., verbose=N)``
(its lines ``epoch 3  | loss: 0.61234 | val_0_auc: 0.7712 |  0:00:01s``, every N-th epoch).

Truth: TabNet's own ``History`` (``model.history['loss']``, 0-based epoch as the line prints it) at the epochs
the log prints.
"""

from __future__ import annotations

import argparse

from _truth import common_args, settings_of, write_truth

p = argparse.ArgumentParser()
p.add_argument("--task", default="cls")
p.add_argument("--epochs", type=int, default=20)
p.add_argument("--verbose", type=int, default=1)
p.add_argument("--patience", type=int, default=0)
p.add_argument("--lr", type=float, default=2e-2)
p.add_argument("--eval", action="store_true")
p.add_argument("--opt", default="adam")
common_args(p)
args = p.parse_args()

import numpy as np  # noqa: E402
import torch  # noqa: E402
from pytorch_tabnet.tab_model import TabNetClassifier, TabNetRegressor  # noqa: E402
from sklearn.datasets import make_classification, make_regression  # noqa: E402

torch.set_num_threads(1)
opt = {"optimizer_fn": torch.optim.SGD, "optimizer_params": {"lr": args.lr, "momentum": 0.9}} \
    if args.opt == "sgd" else {"optimizer_params": {"lr": args.lr}}
if args.task == "cls":
    X, y = make_classification(n_samples=1200, n_features=12, n_informative=6, flip_y=0.05, random_state=args.seed)
    model = TabNetClassifier(n_d=8, n_a=8, n_steps=3, seed=args.seed, **opt,
                             device_name="cpu", verbose=args.verbose)
else:
    X, y = make_regression(n_samples=1200, n_features=12, n_informative=6, noise=5.0, random_state=args.seed)
    y = (y / 50).reshape(-1, 1)
    model = TabNetRegressor(n_d=8, n_a=8, n_steps=3, seed=args.seed, **opt,
                            device_name="cpu", verbose=args.verbose)
X = X.astype(np.float32)
Xtr, ytr, Xva, yva = X[:960], y[:960], X[960:], y[960:]
model.fit(Xtr, ytr, eval_set=[(Xva, yva)] if args.eval else None, max_epochs=args.epochs,
          patience=args.patience, batch_size=128, virtual_batch_size=64, drop_last=False)
loss = model.history["loss"]
epochs = [e for e in range(len(loss)) if e % args.verbose == 0]
write_truth(framework="pytorch-tabnet", settings=settings_of(args), label=args.label, should_stop=args.should_stop,
            loss_name="loss", step_unit="epoch (0-based, as 'epoch N' prints it)",
            tolerance={"rel": 1e-3, "abs": 5e-6}, record="pytorch-tabnet model.history['loss']",
            train_loss=[(e, loss[e]) for e in epochs])
