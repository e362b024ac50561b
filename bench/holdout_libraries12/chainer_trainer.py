"""Chainer: a small MLP trained by its ``Trainer`` as its MNIST example writes it: ``L.Classifier`` (softmax cross
entropy and accuracy) or a regression chain reporting ``loss``, a ``StandardUpdater`` over a ``SerialIterator``,
extensions ``LogReport`` (its ``log`` file, JSON, in the trainer's ``out`` folder), ``PrintReport`` (a table on
stdout: a header ``epoch       main/loss   validation/main/loss ...`` then one row per report, values as ``{:<10g}``,
6 significant digits, each row after ``ESC[J``), optionally ``Evaluator``, ``observe_lr``, ``ExponentialShift``
(the learning rate multiplied at each epoch) and ``ProgressBar``. Truth: the LogReport's ``log`` file
(``main/loss``, the mean of the values reported over each interval) at its ``epoch`` (an epoch trigger: the table has
no iteration column, as in the example) or its ``iteration`` (an iteration trigger, with an ``iteration`` column)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from h12_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "momentum", "adam"])
ap.add_argument("--trigger", default="1,epoch", help="LogReport's trigger, e.g. 1,epoch or 10,iteration")
ap.add_argument("--shift", type=float, default=0.0, help="ExponentialShift('lr', rate) every epoch")
ap.add_argument("--progress", action="store_true")
ap.add_argument("--val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import chainer  # noqa: E402
import chainer.functions as F  # noqa: E402
import chainer.links as L  # noqa: E402
from chainer import training  # noqa: E402
from chainer.training import extensions  # noqa: E402

rng = np.random.default_rng(0)
n_val = a.n // 4
X = rng.normal(size=(a.n + n_val, 8)).astype(np.float32)
if a.task == "cls":
    y = (X @ rng.normal(size=(8, 4)) + 0.5 * rng.normal(size=(a.n + n_val, 4))).argmax(1).astype(np.int32)
    out = 4
else:
    y = (np.sin(X @ rng.normal(size=(8, 1))) * 3 + X[:, :1] ** 2).astype(np.float32)
    out = 1


class MLP(chainer.Chain):
    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_out)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


class Regressor(chainer.Chain):
    def __init__(self, predictor):
        super().__init__()
        with self.init_scope():
            self.predictor = predictor

    def forward(self, x, t):
        loss = F.mean_squared_error(self.predictor(x), t)
        chainer.report({"loss": loss}, self)
        return loss


model = L.Classifier(MLP(32, out)) if a.task == "cls" else Regressor(MLP(32, out))
if a.optimizer == "adam":
    opt = chainer.optimizers.Adam(alpha=a.lr)
elif a.optimizer == "momentum":
    opt = chainer.optimizers.MomentumSGD(lr=a.lr)
else:
    opt = chainer.optimizers.SGD(lr=a.lr)
opt.setup(model)
train = chainer.datasets.TupleDataset(X[: a.n], y[: a.n])
val = chainer.datasets.TupleDataset(X[a.n:], y[a.n:])
train_iter = chainer.iterators.SerialIterator(train, a.batch)
updater = training.updaters.StandardUpdater(train_iter, opt)
trainer = training.Trainer(updater, (a.epochs, "epoch"), out="result")
n, unit = a.trigger.split(",")
trigger = (int(n), unit)
if a.val:
    trainer.extend(extensions.Evaluator(chainer.iterators.SerialIterator(val, 64, repeat=False, shuffle=False), model))
trainer.extend(extensions.LogReport(trigger=trigger))
lr_name = "alpha" if a.optimizer == "adam" else "lr"
trainer.extend(extensions.observe_lr() if lr_name == "lr" else extensions.observe_value(
    "alpha", lambda t: t.updater.get_optimizer("main").alpha))
if a.shift:
    trainer.extend(extensions.ExponentialShift(lr_name, a.shift), trigger=(1, "epoch"))
entries = ["epoch"] + (["iteration"] if unit == "iteration" else []) + ["main/loss"]
if a.val:
    entries.append("validation/main/loss")
if a.task == "cls":
    entries.append("main/accuracy")
    if a.val:
        entries.append("validation/main/accuracy")
entries += [lr_name, "elapsed_time"]
trainer.extend(extensions.PrintReport(entries), trigger=trigger)
if a.progress:
    trainer.extend(extensions.ProgressBar(update_interval=10))
trainer.run()

log_file = Path("result/log")
log = json.loads(log_file.read_text())
keep(log_file)
key = "iteration" if unit == "iteration" else "epoch"
write_truth(framework=f"chainer {chainer.__version__}", settings=vars(a), loss_name="main/loss",
            step_unit=(f"{key}, 1-based (the `{key}` column)" + (", across epochs" if key == "iteration" else "")),
            tolerance=tol_sig(6), record=f"the LogReport's `log` file (`main/loss` at its `{key}`)",
            train_loss=[(r[key], r["main/loss"]) for r in log if "main/loss" in r],
            eval_loss=[(r[key], r["validation/main/loss"]) for r in log if "validation/main/loss" in r] if a.val
            else None, eval_name="validation/main/loss" if a.val else None,
            **({"steps_per_epoch": -(-a.n // a.batch)} if key == "iteration" else {}))
