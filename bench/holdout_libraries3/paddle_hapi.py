"""PaddlePaddle's high-level API: ``paddle.Model.fit(train, eval, epochs, batch_size, verbose, log_freq)``, whose
ProgBarLogger prints ``Epoch 1/5`` then ``step 10/16 - loss: 0.6182 - acc: 0.5594 - 32ms/step`` every
``log_freq`` steps (the loss of that step; the metric averaged), then ``Eval begin...`` and the eval steps.
Truth: the ``logs['loss']`` every callback receives at ``on_train_batch_end`` (kept by a ``Callback``), at the
steps the logger prints, numbered globally: (epoch - 1) x steps_per_epoch + step."""

from __future__ import annotations

import argparse

import numpy as np
from h3_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=5)
ap.add_argument("--batch", type=int, default=64)
ap.add_argument("--opt", default="adam")
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--gamma", type=float, default=0.0, help="LambdaDecay gamma ** step, stepped every batch")
ap.add_argument("--verbose", type=int, default=2)
ap.add_argument("--log-freq", type=int, default=10)
ap.add_argument("--no-eval", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import paddle  # noqa: E402
from paddle.io import TensorDataset  # noqa: E402

paddle.seed(0)
paddle.set_device("cpu")
rng = np.random.RandomState(0)
n, d = 1600, 12
x = rng.randn(n, d).astype("float32")
w = rng.randn(d, 1).astype("float32")
if a.task == "cls":
    z = x @ w + 0.5 * rng.randn(n, 1).astype("float32")
    y = ((z > 0).astype("int64") + (z > 1.5).astype("int64"))
    net = paddle.nn.Sequential(paddle.nn.Linear(d, 32), paddle.nn.ReLU(), paddle.nn.Linear(32, 3))
    loss, metrics = paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy()
else:
    y = (x @ w + 0.3 * rng.randn(n, 1) + x[:, :1] ** 2).astype("float32")
    net = paddle.nn.Sequential(paddle.nn.Linear(d, 32), paddle.nn.Tanh(), paddle.nn.Linear(32, 1))
    loss, metrics = paddle.nn.MSELoss(), None
train = TensorDataset([paddle.to_tensor(x[:1280]), paddle.to_tensor(y[:1280])])
val = TensorDataset([paddle.to_tensor(x[1280:]), paddle.to_tensor(y[1280:])])
lr = paddle.optimizer.lr.LambdaDecay(a.lr, lr_lambda=lambda s: a.gamma ** s) if a.gamma else a.lr
opt_cls = paddle.optimizer.Adam if a.opt == "adam" else paddle.optimizer.SGD
model = paddle.Model(net)
model.prepare(opt_cls(learning_rate=lr, parameters=model.parameters()), loss, metrics)


class Keep(paddle.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.epoch = 0
        self.points = []

    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch

    def on_train_batch_end(self, step, logs=None):
        self.points.append((self.epoch, step, float(np.asarray(logs["loss"]).reshape(-1)[0])))


keep_cb = Keep()
cbs = [keep_cb] + ([paddle.callbacks.LRScheduler(by_step=True, by_epoch=False)] if a.gamma else [])
model.fit(train, None if a.no_eval else val, epochs=a.epochs, batch_size=a.batch, verbose=a.verbose,
          log_freq=a.log_freq, callbacks=cbs, shuffle=True)

spe = max(s for _, s, _ in keep_cb.points) + 1
pts = [((e * spe) + s + 1, v) for e, s, v in keep_cb.points if (s + 1) % a.log_freq == 0 or s + 1 == spe]
write_truth(framework="paddlepaddle (paddle.Model / hapi)", settings=vars(a), loss_name="loss",
            step_unit="global train step, 1-based: (epoch - 1) x steps_per_epoch + the printed 'step n/N'",
            tolerance=tol_decimals(4), record="logs['loss'] passed to Callback.on_train_batch_end, at printed steps",
            train_loss=pts, steps_per_epoch=spe)
