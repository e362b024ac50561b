"""geneticalgorithm2: its ``GeneticAlgorithm2`` minimising a small synthetic function (sphere, Rastrigin, or a
least-squares fit of a line to synthetic points), run as its README shows (``model.run(no_plot=True, ...)``). Its
progress bar goes to stdout, one ``\\r`` redraw a generation: ``|||___ 10.0% GA is running...3 gen from 30...best
value = 3.60455145267318`` (``repr`` of the float), after ``Best score before optimization: ...`` and before
``The best found solution:`` and ``Objective function:``. Truth: the model's own ``report`` list (the best score of
each generation), at the generation as the bar counts it (1-based, ``N gen from M``)."""

from __future__ import annotations

import argparse

import numpy as np
from h28_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--func", default="sphere", choices=["sphere", "rastrigin", "lstsq"])
ap.add_argument("--dim", type=int, default=5)
ap.add_argument("--iters", type=int, default=30)
ap.add_argument("--pop", type=int, default=40)
ap.add_argument("--mutation", type=float, default=0.1)
ap.add_argument("--elit", type=float, default=0.01)
ap.add_argument("--var-type", default="real", choices=["real", "int"])
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

from geneticalgorithm2 import GeneticAlgorithm2  # noqa: E402

rng = np.random.default_rng(0)
xs = rng.uniform(-3, 3, size=50)
ys = 1.7 * xs - 0.4 + rng.normal(scale=0.3, size=50)


def f(x: np.ndarray) -> float:
    if a.func == "sphere":
        return float(np.sum(x ** 2))
    if a.func == "rastrigin":
        return float(10 * len(x) + np.sum(x ** 2 - 10 * np.cos(2 * np.pi * x)))
    pred = x[0] * xs + x[1] + (x[2:] * 0.0).sum()
    return float(np.mean((pred - ys) ** 2))


model = GeneticAlgorithm2(dimension=a.dim, variable_type=a.var_type,
                          variable_boundaries=np.array([[-10, 10]] * a.dim),
                          algorithm_parameters={"max_num_iteration": a.iters, "population_size": a.pop,
                                                "mutation_probability": a.mutation, "elit_ratio": a.elit})
result = model.run(function=f, no_plot=True, seed=a.seed)

# the bar prints generations 1 .. M-1 (the last redraw says "STOP! limit of iterations" instead)
report = [float(v) for v in model.report][: a.iters - 1]
write_truth(framework=f"geneticalgorithm2 {version('geneticalgorithm2')}", settings=vars(a), loss_name="best value",
            step_unit="generation, 1-based (`N gen from M`)", tolerance=tol_sig(12),
            record="the model's own `report` list (best score of each generation)",
            train_loss=[(i + 1, v) for i, v in enumerate(report)])
