"""pyttb (Sandia's Tensor Toolbox for Python): a generalized CP decomposition ``pyttb.gcp_opt`` of a synthetic
3-way tensor (a low-rank CP model plus noise, dense or sparse; Gaussian, Poisson, Bernoulli or Gamma data) by its
stochastic solvers ``pyttb.gcp.optimizers.Adam`` / ``SGD`` / ``Adagrad`` (``epoch_iters`` sampled gradient steps an
epoch, the objective estimated on a fixed sample after each epoch; an epoch that raises the estimate counts a
failure, the solution goes back to the last epoch's and the rate is multiplied by ``decay``, and the solve ends after
``max_fails`` failures), from a random start or warm-started from ``pyttb.cp_als`` (whose own ``CP_ALS:`` lines
print the fit, higher is better). pyttb reports through Python's ``logging`` at INFO (``printitn=1``, the default):
the script sets logging up as its users do (``logging.basicConfig(level=logging.INFO)``, or with a time format).
The log: its welcome block, ``Initial f-est: 4.226920e+02``, ``Epoch 0: f-est = 26.189627291812766, step = 0.01``
(``, nfails = 1 (resetting to solution from last epoch)`` on a failed epoch), ``End Main Loop``. Truth: the
``f_est_trace`` of the info the solve returns (the initial estimate, then the estimate after each epoch; as pyttb
slices it, the last epoch's estimate is not in it), at the number of epochs done."""

from __future__ import annotations

import argparse
import importlib.metadata
import logging

from h100_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--objective", default="gaussian", choices=["gaussian", "poisson", "bernoulli_odds", "gamma"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "adagrad"])
ap.add_argument("--rate", type=float, default=1e-3)
ap.add_argument("--decay", type=float, default=0.1)
ap.add_argument("--max-fails", type=int, default=1)
ap.add_argument("--epoch-iters", type=int, default=1000)
ap.add_argument("--max-iters", type=int, default=1000)
ap.add_argument("--shape", default="20,15,10")
ap.add_argument("--rank", type=int, default=3)
ap.add_argument("--sparse", action="store_true")
ap.add_argument("--warm-start", action="store_true")
ap.add_argument("--log-format", default="default", choices=["default", "time"])
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(a.seed)
if a.log_format == "time":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
else:
    logging.basicConfig(level=logging.INFO)

import numpy as np  # noqa: E402
import pyttb as ttb  # noqa: E402
from pyttb.gcp import optimizers  # noqa: E402
from pyttb.gcp.fg_setup import Objectives  # noqa: E402

rng = np.random.default_rng(a.seed)
shape = tuple(int(s) for s in a.shape.split(","))
factors = [rng.uniform(0.1, 1.0, (s, a.rank)) for s in shape]
truth_model = ttb.ktensor(factors).full().data
if a.objective == "gaussian":
    data = truth_model + 0.1 * rng.standard_normal(shape)
elif a.objective == "poisson":
    data = rng.poisson(2.0 * truth_model).astype(float)
elif a.objective == "bernoulli_odds":
    data = (rng.uniform(size=shape) < truth_model / (1.0 + truth_model)).astype(float)
else:
    data = rng.gamma(4.0, truth_model / 4.0)
X: ttb.tensor | ttb.sptensor = ttb.tensor(data)
if a.sparse:
    X = ttb.sptensor.from_tensor_type(X) if hasattr(ttb.sptensor, "from_tensor_type") else X.to_sptensor()

init: str | ttb.ktensor = "random"
if a.warm_start:
    dense = X if isinstance(X, ttb.tensor) else X.full()
    init, _, _ = ttb.cp_als(dense, a.rank, maxiters=20)

solver = {"adam": optimizers.Adam, "sgd": optimizers.SGD, "adagrad": optimizers.Adagrad}[a.optimizer](
    rate=a.rate, decay=a.decay, max_fails=a.max_fails, epoch_iters=a.epoch_iters, max_iters=a.max_iters)
objective = {"gaussian": Objectives.GAUSSIAN, "poisson": Objectives.POISSON,
             "bernoulli_odds": Objectives.BERNOULLI_ODDS, "gamma": Objectives.GAMMA}[a.objective]
M, M0, info = ttb.gcp_opt(X, a.rank, objective, solver, init=init)

write_truth(framework=f"pyttb {importlib.metadata.version('pyttb')}", settings=vars(a), loss_name="f-est",
            step_unit="epochs done (0: the initial estimate, `Initial f-est`; the `Epoch k` line's value at k+1)",
            tolerance=tol_sig(7),
            record="`info['f_est_trace']` returned by `pyttb.gcp_opt` (pyttb's slice leaves the last epoch out)",
            train_loss=list(enumerate(float(v) for v in info["f_est_trace"])), n_epoch=int(info["n_epoch"]))
