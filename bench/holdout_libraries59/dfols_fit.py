"""DFO-LS: derivative-free nonlinear least squares (``dfols.solve``) fitting a small model's parameters to seeded
synthetic data: a sum of two decaying exponentials, or a 1-4-1 tanh network's weights, as its docs' examples fit a
model to data. The log is DFO-LS's own, through Python's logging at INFO as its docs set it
(``logging.basicConfig(level=logging.INFO, format='%(message)s')``): ``Function eval 7 at point 7 has obj =
0.229183240910502 at x = [...]`` for every evaluation, ``New rho = 0.01 after 12 function evaluations``, then the
script prints the returned solution (``****** DFO-LS Results ******``). Runs differ in the model, the start,
``rhobeg``, bounds, ``npt`` (interpolation points), restarts and the evaluation budget. Truth: DFO-LS's own
``diagnostic_info`` (``logging.save_diagnostic_info``): the objective ``fk`` of the current iterate, one row an
iteration, at the evaluation count ``nf`` it was reached at."""

from __future__ import annotations

import argparse
import logging

from h59_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="exp2", choices=["exp2", "net"])
ap.add_argument("--rhobeg", type=float, default=None)
ap.add_argument("--npt", type=int, default=None)
ap.add_argument("--maxfun", type=int, default=80)
ap.add_argument("--bounds", action="store_true")
ap.add_argument("--restarts", action="store_true")
ap.add_argument("--noise", type=float, default=0.02)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import dfols  # noqa: E402
import numpy as np  # noqa: E402

logging.basicConfig(level=logging.INFO, format="%(message)s")
rng = np.random.default_rng(0)
t = np.linspace(0, 4, 60)
if a.model == "exp2":
    y = 2.0 * np.exp(-1.3 * t) + 0.8 * np.exp(-0.2 * t) + 0.1 + a.noise * rng.normal(size=t.size)
    x0 = np.array([1.0, 0.5, 1.0, 0.05, 0.0])

    def resid(p: np.ndarray) -> np.ndarray:
        return p[0] * np.exp(-p[1] * t) + p[2] * np.exp(-p[3] * t) + p[4] - y

    lo, hi = np.array([0, 0, 0, 0, -1.0]), np.array([5, 5, 5, 5, 1.0])
else:
    y = np.sin(1.5 * t) * np.exp(-0.3 * t) + a.noise * rng.normal(size=t.size)
    x0 = 0.5 * rng.normal(size=13)

    def resid(p: np.ndarray) -> np.ndarray:
        h = np.tanh(np.outer(t, p[0:4]) + p[4:8])
        return h @ p[8:12] + p[12] - y

    lo, hi = -5 * np.ones(13), 5 * np.ones(13)

params = {"logging.save_diagnostic_info": True}
if a.restarts:
    params["restarts.use_restarts"] = True
soln = dfols.solve(resid, x0, bounds=(lo, hi) if a.bounds else None, rhobeg=a.rhobeg, npt=a.npt, maxfun=a.maxfun,
                   user_params=params)
print(soln)
d = soln.diagnostic_info
write_truth(framework=f"dfo-ls {dfols.__version__}", settings=vars(a), loss_name="obj (sum of squared residuals)",
            step_unit="function evaluations (`nf`: `Function eval 7 at point 7 has obj = ...`)",
            tolerance=tol_sig(12),
            record="DFO-LS's own `diagnostic_info` (`fk`, the current iterate's objective, one row an iteration, "
                   "at its evaluation count `nf`; the last row of an `nf`)",
            train_loss=sorted({int(n): float(f) for n, f in zip(d["nf"], d["fk"], strict=True)}.items()))
