"""BrainPy: a small recurrent network (``bp.dyn.RNNCell`` or ``bp.dyn.LSTMCell`` and a ``bp.dnn.Dense`` readout, in
``bm.training_mode``) trained with its back-propagation-through-time trainer ``bp.BPTT(...).fit`` on a synthetic
sequence task (a running sum of one input channel), as BrainPy's training tutorials do, with one of ``bp.optim``'s
optimizers (``Adam``, ``SGD``, ``Momentum``, ``RMSProp``), optionally ``ExponentialLR``. ``fit`` prints its report
with ``print`` when the data are a generator function: ``Train 3 epoch, use 0.0025 s, loss 1.0790705680847168``
(each epoch, or ``Train 20 steps, ...`` every ``num_report`` batches), ``Test 3 epoch, ...`` with test data; with a
sized dataset (a list of batches) it puts the same report in its tqdm bar's description on stderr instead.
Truth: the trainer's own record, ``get_hist_metric('fit')`` (the report's loss: the mean over the batches since the
last report), at the report's own counter (epoch, 0-based, or steps, 1-based, across epochs)."""

from __future__ import annotations

import argparse
import math

import numpy as np
from h36_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--cell", default="rnn", choices=["rnn", "lstm"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "momentum", "rmsprop"])
ap.add_argument("--lr", type=float, default=1e-2)
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR's gamma (0: a constant rate)")
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--n", type=int, default=128)
ap.add_argument("--hidden", type=int, default=16)
ap.add_argument("--report", type=int, default=-1, help="num_report (-1: each epoch)")
ap.add_argument("--test", action="store_true", help="test data too")
ap.add_argument("--sized", action="store_true", help="a list of batches (its tqdm bar) instead of a generator")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import brainpy as bp  # noqa: E402
import brainpy.math as bm  # noqa: E402

bm.set_platform("cpu")
bm.set_environment(mode=bm.training_mode)
bm.random.seed(0)


class Net(bp.DynamicalSystem):
    def __init__(self):
        super().__init__()
        cell = bp.dyn.RNNCell if a.cell == "rnn" else bp.dyn.LSTMCell
        self.r = cell(2, a.hidden)
        self.o = bp.dnn.Dense(a.hidden, 1)

    def update(self, x):
        return self.o(self.r(x))


rng = np.random.default_rng(0)


def make(n):
    x = rng.normal(size=(n, 20, 2)).astype("float32")
    return x, (np.cumsum(x[..., :1], axis=1) * 0.3).astype("float32")


X, Y = make(a.n)
XT, YT = make(a.n // 4)


def batches(x, y):
    return [(x[i:i + a.batch], y[i:i + a.batch]) for i in range(0, len(x), a.batch)]


def train_data():
    yield from batches(X, Y)


def test_data():
    yield from batches(XT, YT)


lr = bp.optim.ExponentialLR(a.lr, gamma=a.gamma) if a.gamma else a.lr
opt = {"adam": bp.optim.Adam, "sgd": bp.optim.SGD, "momentum": bp.optim.Momentum,
       "rmsprop": bp.optim.RMSProp}[a.optimizer](lr=lr)
model = Net()
trainer = bp.BPTT(model, loss_fun=bp.losses.mean_squared_error, optimizer=opt)
trainer.fit(batches(X, Y) if a.sized else train_data, test_data=test_data if a.test else None,
            num_epoch=a.epochs, num_report=a.report)


def value(v):
    v = float(v)
    return v if math.isfinite(v) else ("nan" if math.isnan(v) else ("inf" if v > 0 else "-inf"))


hist = [value(v) for v in trainer.get_hist_metric("fit")]
steps = [i for i in range(len(hist))] if a.report <= 0 else [(i + 1) * a.report for i in range(len(hist))]
extra = {}
if a.test:
    # the test reports count their own batches (`Test 4 steps`) when num_report > 0, epochs otherwise
    extra = {"eval_loss": [[i if a.report <= 0 else (i + 1) * a.report, value(v)]
                           for i, v in enumerate(trainer.get_hist_metric("test"))],
             "eval_name": "Test loss",
             "eval_step_unit": ("epoch, 0-based (`Test N epoch`)" if a.report <= 0
                                else "test batch, 1-based, across epochs (`Test N steps`: its own counter)")}
write_truth(framework=f"brainpy {bp.__version__}", settings=vars(a), loss_name="loss",
            step_unit=("epoch, 0-based (`Train N epoch`)" if a.report <= 0
                       else "batch, 1-based, across epochs (`Train N steps`)"),
            tolerance=tol_sig(7), record="the trainer's own record, `BPTT.get_hist_metric('fit')`",
            train_loss=list(zip(steps, hist, strict=True)), steps_per_epoch=math.ceil(a.n / a.batch), **extra)
