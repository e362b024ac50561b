"""gplearn: a ``SymbolicRegressor`` or ``SymbolicClassifier`` (genetic programming) fitted with ``verbose=1`` on a
small synthetic table, as its examples do (settings: population, generations, metric, function set, parsimony,
subsampling). Its verbose reporter prints on stdout a table, one row per generation (0-based): ``Gen  Length
Fitness  Length  Fitness  OOB Fitness  Time Left`` under ``|   Population Average    |   Best Individual   |``,
e.g. ``   3     9.87          1.04248       23         0.266928         0.301853      0.78s`` (``{:16g}``: 6
significant digits; the OOB column blank without subsampling). The loss is the best individual's fitness (the raw
fitness on the in-bag samples: the metric, lower is better). Truth: the estimator's ``run_details_`` dict
(``best_fitness`` at ``generation``)."""

from __future__ import annotations

import argparse

import numpy as np
from h7_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--population", type=int, default=500)
ap.add_argument("--generations", type=int, default=10)
ap.add_argument("--metric", default="mean absolute error")
ap.add_argument("--functions", default="add,sub,mul,div")
ap.add_argument("--parsimony", type=float, default=0.001)
ap.add_argument("--max-samples", type=float, default=1.0)
ap.add_argument("--n", type=int, default=200)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

from gplearn.genetic import SymbolicClassifier, SymbolicRegressor  # noqa: E402

rng = np.random.default_rng(0)
X = rng.uniform(-1, 1, size=(a.n, 3))
common = dict(population_size=a.population, generations=a.generations, function_set=tuple(a.functions.split(",")),
              parsimony_coefficient=a.parsimony, max_samples=a.max_samples, verbose=1, random_state=0, n_jobs=1)
if a.task == "reg":
    y = X[:, 0] ** 2 - X[:, 1] ** 2 + X[:, 1] - 1 + 0.05 * rng.normal(size=a.n)
    est = SymbolicRegressor(metric=a.metric, **common)
else:
    y = (X[:, 0] * X[:, 1] - 0.5 * X[:, 2] + 0.3 * rng.normal(size=a.n) > 0).astype(int)
    est = SymbolicClassifier(metric="log loss", **common)
est.fit(X, y)

d = est.run_details_
write_truth(framework=f"gplearn {version('gplearn')}", settings=vars(a), loss_name="Best Individual Fitness",
            step_unit="generation, 0-based (the `Gen` column)", tolerance=tol_sig(6),
            record="the estimator's `run_details_` (`best_fitness` at `generation`)",
            train_loss=list(zip(d["generation"], d["best_fitness"], strict=True)))
