"""PINTS (pints): fitting the parameters of one of its toy models (``pints.toy.LogisticModel``, or the
``FitzhughNagumoModel``) to a noisy synthetic time series, by minimising a ``SumOfSquaresError`` with an
``OptimisationController`` and one of its optimisers (``XNES``, ``CMAES``, ``PSO``, ``NelderMead``, ``GradientDescent``
with its learning rate, ``Adam`` (its step size min(sigma0): ``--sigma-scale``), ``IRPropMin``), as its examples do.
The controller prints its table on stdout:
``Minimising error measure``, ``Using Exponential Natural Evolution Strategy (xNES)``, ``Running in sequential mode.``,
``Population size: 6``, then ``Iter. Eval. Best      Current   Time    `` and rows ``0     6      496286.8  496286.8
0:00.0``, every iteration for the first ``warm_up`` ones then every ``interval`` (``set_log_interval``), the last
iteration and ``Halting: Maximum number of iterations reached (200).``. It also writes the same rows to its own CSV log
(``set_log_to_file("optimisation_log.csv", csv=True)``), kept. Truth: that CSV (full precision), ``Current`` (the
error at the optimiser's current point), at ``Iter.`` (0-based)."""

from __future__ import annotations

import argparse
import csv

import numpy as np
from h21_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--optimiser", default="xnes", choices=["xnes", "cmaes", "pso", "nm", "gd", "adam", "irprop"])
ap.add_argument("--model", default="logistic", choices=["logistic", "fhn"])
ap.add_argument("--iters", type=int, default=200)
ap.add_argument("--interval", type=int, default=20)
ap.add_argument("--warm-up", type=int, default=3)
ap.add_argument("--lr", type=float, default=None)
ap.add_argument("--sigma-scale", type=float, default=1.0, help="sigma0 times this (Adam's step size is min(sigma0))")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pints  # noqa: E402
import pints.toy  # noqa: E402

if a.model == "logistic":
    model = pints.toy.LogisticModel()
    true = [0.015, 500]
    times = np.linspace(0, 1000, 100)
    x0 = [0.01, 400]
    sigma0 = [0.002, 50]
else:
    model = pints.toy.FitzhughNagumoModel()
    true = [0.1, 0.5, 3]
    times = np.linspace(0, 20, 100)
    x0 = [0.2, 0.3, 2.5]
    sigma0 = [0.05, 0.05, 0.5]
values = model.simulate(true, times)
rng = np.random.default_rng(0)
values = values + rng.normal(scale=0.05 * np.std(values), size=values.shape)
problem = (pints.SingleOutputProblem if values.ndim == 1 else pints.MultiOutputProblem)(model, times, values)
error = pints.SumOfSquaresError(problem)
method = {"xnes": pints.XNES, "cmaes": pints.CMAES, "pso": pints.PSO, "nm": pints.NelderMead,
          "gd": pints.GradientDescent, "adam": pints.Adam, "irprop": pints.IRPropMin}[a.optimiser]
sigma0 = [s * a.sigma_scale for s in sigma0]
opt = pints.OptimisationController(error, x0, sigma0=sigma0 if a.optimiser != "gd" else None, method=method)
if a.lr is not None:
    opt.optimiser().set_learning_rate(a.lr)
opt.set_max_iterations(a.iters)
opt.set_log_interval(a.interval, a.warm_up)
opt.set_log_to_file("optimisation_log.csv", csv=True)
opt.set_parallel(False)
x, f = opt.run()

with open("optimisation_log.csv") as fh:
    rows = list(csv.DictReader(fh))
keep("optimisation_log.csv")
write_truth(framework=f"pints {pints.__version__}", settings=vars(a), loss_name="Current (SumOfSquaresError)",
            step_unit="iteration, 0-based (`Iter.`)", tolerance=tol_sig(3),
            record="the controller's own CSV log (`set_log_to_file(..., csv=True)`): `Current` at `Iter.`",
            train_loss=[(int(r["Iter."]), float(r["Current"])) for r in rows])
