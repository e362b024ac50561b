"""DeepXDE (PyTorch backend): ``Model.train(iterations, display_every)`` prints its table
(``Step  Train loss  Test loss  Test metric`` then ``100  [1.52e-01]  [1.37e-01]  [8.11e-01]``); ``dde.saveplot``
writes ``loss.dat``. One loss term per run (a function fit, or a PDE whose boundary conditions are hard
constraints), so the printed ``[x]`` is the train loss. Truth: the ``LossHistory`` ``model.train`` returns
(``steps``, ``loss_train``), which ``loss.dat`` holds too."""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("DDE_BACKEND", "pytorch")

import deepxde as dde  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
from h3_truth import keep, seed_all, tol_sig, write_truth  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--problem", default="function", choices=["function", "poisson"])
ap.add_argument("--iters", type=int, default=2000)
ap.add_argument("--every", type=int, default=100)
ap.add_argument("--opt", default="adam")
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--decay-gamma", type=float, default=0.0, help="compile(decay=('step', 100, gamma))")
ap.add_argument("--no-metric", action="store_true")
ap.add_argument("--width", type=int, default=20)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
dde.config.set_random_seed(0)
torch.set_num_threads(1)

geom = dde.geometry.Interval(-1, 1)
if a.problem == "function":
    def func(x):
        return x * np.sin(5 * x)
    data = dde.data.Function(geom, func, 24, 100)
    net = dde.nn.FNN([1] + [a.width] * 3 + [1], "tanh", "Glorot uniform")
else:
    def pde(x, y):
        dy_xx = dde.grad.hessian(y, x)
        return -dy_xx - np.pi ** 2 * torch.sin(np.pi * x)

    def solution(x):
        return np.sin(np.pi * x)
    data = dde.data.PDE(geom, pde, [], num_domain=32, solution=solution, num_test=100)
    net = dde.nn.FNN([1] + [a.width] * 3 + [1], "tanh", "Glorot uniform")
    net.apply_output_transform(lambda x, y: (1 - x ** 2) * y)  # u(-1) = u(1) = 0 exactly
model = dde.Model(data, net)
model.compile(a.opt, lr=a.lr, metrics=None if a.no_metric else ["l2 relative error"],
              decay=("step", 100, a.decay_gamma) if a.decay_gamma else None)
losshistory, train_state = model.train(iterations=a.iters, display_every=a.every)
dde.saveplot(losshistory, train_state, issave=True, isplot=False)
keep("loss.dat")

train = [(s, float(np.sum(v))) for s, v in zip(losshistory.steps, losshistory.loss_train, strict=True)]
ev = [(s, float(np.sum(v))) for s, v in zip(losshistory.steps, losshistory.loss_test, strict=True)]
write_truth(framework="deepxde", settings=vars(a), loss_name="Train loss", step_unit="iteration (Step column, 0-based)",
            tolerance=tol_sig(3), record="LossHistory.steps / loss_train returned by Model.train (= loss.dat)",
            train_loss=train, eval_loss=ev, eval_name="Test loss")
