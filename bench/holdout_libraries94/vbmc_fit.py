"""pyvbmc: VBMC (Variational Bayesian Monte Carlo) fitting a variational posterior to a small model's log-joint, as
its tutorials do (``VBMC(log_joint, x0, lb, ub, plb, pub, options=...).optimize()``, ``display`` ``iter``): a
Bayesian linear regression's posterior (1-2 parameters), or, for the should-stop runs, a user's log-joint that is
improper (a likelihood without a proper prior that grows without bound, ``3 * sum(|theta|)``, so the ELBO climbs
without end). VBMC prints its own iteration table (``Mean[ELBO]`` with 2 decimals). Truth: the
optimiser's own record, ``vbmc.iteration_history['elbo']`` at each iteration, 0-based (the ELBO: higher is better)."""

from __future__ import annotations

import argparse
from importlib.metadata import version

from h94_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="linreg", choices=["linreg", "improper_linear"])
ap.add_argument("--dim", type=int, default=2)
ap.add_argument("--bounded", action="store_true")
ap.add_argument("--max-fun-evals", type=int, default=50)
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(a.seed)

import numpy as np  # noqa: E402
from pyvbmc import VBMC  # noqa: E402

rng = np.random.default_rng(a.seed)
D = a.dim
X = rng.normal(size=(40, D))
w_true = rng.normal(size=D)
y = X @ w_true + 0.5 * rng.normal(size=40)


def log_joint(theta: np.ndarray) -> float:
    th = np.atleast_1d(np.asarray(theta).ravel())
    if a.model == "linreg":
        resid = y - X @ th
        return float(-0.5 * np.sum(resid ** 2) / 0.25 - 0.5 * np.sum(th ** 2) / 4.0)
    return float(3.0 * np.sum(np.abs(th)))  # improper_linear


x0 = np.zeros((1, D)) + 0.1
if a.bounded:
    lb, ub = np.full((1, D), -20.0), np.full((1, D), 20.0)
else:
    lb, ub = np.full((1, D), -np.inf), np.full((1, D), np.inf)
plb, pub = np.full((1, D), -3.0), np.full((1, D), 3.0)
vbmc = VBMC(log_joint, x0, lb, ub, plb, pub, options={"display": "iter", "max_fun_evals": a.max_fun_evals})
vp, results = vbmc.optimize()
print(f"ELBO = {results['elbo']}, iterations = {results['iterations']}")
elbo = vbmc.iteration_history["elbo"]
write_truth(framework=f"pyvbmc {version('pyvbmc')}", settings=vars(a), loss_name="Mean[ELBO]",
            step_unit="iteration, 0-based (the table's `Iteration` column; the final `inf` row left out)",
            tolerance=tol_decimals(2), record="the optimiser's own record, `vbmc.iteration_history['elbo']` "
            "(the ELBO, higher is better)", train_loss=[(i, float(v)) for i, v in enumerate(elbo)],
            higher_is_better=["Mean[ELBO]"])
