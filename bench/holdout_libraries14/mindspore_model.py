"""MindSpore: a small ``nn.SequentialCell`` MLP trained with ``ms.train.Model(net, loss_fn, optimizer)`` and
``model.train(epochs, dataset, callbacks=[LossMonitor(per_print_times), TimeMonitor()], dataset_sink_mode=False)``
as its quick start does (or ``model.fit(..., valid_dataset=...)`` with a ``Loss`` metric), on a synthetic
``NumpySlicesDataset``. ``LossMonitor`` prints ``epoch: 1 step: 5, loss is 2.302...`` (the step within the epoch,
1-based, every ``per_print_times`` steps; the loss as Python's ``str`` of the float); ``TimeMonitor`` prints
``Train epoch time: ... ms, per step time: ... ms``. Truth: a ``Callback`` of its own kind, ``step_end`` reading
``cb_params.net_outputs`` (the value LossMonitor prints) at ``cb_params.cur_step_num`` (global, 1-based), kept at the
steps LossMonitor prints."""

from __future__ import annotations

import argparse
import math

import numpy as np
from h14_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=5)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="momentum", choices=["sgd", "momentum", "adam", "rmsprop"])
ap.add_argument("--per-print", type=int, default=1, help="LossMonitor's per_print_times")
ap.add_argument("--gamma", type=float, default=0.0, help="exponential_decay_lr per epoch (a rate that grows if > 1)")
ap.add_argument("--val", action="store_true", help="model.fit with a validation set (Loss metric)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import mindspore as ms  # noqa: E402
from mindspore import dataset as ds  # noqa: E402
from mindspore import nn  # noqa: E402
from mindspore.train import Callback, LossMonitor, Model, TimeMonitor  # noqa: E402

ms.set_seed(0)
ds.config.set_seed(0)
ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")

rng = np.random.default_rng(0)
n_val = a.n // 4
X = rng.standard_normal((a.n + n_val, 8)).astype(np.float32)
if a.task == "cls":
    W = rng.standard_normal((8, 4))
    y = (X @ W + 0.5 * rng.standard_normal((a.n + n_val, 4))).argmax(1).astype(np.int32)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    out_dim = 4
else:
    w = rng.standard_normal((8, 1))
    y = (X @ w + np.sin(2 * X[:, :1]) + 0.1 * rng.standard_normal((a.n + n_val, 1))).astype(np.float32)
    loss_fn = nn.MSELoss()
    out_dim = 1



class Source:
    """A random-access source of (x, y) rows (0-d arrays for the labels: MindSpore's own row conversion asks
    numpy for no copy, which a numpy scalar cannot give under numpy 2)."""

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def __getitem__(self, i):
        return X[self.lo + i], np.array(y[self.lo + i])

    def __len__(self):
        return self.hi - self.lo


train = ds.GeneratorDataset(Source(0, a.n), ["x", "y"], shuffle=True).batch(a.batch, drop_remainder=True)
steps = train.get_dataset_size()
net = nn.SequentialCell([nn.Dense(8, 32), nn.ReLU(), nn.Dense(32, out_dim)])
if a.gamma:
    lr = nn.exponential_decay_lr(a.lr, a.gamma, steps * a.epochs, steps, 1, is_stair=True)
else:
    lr = a.lr
if a.optimizer == "adam":
    opt = nn.Adam(net.trainable_params(), learning_rate=lr)
elif a.optimizer == "rmsprop":
    opt = nn.RMSProp(net.trainable_params(), learning_rate=lr)
elif a.optimizer == "momentum":
    opt = nn.Momentum(net.trainable_params(), learning_rate=lr, momentum=0.9)
else:
    opt = nn.SGD(net.trainable_params(), learning_rate=lr)


class Record(Callback):
    def __init__(self):
        super().__init__()
        self.steps = []
        self.evals = []
        self.last = 0

    def on_train_step_end(self, run_context):
        p = run_context.original_args()
        out = p.net_outputs
        if isinstance(out, (tuple, list)):
            out = out[0]
        v = float(out.asnumpy()) if hasattr(out, "asnumpy") else float(out)
        self.steps.append((p.cur_step_num, v))
        self.last = p.cur_step_num

    def on_eval_end(self, run_context):
        p = run_context.original_args()
        self.evals.append((self.last, float(p.eval_results["loss"])))


rec = Record()
callbacks = [rec, LossMonitor(a.per_print), TimeMonitor()]


def train_model() -> None:
    if a.val:
        model = Model(net, loss_fn, opt, metrics={"loss": nn.Loss()})
        val = ds.GeneratorDataset(Source(a.n, a.n + n_val), ["x", "y"], shuffle=False).batch(64)
        model.fit(a.epochs, train, val, valid_frequency=1, callbacks=callbacks, dataset_sink_mode=False)
    else:
        model = Model(net, loss_fn, opt)
        model.train(a.epochs, train, callbacks=callbacks, dataset_sink_mode=False)


def write() -> None:
    """The truth: the recorded losses at the steps LossMonitor printed (it raises on a non-finite loss before
    printing it)."""
    printed = [(s, v) for s, v in rec.steps if ((s - 1) % steps + 1) % a.per_print == 0 and math.isfinite(v)]
    write_truth(framework=f"mindspore {ms.__version__}", settings=vars(a), loss_name="loss",
                step_unit="step, 1-based, across epochs (`epoch: E step: S`, S within the epoch: "
                          "(E-1) x steps_per_epoch + S)",
                tolerance=tol_sig(6),
                record="a Callback's step_end: `cb_params.net_outputs` at `cb_params.cur_step_num`",
                train_loss=printed, steps_per_epoch=steps,
                eval_loss=rec.evals if a.val else None, eval_name="loss (Eval result metrics)" if a.val else None)


try:
    train_model()
finally:
    write()
