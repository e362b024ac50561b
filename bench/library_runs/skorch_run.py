"""A user's skorch script: ``NeuralNetClassifier`` / ``NeuralNetRegressor`` with its default ``PrintLog``
(a table: header ``  epoch    train_loss    valid_acc    valid_loss     dur``, a ``-------`` rule, one row per
epoch, the best values in ANSI colour).

Truth: skorch's own ``net.history`` (``train_loss`` and ``valid_loss`` per epoch, 1-based as the table prints).
"""

from __future__ import annotations

import argparse

from _truth import common_args, settings_of, write_truth

p = argparse.ArgumentParser()
p.add_argument("--task", default="cls")
p.add_argument("--epochs", type=int, default=15)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--opt", default="sgd")
p.add_argument("--valid", type=float, default=0.2, help="train_split fraction (0: no validation)")
p.add_argument("--verbose", type=int, default=1)
p.add_argument("--lr-growth", type=float, default=0.0, help="multiply the lr by this after every epoch")
common_args(p)
args = p.parse_args()

import numpy as np  # noqa: E402
import torch  # noqa: E402
from sklearn.datasets import make_classification, make_regression  # noqa: E402
from skorch import NeuralNetClassifier, NeuralNetRegressor  # noqa: E402
from skorch.callbacks import LRScheduler  # noqa: E402
from skorch.dataset import ValidSplit  # noqa: E402

torch.set_num_threads(1)
torch.manual_seed(args.seed)
opt = torch.optim.Adam if args.opt == "adam" else torch.optim.SGD
cbs = [LRScheduler(policy=torch.optim.lr_scheduler.ExponentialLR, gamma=args.lr_growth)] if args.lr_growth else []
split = ValidSplit(args.valid, random_state=args.seed) if args.valid else None
if args.task == "cls":
    X, y = make_classification(n_samples=1000, n_features=20, n_informative=8, flip_y=0.05, random_state=args.seed)
    X, y = X.astype(np.float32), y.astype(np.int64)
    module = torch.nn.Sequential(torch.nn.Linear(20, 32), torch.nn.ReLU(), torch.nn.Linear(32, 2))
    net = NeuralNetClassifier(module, max_epochs=args.epochs, lr=args.lr, optimizer=opt,
                              criterion=torch.nn.CrossEntropyLoss, train_split=split, verbose=args.verbose,
                              callbacks=cbs)
else:
    X, y = make_regression(n_samples=1000, n_features=20, n_informative=8, noise=5.0, random_state=args.seed)
    X, y = X.astype(np.float32), (y / 50).astype(np.float32).reshape(-1, 1)
    module = torch.nn.Sequential(torch.nn.Linear(20, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
    net = NeuralNetRegressor(module, max_epochs=args.epochs, lr=args.lr, optimizer=opt, train_split=split,
                             verbose=args.verbose, callbacks=cbs)
net.fit(X, y)
h = net.history
write_truth(framework="skorch", settings=settings_of(args), label=args.label, should_stop=args.should_stop,
            loss_name="train_loss", step_unit="epoch (1-based, the table's epoch column)",
            tolerance={"rel": 1e-3, "abs": 5e-5}, record="skorch net.history",
            train_loss=[(e["epoch"], e["train_loss"]) for e in h],
            valid_loss=[(e["epoch"], e["valid_loss"]) for e in h] if args.valid else None)
