"""DeepChem: a ``MultitaskRegressor`` / ``MultitaskClassifier`` (PyTorch) ``fit`` with logging at INFO as its
users turn it on (``logging.basicConfig(level=logging.INFO)``): ``Ending global_step 100: Average loss 0.53``
every ``log_frequency`` steps, optionally a ``ValidationCallback`` printing ``Step 100 validation: ...``.
Truth: the ``all_losses`` list ``fit`` appends every logged average to, at the steps it logs them."""

from __future__ import annotations

import argparse
import logging

import numpy as np
from h4_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--lr", type=float, default=0.001)
ap.add_argument("--batch", type=int, default=50)
ap.add_argument("--log-frequency", type=int, default=100)
ap.add_argument("--validate", type=int, default=0, help="ValidationCallback interval (0: none)")
ap.add_argument("--log-format", default="basic", choices=["basic", "time"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd"])
ap.add_argument("--lr-growth", type=float, default=0.0,
                help="ExponentialDecay decay_rate (> 1 multiplies the rate) every 20 steps")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
if a.log_format == "basic":
    logging.basicConfig(level=logging.INFO)
else:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
seed_all(0)

import deepchem as dc  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)
rng = np.random.default_rng(0)
n, d = 1000, 32
X = rng.normal(size=(n, d)).astype(np.float32)
w = rng.normal(size=(d, 2))
if a.task == "reg":
    y = (X @ w + 0.3 * rng.normal(size=(n, 2)) + X[:, :2] ** 2).astype(np.float32)
    model_cls = dc.models.MultitaskRegressor
    metric = dc.metrics.Metric(dc.metrics.rms_score)
else:
    y = ((X @ w + 0.5 * rng.normal(size=(n, 2))) > 0).astype(np.float32)
    model_cls = dc.models.MultitaskClassifier
    metric = dc.metrics.Metric(dc.metrics.roc_auc_score)
train = dc.data.NumpyDataset(X[:800], y[:800])
valid = dc.data.NumpyDataset(X[800:], y[800:])
lr = dc.models.optimizers.ExponentialDecay(a.lr, a.lr_growth, 20, staircase=True) if a.lr_growth else a.lr
opt = dc.models.optimizers.Adam(learning_rate=lr) if a.optimizer == "adam" else \
    dc.models.optimizers.GradientDescent(learning_rate=lr)
model = model_cls(2, d, layer_sizes=[64], dropouts=0.0, batch_size=a.batch, log_frequency=a.log_frequency,
                  optimizer=opt)
callbacks = [dc.models.ValidationCallback(valid, a.validate, [metric])] if a.validate else []
losses: list[float] = []
model.fit(train, nb_epoch=a.epochs, checkpoint_interval=0, all_losses=losses, callbacks=callbacks)

total = model._global_step
f = a.log_frequency
steps = [f * (i + 1) for i in range(total // f)]
if len(losses) == len(steps) + 1:
    steps.append(total)
assert len(steps) == len(losses), (len(steps), len(losses), total)
write_truth(framework=f"deepchem {dc.__version__}", settings=vars(a), loss_name="Average loss",
            step_unit="global step, 1-based (`Ending global_step N`)", tolerance=tol_sig(6),
            record="the all_losses list TorchModel.fit appends each logged average to",
            train_loss=list(zip(steps, losses, strict=True)))
