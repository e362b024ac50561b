"""pybads: BADS (Bayesian Adaptive Direct Search) fitting the parameters of a small synthetic model by minimising
its objective, as its tutorials do (``BADS(fun, x0, lb, ub, plb, pub, options=...).optimize()``, ``display``
``iter``): a least-squares fit of a damped oscillation, a Rosenbrock or Ackley function, or a noisy simulated
negative log-likelihood with ``uncertainty_handling`` (its table then has an ``f(x)`` and ``f(x)_SD`` column).
BADS prints its own iteration table (``f(x)`` with ``{:12.6g}``: 6 significant digits). Truth: the optimiser's own
record, ``bads.iteration_history['fval']`` (the incumbent's value at the end of each iteration, 0-based)."""

from __future__ import annotations

import argparse
from importlib.metadata import version

from h94_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--fun", default="oscillator", choices=["oscillator", "rosenbrock", "ackley", "noisy_nll"])
ap.add_argument("--dim", type=int, default=3)
ap.add_argument("--max-iter", type=int, default=None)
ap.add_argument("--max-fun-evals", type=int, default=None)
ap.add_argument("--tol-fun", type=float, default=None)
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(a.seed)

import numpy as np  # noqa: E402
from pybads import BADS  # noqa: E402

rng = np.random.default_rng(a.seed)
t = np.linspace(0, 6, 60)
true = np.array([1.5, 0.4, 2.2])
y = true[0] * np.exp(-true[1] * t) * np.cos(true[2] * t) + 0.05 * rng.normal(size=t.size)
counts = rng.poisson(np.exp(1.0 + 0.8 * np.sin(t)))


def oscillator(x: np.ndarray) -> float:
    x = np.atleast_1d(np.asarray(x).ravel())
    pred = x[0] * np.exp(-x[1] * t) * np.cos(x[2] * t)
    return float(np.sum((y - pred) ** 2))


def rosenbrock(x: np.ndarray) -> float:
    x = np.atleast_1d(np.asarray(x).ravel())
    return float(np.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2))


def ackley(x: np.ndarray) -> float:
    x = np.atleast_1d(np.asarray(x).ravel())
    d = x.size
    return float(-20 * np.exp(-0.2 * np.sqrt(np.sum(x ** 2) / d)) - np.exp(np.sum(np.cos(2 * np.pi * x)) / d)
                 + 20 + np.e)


def noisy_nll(x: np.ndarray) -> float:
    # a Poisson regression's negative log-likelihood estimated from a noisy simulation (a user's stochastic model)
    x = np.atleast_1d(np.asarray(x).ravel())
    lam = np.exp(x[0] + x[1] * np.sin(t))
    sim = lam * (1 + 0.05 * rng.normal())
    return float(np.sum(sim - counts * np.log(sim)))


fun = {"oscillator": oscillator, "rosenbrock": rosenbrock, "ackley": ackley, "noisy_nll": noisy_nll}[a.fun]
D = {"oscillator": 3, "noisy_nll": 2}.get(a.fun, a.dim)
x0 = {"oscillator": np.array([0.5, 1.0, 1.0]), "noisy_nll": np.array([0.0, 0.0])}.get(
    a.fun, np.full(D, -1.7 if a.fun == "rosenbrock" else 2.3))
lb, ub = np.full(D, -5.0), np.full(D, 5.0)
plb, pub = np.full(D, -3.0), np.full(D, 3.0)
if a.fun == "oscillator":
    lb, ub, plb, pub = np.array([0, 0, 0.1]), np.array([5, 3, 5]), np.array([0.2, 0.05, 0.5]), np.array([3, 2, 4])
options: dict = {"display": "iter", "random_seed": a.seed}
if a.fun == "noisy_nll":
    options["uncertainty_handling"] = True
    options["noise_size"] = 1.0
if a.max_iter:
    options["max_iter"] = a.max_iter
if a.max_fun_evals:
    options["max_fun_evals"] = a.max_fun_evals
if a.tol_fun:
    options["tol_fun"] = a.tol_fun
bads = BADS(fun, x0, lb, ub, plb, pub, options=options)
res = bads.optimize()
print(f"x = {res['x']}, fval = {res['fval']}, func_count = {res['func_count']}")
fval = bads.iteration_history.get("fval")
train = [(i, float(v)) for i, v in enumerate(fval[: res["iterations"] + 1]) if v is not None]
write_truth(framework=f"pybads {version('pybads')}", settings=vars(a), loss_name="f(x)",
            step_unit="iteration, 0-based (the table's `Iteration` column; several rows may share one)",
            tolerance=tol_sig(6), record="the optimiser's own record, `bads.iteration_history['fval']`",
            train_loss=train)
