"""EvoTorch: neuroevolution of a small torch network on a supervised regression / classification task
(``evotorch.neuroevolution.SupervisedNE``, whose fitness is the network's loss on a minibatch, minimised) or
minimising a plain loss function (``Problem("min", ...)``), searched by ``PGPE``, ``SNES``, ``XNES`` or ``CEM``, logged
by its ``StdOutLogger`` (one block per logged generation: ``         iter : 12`` then ``    mean_eval : 0.7413...``,
``pop_best_eval``, ``best_eval``, ``worst_eval``... and a blank line) and a ``PandasLogger`` (saved as ``status.csv``
with ``--csv``). Truth: the ``PandasLogger`` data frame's ``mean_eval`` (the population's mean loss) at its ``iter``."""

from __future__ import annotations

import argparse

import numpy as np
import torch
from h5_truth import dest, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--problem", default="reg", choices=["reg", "cls", "func"])
ap.add_argument("--algo", default="PGPE", choices=["PGPE", "SNES", "XNES", "CEM"])
ap.add_argument("--generations", type=int, default=40)
ap.add_argument("--popsize", type=int, default=40)
ap.add_argument("--interval", type=int, default=1)
ap.add_argument("--center-lr", type=float, default=0.05)
ap.add_argument("--stdev", type=float, default=0.1)
ap.add_argument("--stdev-lr", type=float, default=0.1)
ap.add_argument("--optimizer", default="adam", choices=["adam", "clipup", "none"])
ap.add_argument("--csv", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import evotorch  # noqa: E402
from evotorch import Problem  # noqa: E402
from evotorch.algorithms import CEM, PGPE, SNES, XNES  # noqa: E402
from evotorch.logging import PandasLogger, StdOutLogger  # noqa: E402
from evotorch.neuroevolution import SupervisedNE  # noqa: E402
from torch.utils.data import TensorDataset  # noqa: E402

rng = np.random.default_rng(0)
n, d = 2000, 8
X = torch.tensor(rng.normal(size=(n, d)), dtype=torch.float32)
w = torch.tensor(rng.normal(size=(d, 1)), dtype=torch.float32)
if a.problem == "cls":
    y = ((X @ w).squeeze(1) + 0.3 * torch.randn(n) > 0).long()
    net = "Linear(8, 16) >> Tanh() >> Linear(16, 2)"
    loss = torch.nn.CrossEntropyLoss()
else:
    y = torch.sin(X @ w) + 0.1 * torch.randn(n, 1)
    net = "Linear(8, 16) >> Tanh() >> Linear(16, 1)"
    loss = torch.nn.MSELoss()

if a.problem == "func":
    A = torch.tensor(rng.normal(size=(30, 20)), dtype=torch.float32)
    b = torch.tensor(rng.normal(size=30), dtype=torch.float32)

    def lsq_loss(x: torch.Tensor) -> torch.Tensor:
        return ((x @ A.T - b) ** 2).mean(dim=-1)

    problem = Problem("min", lsq_loss, solution_length=20, initial_bounds=(-1.0, 1.0), vectorized=True, seed=0)
else:
    problem = SupervisedNE(TensorDataset(X, y), net, loss, minibatch_size=256, initial_bounds=(-0.5, 0.5))

opt = None if a.optimizer == "none" else a.optimizer
if a.algo == "PGPE":
    searcher = PGPE(problem, popsize=a.popsize, center_learning_rate=a.center_lr, stdev_learning_rate=a.stdev_lr,
                    stdev_init=a.stdev, optimizer=opt)
elif a.algo == "SNES":
    searcher = SNES(problem, popsize=a.popsize, stdev_init=a.stdev, center_learning_rate=a.center_lr,
                    stdev_learning_rate=a.stdev_lr)
elif a.algo == "XNES":
    searcher = XNES(problem, popsize=a.popsize, stdev_init=a.stdev, center_learning_rate=a.center_lr,
                    stdev_learning_rate=a.stdev_lr)
else:
    searcher = CEM(problem, popsize=a.popsize, parenthood_ratio=0.25, stdev_init=a.stdev)
StdOutLogger(searcher, interval=a.interval)
pandas_logger = PandasLogger(searcher, interval=a.interval)
searcher.run(a.generations)
print("best:", searcher.status["best_eval"])

df = pandas_logger.to_dataframe()
d_ = dest()
if a.csv and d_ is not None:
    df.to_csv(d_ / "status.csv")
write_truth(framework=f"evotorch {evotorch.__version__}", settings=vars(a), loss_name="mean_eval",
            step_unit="generation, 1-based (`iter : N`)", tolerance=tol_sig(9),
            record="the PandasLogger data frame (mean_eval, the population's mean loss, at its iter index)",
            train_loss=[(int(i), float(v)) for i, v in df["mean_eval"].items()])
