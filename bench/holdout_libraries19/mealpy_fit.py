"""mealpy: a tiny model trained by a metaheuristic, as its README's examples write it. The 6 weights of a linear
regression (mean squared error) or a logistic regression (log loss, written naively, ``log(p)``, or stably with
``np.logaddexp``) are the problem's ``FloatVar`` bounds, minimised by one of its optimizers (``OriginalPSO``,
``OriginalDE``, ``BaseGA``, ``OriginalWOA``, ``OriginalGWO``) with ``model.solve(problem, seed=1)``. mealpy's own
logger (its default, ``log_to="console"``) prints a line an epoch: ``2026/12/06 08:06:33 AM, INFO,
mealpy.swarm_based.PSO.OriginalPSO: >>>Problem: P, Epoch: 1, Current best: 44.622697560734295, Global best:
44.622697560734295, Runtime: 0.00092 seconds``. Truth: the optimizer's own history, ``model.history.
list_current_best_fit`` (the best fitness of each epoch's population, "Current best"), at the epoch, 1-based;
the global best as a second series (``eval_loss``, its ``Global best``)."""

from __future__ import annotations

import argparse

import numpy as np
from h19_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--optimizer", default="pso", choices=["pso", "de", "ga", "woa", "gwo"])
ap.add_argument("--task", default="reg", choices=["reg", "cls", "cls-naive"])
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--pop", type=int, default=20)
ap.add_argument("--bound", type=float, default=10.0)
ap.add_argument("--n", type=int, default=200)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import mealpy  # noqa: E402
from mealpy import DE, GA, GWO, PSO, WOA, FloatVar  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 5)) * np.array([1.0, 3.0, 0.5, 2.0, 4.0])
w_true = np.array([1.5, -2.0, 0.7, 1.0, -0.5])
if a.task == "reg":
    y = X @ w_true + 3.0 + rng.normal(scale=0.5, size=a.n)
else:
    y = (X @ w_true + rng.normal(scale=1.0, size=a.n) > 0).astype(float)


def loss(w: np.ndarray) -> float:
    z = X @ w[:5] + w[5]
    if a.task == "reg":
        return float(np.mean((z - y) ** 2))
    if a.task == "cls":
        return float(np.mean(np.logaddexp(0, z) - y * z))
    with np.errstate(all="ignore"):
        p = 1 / (1 + np.exp(-z))
        return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


problem = {"obj_func": loss, "bounds": FloatVar(lb=(-a.bound,) * 6, ub=(a.bound,) * 6), "minmax": "min"}
model = {"pso": lambda: PSO.OriginalPSO(epoch=a.epochs, pop_size=a.pop),
         "de": lambda: DE.OriginalDE(epoch=a.epochs, pop_size=a.pop),
         "ga": lambda: GA.BaseGA(epoch=a.epochs, pop_size=a.pop),
         "woa": lambda: WOA.OriginalWOA(epoch=a.epochs, pop_size=a.pop),
         "gwo": lambda: GWO.OriginalGWO(epoch=a.epochs, pop_size=a.pop)}[a.optimizer]()
best = model.solve(problem, seed=1)
print(f"Solution: {best.solution}, Fitness: {best.target.fitness}", flush=True)

h = model.history
write_truth(framework=f"mealpy {mealpy.__version__}", settings=vars(a),
            loss_name="Current best (the epoch population's best fitness: MSE)" if a.task == "reg"
            else "Current best (the epoch population's best fitness: log loss)",
            step_unit="epoch, 1-based (`Epoch: N`)", tolerance=tol_sig(12),
            record="the optimizer's `model.history.list_current_best_fit` (and `list_global_best_fit`)",
            train_loss=[(i + 1, v) for i, v in enumerate(h.list_current_best_fit)],
            eval_loss=[(i + 1, v) for i, v in enumerate(h.list_global_best_fit)], eval_name="Global best")
