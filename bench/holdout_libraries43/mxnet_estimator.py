"""MXNet Gluon: a small ``gluon.nn.HybridSequential`` MLP trained by ``gluon.contrib.estimator.Estimator.fit`` on
synthetic data, as the Gluon estimator tutorial does: ``train_metrics`` an accuracy (classifier) or none (regressor)
plus ``mx.metric.Loss()``, and ``LoggingHandler(log_interval=N or "epoch", metrics=est.train_metrics +
est.val_metrics)``. Its messages go to stdout (the estimator's own logger, a ``StreamHandler`` to ``sys.stdout``, no
prefix): ``Training begin: using optimizer SGD with current learning rate 0.1000``, ``[Epoch 0] Begin, current
learning rate: 0.1000``, ``[Epoch 0][Batch 5][Samples 192] time/interval: 0.006s training accuracy: 0.5990, training
loss: 0.6732, validation accuracy: nan, validation loss: nan`` (the running means over the epoch so far; the
validation metrics are the last validation's, ``nan`` before the first), ``[Epoch 0] Finished in 0.086s, training
accuracy: 0.7188, training loss: 0.5514, ...`` (``%.4f``) and, with validation data, ``Validation Begin`` and the
validation's own ``[Epoch 0] Finished in ...`` line (its epoch number is always 0). Truth: the estimator's own
``train_metrics`` loss metric (``mx.metric.Loss``, read by an event handler of the user's after the estimator's
metric handler updated it, before the logging handler prints), at the batches the log prints, global batch, 0-based
(``[Epoch E][Batch B]``: E x steps_per_epoch + B), or at the epoch (0-based) with ``log_interval="epoch"``."""

from __future__ import annotations

import argparse

from h43_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="sgd")
ap.add_argument("--lr", type=float, default=0.1)
ap.add_argument("--momentum", type=float, default=0.0)
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--hidden", type=int, default=32)
ap.add_argument("--log-interval", default="5", help="batches between lines, or 'epoch'")
ap.add_argument("--val", action="store_true")
ap.add_argument("--growth", type=float, default=None, help="multiply the rate by this at every epoch's end")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import mxnet as mx  # noqa: E402
import numpy as np  # noqa: E402
from mxnet import gluon  # noqa: E402
from mxnet.gluon.contrib.estimator import BatchEnd, EpochEnd, Estimator, LoggingHandler  # noqa: E402

mx.random.seed(0)
rng = np.random.RandomState(0)


def make(n):
    x = rng.randn(n, 10).astype("float32")
    if a.task == "cls":
        score = x[:, 0] + x[:, 1] * x[:, 2] - 0.5 * x[:, 3]
        y = np.digitize(score, [-0.7, 0.7]).astype("float32")
    else:
        y = (np.sin(x[:, 0]) + x[:, 1] * x[:, 2] + 0.5 * x[:, 3] + 0.1 * rng.randn(n)).astype("float32")
    return mx.nd.array(x), mx.nd.array(y)


train_data = gluon.data.DataLoader(gluon.data.ArrayDataset(*make(a.n)), batch_size=a.batch, shuffle=True)
val_data = None
if a.val:
    val_data = gluon.data.DataLoader(gluon.data.ArrayDataset(*make(a.n // 4)), batch_size=a.batch)

net = gluon.nn.HybridSequential()
net.add(gluon.nn.Dense(a.hidden, activation="relu"), gluon.nn.Dense(3 if a.task == "cls" else 1))
net.initialize(mx.init.Xavier())
net.hybridize()
loss = gluon.loss.SoftmaxCrossEntropyLoss() if a.task == "cls" else gluon.loss.L2Loss()
opt_params = {"learning_rate": a.lr}
if a.momentum:
    opt_params["momentum"] = a.momentum
trainer = gluon.Trainer(net.collect_params(), a.optimizer, opt_params)
metrics = [mx.metric.Accuracy(), mx.metric.Loss()] if a.task == "cls" else [mx.metric.Loss()]
est = Estimator(net=net, loss=loss, train_metrics=metrics, trainer=trainer)

steps_per_epoch = len(train_data)
interval = a.log_interval if a.log_interval == "epoch" else int(a.log_interval)
train_rec: list[tuple[int, float]] = []
val_rec: list[tuple[int, float]] = []


class Record(BatchEnd, EpochEnd):
    """The user's handler: the estimator's loss metric where the logging handler prints it."""

    def __init__(self):
        self.epoch = 0
        self.batch = 0

    def _loss(self, metrics):
        return [m for m in metrics if isinstance(m, mx.metric.Loss)][0].get()[1]

    def batch_end(self, estimator, *args, **kwargs):
        if interval != "epoch" and self.batch % interval == 0:
            train_rec.append((self.epoch * steps_per_epoch + self.batch, self._loss(estimator.train_metrics)))
        self.batch += 1

    def epoch_end(self, estimator, *args, **kwargs):
        if interval == "epoch":
            train_rec.append((self.epoch, self._loss(estimator.train_metrics)))
        if a.val:
            step = self.epoch if interval == "epoch" else (self.epoch + 1) * steps_per_epoch - 1
            val_rec.append((step, self._loss(estimator.val_metrics)))
        self.epoch += 1
        self.batch = 0
        if a.growth:
            estimator.trainer.set_learning_rate(estimator.trainer.learning_rate * a.growth)


handlers = [Record(), LoggingHandler(log_interval=interval, metrics=est.train_metrics + est.val_metrics)]
est.fit(train_data=train_data, val_data=val_data, epochs=a.epochs, event_handlers=handlers)

write_truth(framework=f"mxnet {mx.__version__}", settings=vars(a), loss_name="training loss",
            step_unit=("epoch, 0-based (`[Epoch N] Finished in ...`)" if interval == "epoch" else
                       "global batch, 0-based (`[Epoch E][Batch B]`: E x steps_per_epoch + B)"),
            tolerance=tol_decimals(4),
            record="the Estimator's `train_metrics` `mx.metric.Loss` (`.get()`, read by a user's BatchEnd/EpochEnd "
                   "handler between the metric handler and the LoggingHandler)",
            train_loss=train_rec, eval_loss=val_rec if a.val else None,
            eval_name="validation loss" if a.val else None,
            steps_per_epoch=steps_per_epoch if interval != "epoch" else None)
