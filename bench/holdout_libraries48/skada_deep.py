"""skada (domain adaptation): one of its deep methods (``SourceOnly``, ``DeepCoral``, ``DAN``, ``DeepJDOT``) on
its ``ToyModule2D`` and its own synthetic ``make_shifted_datasets`` (a covariate shift between a source and a target
domain), fitted with ``sample_domain`` as its examples do. Its nets are skorch nets (``DomainAwareNet``): the epoch
table on stdout, ``  epoch    train_loss     dur`` then rows ``      1        0.7260  0.0123`` (``{:.4f}``, the new
best in cyan escapes ``\x1b[36m0.6508\x1b[0m``), optionally an ``LRScheduler`` around ``ExponentialLR``. Truth: the
net's ``history`` (``train_loss`` at each epoch, 1-based). No validation: skorch's ``ValidSplit`` breaks skada's
domain-aware criterion (its outputs unpacked as 5 values fail), so its runs train without one."""

from __future__ import annotations

import argparse

from h48_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--method", default="DeepCoral", choices=["SourceOnly", "DeepCoral", "DAN", "DeepJDOT"])
ap.add_argument("--optimizer", default="SGD", choices=["SGD", "Adam"])
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--gamma", type=float, default=None)
ap.add_argument("--reg", type=float, default=1.0)
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=100)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import skada  # noqa: E402
import torch  # noqa: E402
from skada.datasets import make_shifted_datasets  # noqa: E402
from skada.deep import DAN, DeepCoral, DeepJDOT, SourceOnly  # noqa: E402
from skada.deep.modules import ToyModule2D  # noqa: E402
from skorch.callbacks import LRScheduler  # noqa: E402

torch.set_num_threads(1)
torch.manual_seed(0)

X, y, sample_domain = make_shifted_datasets(n_samples_source=a.n, n_samples_target=a.n, shift="covariate_shift",
                                            noise=0.1, random_state=0)
X = X.astype(np.float32)
method = {"SourceOnly": SourceOnly, "DeepCoral": DeepCoral, "DAN": DAN, "DeepJDOT": DeepJDOT}[a.method]
kw = {} if a.method == "SourceOnly" else {"reg_dist": a.reg} if a.method == "DeepJDOT" else {"reg": a.reg}
callbacks = [LRScheduler(policy="ExponentialLR", gamma=a.gamma)] if a.gamma else []
net = method(ToyModule2D(num_features=16), layer_name="dropout", batch_size=a.batch, max_epochs=a.epochs,
             optimizer=getattr(torch.optim, a.optimizer), lr=a.lr,
             train_split=None, callbacks=callbacks, **kw)
net.fit(X, y, sample_domain=sample_domain)

hist = net.history
train = [(h["epoch"], h["train_loss"]) for h in hist]
write_truth(framework=f"skada {skada.__version__}", settings=vars(a), loss_name="train_loss",
            step_unit="epoch, 1-based (skorch's `epoch` column)", tolerance=tol_decimals(4),
            record="the net's skorch history (`net.history[:, 'train_loss']`)", train_loss=train)
