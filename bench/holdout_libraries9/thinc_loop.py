"""thinc: a small model trained in thinc's own training loop as its docs and examples write it (``Intro to Thinc``,
``examples/mnist.py``): ``model.ops.multibatch(..., shuffle=True)`` under ``tqdm(batches, leave=False)`` (its bar on
stderr), ``Yh, backprop = model.begin_update(X)``, the gradient and loss from a thinc loss (``CategoricalCrossentropy``
or ``L2Distance``: ``grad, loss = loss_calc(Yh, Y)``), ``backprop(grad)``, ``model.finish_update(optimizer)``, and
the progress printed as wasabi table rows (``msg.row``, stdout, block-buffered): a header, then a row per epoch (or
every ``--every`` batches) with the epoch, the batch step, the mean loss over the rows' batches and, with ``--dev``,
the dev score. Truth: the loop's own record of the loss thinc's loss object returned (the mean over each printed
row's batches), at the step the row prints (the global batch, 1-based, across epochs)."""

from __future__ import annotations

import argparse

import numpy
from h9_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=800)
ap.add_argument("--lr", type=float, default=0.001)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "radam"])
ap.add_argument("--grow", type=float, default=0.0, help="compounding(lr, 1e6, grow): the rate multiplied each step")
ap.add_argument("--every", type=int, default=0, help="a row every N batches (0: a row per epoch)")
ap.add_argument("--dev", action="store_true", help="score a dev set at each epoch's end")
ap.add_argument("--clip", type=float, default=1.0, help="the optimizer's grad_clip")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import thinc  # noqa: E402
from thinc.api import (  # noqa: E402
    SGD,
    Adam,
    CategoricalCrossentropy,
    L2Distance,
    Linear,
    RAdam,
    Relu,
    Softmax,
    chain,
    compounding,
    fix_random_seed,
)
from tqdm import tqdm  # noqa: E402
from wasabi import msg  # noqa: E402

fix_random_seed(0)
rng = numpy.random.default_rng(0)
n_dev = a.n // 4
X = rng.standard_normal((a.n + n_dev, 10)).astype("f")
if a.task == "cls":
    W = rng.standard_normal((10, 4))
    y = (X @ W + 0.5 * rng.standard_normal((a.n + n_dev, 4))).argmax(1)
    Y = numpy.eye(4, dtype="f")[y]
    model = chain(Relu(nO=32), Relu(nO=32), Softmax(nO=4))
    loss_calc = CategoricalCrossentropy()
else:
    w = rng.standard_normal((10, 1))
    Y = (numpy.sin(X @ w) * 3 + X[:, :1] ** 2 + 0.1 * rng.standard_normal((a.n + n_dev, 1))).astype("f")
    model = chain(Relu(nO=32), Relu(nO=32), Linear(nO=1))
    loss_calc = L2Distance()
train_X, train_Y, dev_X, dev_Y = X[: a.n], Y[: a.n], X[a.n:], Y[a.n:]
model.initialize(X=train_X[:5], Y=train_Y[:5])

rate = compounding(a.lr, 1e6, a.grow) if a.grow else a.lr
opt_cls = {"adam": Adam, "sgd": SGD, "radam": RAdam}[a.optimizer]
optimizer = opt_cls(rate, grad_clip=a.clip)

widths = (5, 6, 12, 8) if a.dev else (5, 6, 12)
header = ("epoch", "step", "loss", "dev") if a.dev else ("epoch", "step", "loss")
msg.row(header, widths=widths)
msg.row(["-" * w for w in widths], widths=widths)
record = []
dev_record = []
step = 0
for i in range(a.epochs):
    batches = model.ops.multibatch(a.batch, train_X, train_Y, shuffle=True)
    losses = []
    for Xb, Yb in tqdm(batches, leave=False):
        Yh, backprop = model.begin_update(Xb)
        grad, loss = loss_calc(Yh, Yb)
        backprop(grad)
        model.finish_update(optimizer)
        optimizer.step_schedules()
        step += 1
        losses.append(float(loss))
        if a.every and step % a.every == 0:
            mean = sum(losses) / len(losses)
            record.append((step, mean))
            msg.row((i, step, f"{mean:.6f}"), widths=widths[:3])
            losses = []
    if a.every:
        continue
    mean = sum(losses) / len(losses)
    record.append((step, mean))
    if a.dev:
        if a.task == "cls":
            correct = total = 0
            for Xd, Yd in model.ops.multibatch(a.batch, dev_X, dev_Y):
                Yh = model.predict(Xd)
                correct += (Yh.argmax(axis=1) == Yd.argmax(axis=1)).sum()
                total += Yh.shape[0]
            score = correct / total
        else:
            score = float(((model.predict(dev_X) - dev_Y) ** 2).mean())
        dev_record.append((step, float(score)))
        msg.row((i, step, f"{mean:.6f}", f"{score:.3f}"), widths=widths)
    else:
        msg.row((i, step, f"{mean:.6f}"), widths=widths)

steps_per_epoch = -(-a.n // a.batch)
dev_name = "dev accuracy" if a.task == "cls" else "dev MSE"
write_truth(framework=f"thinc {thinc.__version__}", settings=vars(a), loss_name="loss",
            step_unit="batch step, 1-based, across epochs (the `step` column)", tolerance=tol_decimals(6),
            record="the loop's record of the loss thinc's loss object returned (mean over a row's "
                   "batches), at the row's step",
            train_loss=[(s, v if numpy.isfinite(v) else ("nan" if numpy.isnan(v) else "inf")) for s, v in record],
            eval_loss=dev_record or None, eval_name=dev_name if dev_record else None,
            steps_per_epoch=steps_per_epoch)
