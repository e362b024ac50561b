"""Objax: a small classifier or regressor trained in the loop its image-classification examples write
(``examples/classify/img/cifar10_simple.py``): an ``objax.nn.Sequential`` MLP, ``objax.GradValues`` of the loss,
an ``objax.optimizer`` (``Adam``, ``Momentum``, ``SGD``) called with the epoch's learning rate, the step wrapped in
``objax.Jit``; one ``print`` an epoch, ``Epoch    3  Loss 0.4321  Accuracy 81.25`` (the example's line, the loss with
4 decimals), and objax's own TensorBoard writer ``objax.jaxboard.SummaryWriter`` (``tb/events.out.tfevents...``) fed
a ``jaxboard.Summary`` per epoch (``train/loss``: the mean of the epoch's batch losses, the value printed). Data are
synthetic (no download). The should-stop runs: a learning rate multiplied every epoch (``lr * gamma ** epoch``) or
far too high. Truth: the jaxboard events (``train/loss`` at its step, the epoch, 1-based), read back with
TensorBoard's ``EventAccumulator``."""

from __future__ import annotations

import argparse
import glob

from h15_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--hidden", type=int, default=32)
ap.add_argument("--optimizer", default="adam", choices=["adam", "momentum", "sgd"])
ap.add_argument("--lr", type=float, default=0.003)
ap.add_argument("--gamma", type=float, default=1.0, help="the learning rate is lr * gamma ** epoch")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import objax  # noqa: E402
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n + a.n // 4, 8)).astype("float32")
if a.task == "cls":
    W = rng.normal(size=(8, 4))
    Y = (X @ W + 0.5 * rng.normal(size=(len(X), 4))).argmax(1)
    n_out = 4
else:
    w = rng.normal(size=(8, 1))
    Y = (np.sin(X @ w) * 3 + X[:, :1] ** 2 + 0.1 * rng.normal(size=(len(X), 1))).astype("float32")
    n_out = 1
X_train, Y_train, X_test, Y_test = X[: a.n], Y[: a.n], X[a.n:], Y[a.n:]

model = objax.nn.Sequential([objax.nn.Linear(8, a.hidden), objax.functional.relu,
                             objax.nn.Linear(a.hidden, a.hidden), objax.functional.relu,
                             objax.nn.Linear(a.hidden, n_out)])
if a.optimizer == "adam":
    opt = objax.optimizer.Adam(model.vars())
elif a.optimizer == "momentum":
    opt = objax.optimizer.Momentum(model.vars(), momentum=0.9)
else:
    opt = objax.optimizer.SGD(model.vars())
predict = objax.Jit(model)


def loss(x, label):
    if a.task == "cls":
        return objax.functional.loss.cross_entropy_logits_sparse(model(x), label).mean()
    return ((model(x) - label) ** 2).mean()


gv = objax.GradValues(loss, model.vars())


def train_op(x, label, lr):
    g, v = gv(x, label)  # returns gradients, loss
    opt(lr, g)
    return v


train_op = objax.Jit(train_op, gv.vars() + opt.vars())

with objax.jaxboard.SummaryWriter("tb") as tensorboard:
    for epoch in range(a.epochs):
        summary = objax.jaxboard.Summary()
        sel = rng.permutation(len(X_train))
        lr = a.lr * a.gamma ** epoch
        for it in range(0, X_train.shape[0], a.batch):
            v = train_op(X_train[sel[it:it + a.batch]], Y_train[sel[it:it + a.batch]], lr)
            summary.scalar("train/loss", float(v[0]))
        pred = predict(X_test)
        if a.task == "cls":
            metric = 100 * np.mean(np.asarray(pred).argmax(1) == Y_test)
            print(f"Epoch {epoch + 1:4d}  Loss {summary['train/loss']():.4f}  Accuracy {metric:.2f}")
        else:
            metric = float(np.mean((np.asarray(pred) - Y_test) ** 2))
            print(f"Epoch {epoch + 1:4d}  Loss {summary['train/loss']():.4f}  Test MSE {metric:.4f}")
        summary.scalar("eval/accuracy" if a.task == "cls" else "eval/mse", metric)
        tensorboard.write(summary, step=epoch + 1)

# 4 decimals printed from the float64 mean; the event holds it as a float32 (2**-24 relative)
tolerance = dict(tol_decimals(4), rel=1.2e-7)
acc = EventAccumulator(glob.glob("tb/events.out.tfevents*")[0])
acc.Reload()
write_truth(framework=f"objax {objax.__version__}", settings=vars(a), loss_name="Loss (train/loss)",
            step_unit="epoch, 1-based (`Epoch N`; the jaxboard step)", tolerance=tolerance,
            record="objax.jaxboard's TensorBoard events (`train/loss` at its step)",
            train_loss=[(e.step, e.value) for e in acc.Scalars("train/loss")],
            steps_per_epoch=-(-a.n // a.batch), jax=__import__("jax").__version__)
