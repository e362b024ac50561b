"""MXNet: a small symbolic MLP trained by the Module API's ``Module.fit`` on synthetic data, as MXNet's tutorials do:
``logging.basicConfig(level=logging.INFO)`` first, an ``NDArrayIter``, ``eval_metric`` ``"ce"`` (``SoftmaxOutput``,
a classifier) or ``"mse"`` (``LinearRegressionOutput``, a regressor), optionally
``batch_end_callback=mx.callback.Speedometer(batch_size, frequent)`` and ``eval_data``. Its logger (stderr, the root
logger's ``INFO:root:`` prefix) prints ``Epoch[0] Batch [0-10]\tSpeed: 73270.95 samples/sec\tcross-entropy=0.693147``
(the metric over the last ``frequent`` batches), then at each epoch end ``Epoch[0] Train-cross-entropy=0.512345``,
``Epoch[0] Time cost=0.035`` and, with eval data, ``Epoch[0] Validation-cross-entropy=0.43``. Truth: the metric object
the library logs from (``BatchEndParam.eval_metric``, read by a ``batch_end_callback`` after the epoch's last batch:
``get_global_name_value()``, the epoch's ``Train-`` value; the ``eval_end_callback``'s for ``Validation-``), at the
epoch, 0-based (``Epoch[N]``)."""

from __future__ import annotations

import argparse
import logging

from h43_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="sgd")
ap.add_argument("--lr", type=float, default=0.1)
ap.add_argument("--momentum", type=float, default=0.0)
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--hidden", type=int, default=32)
ap.add_argument("--frequent", type=int, default=0, help="Speedometer's interval in batches (0: no Speedometer)")
ap.add_argument("--val", action="store_true")
ap.add_argument("--final-lr", type=float, default=None, help="a PolyScheduler (pwr 1) from --lr to this rate")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

logging.basicConfig(level=logging.INFO)

import mxnet as mx  # noqa: E402
import numpy as np  # noqa: E402

mx.random.seed(0)
rng = np.random.RandomState(0)


def make(n):
    x = rng.randn(n, 10).astype("float32")
    if a.task == "cls":
        score = x[:, 0] + x[:, 1] * x[:, 2] - 0.5 * x[:, 3]
        y = np.digitize(score, [-0.7, 0.7]).astype("float32")
    else:
        y = (np.sin(x[:, 0]) + x[:, 1] * x[:, 2] + 0.5 * x[:, 3] + 0.1 * rng.randn(n)).astype("float32")
    return x, y


x, y = make(a.n)
train_iter = mx.io.NDArrayIter(x, y, batch_size=a.batch, shuffle=True, label_name="label")
val_iter = None
if a.val:
    xv, yv = make(a.n // 4)
    val_iter = mx.io.NDArrayIter(xv, yv, batch_size=a.batch, label_name="label")

data = mx.sym.Variable("data")
label = mx.sym.Variable("label")
net = mx.sym.FullyConnected(data, num_hidden=a.hidden, name="fc1")
net = mx.sym.Activation(net, act_type="relu", name="relu1")
if a.task == "cls":
    net = mx.sym.FullyConnected(net, num_hidden=3, name="fc2")
    net = mx.sym.SoftmaxOutput(net, label=label, name="softmax")
    metric = "ce"
else:
    net = mx.sym.FullyConnected(net, num_hidden=1, name="fc2")
    net = mx.sym.LinearRegressionOutput(mx.sym.reshape(net, shape=(-1,)), label=label, name="lro")
    metric = "mse"

steps_per_epoch = -(-a.n // a.batch)
train_rec: dict[int, dict[str, float]] = {}
val_rec: dict[int, dict[str, float]] = {}


def record_train(param):
    if param.nbatch == steps_per_epoch - 1:
        train_rec[param.epoch] = dict(param.eval_metric.get_global_name_value())


def record_val(param):
    val_rec[param.epoch] = dict(param.eval_metric.get_name_value())


callbacks = [record_train]
if a.frequent:
    callbacks.append(mx.callback.Speedometer(a.batch, a.frequent))
opt_params = {"learning_rate": a.lr}
if a.momentum:
    opt_params["momentum"] = a.momentum
if a.final_lr is not None:
    opt_params["lr_scheduler"] = mx.lr_scheduler.PolyScheduler(max_update=steps_per_epoch * a.epochs, base_lr=a.lr,
                                                               pwr=1, final_lr=a.final_lr)
mod = mx.mod.Module(net, data_names=["data"], label_names=["label"], context=mx.cpu())
mod.fit(train_iter, eval_data=val_iter, eval_metric=metric, optimizer=a.optimizer, optimizer_params=opt_params,
        initializer=mx.init.Xavier(), num_epoch=a.epochs, batch_end_callback=callbacks,
        eval_end_callback=record_val if a.val else None)

name = "cross-entropy" if a.task == "cls" else "mse"
write_truth(framework=f"mxnet {mx.__version__}", settings=vars(a), loss_name=f"Train-{name}",
            step_unit="epoch, 0-based (`Epoch[N] Train-...`)", tolerance=tol_decimals(6),
            record="the Module's eval metric (`BatchEndParam.eval_metric.get_global_name_value()` after the epoch's "
                   "last batch; the `eval_end_callback`'s metric for `Validation-`)",
            train_loss=[(e, r[name]) for e, r in sorted(train_rec.items())],
            eval_loss=[(e, r[name]) for e, r in sorted(val_rec.items())] if a.val else None,
            eval_name=f"Validation-{name}" if a.val else None)
