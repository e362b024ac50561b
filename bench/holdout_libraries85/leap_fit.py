"""leap-ec: evolve the weights of a tiny regression model (a linear model, or a 1-hidden-layer tanh MLP) on synthetic
data, minimising its mean squared error, with LEAP's `generational_ea` (tournament selection, clone, optional uniform
crossover, Gaussian mutation, evaluate, pool; `k_elites` elites), or, for a mutation width that grows every
generation, the loop LEAP's docs show for a tailored EA (`util.inc_generation` and `toolz.pipe` over the same
operators, the mutation rebuilt each generation). Its `probe.FitnessStatsCSVProbe(stream=sys.stdout)` prints the
progress as LEAP's examples do (a CSV row a generation: `step, bsf, mean_fitness, std_fitness, min_fitness,
max_fitness`, `str()` of numpy floats; optional `job`, `notes`, `extra_metrics` columns, `modulo`, `comment`). A
second `FitnessStatsCSVProbe` in the same pipeline writes the same rows to `fitness_stats.csv` (kept). Truth: that
file's `mean_fitness` (the offspring population's mean MSE) at its `step` (the generation)."""

from __future__ import annotations

import argparse
import csv
import sys
from typing import Any

import numpy as np
from h85_truth import keep, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="linear", choices=["linear", "mlp"])
ap.add_argument("--generations", type=int, default=30)
ap.add_argument("--pop", type=int, default=20)
ap.add_argument("--std", type=float, default=0.1)
ap.add_argument("--std-growth", type=float, default=1.0)
ap.add_argument("--mutations", default="isotropic", help="expected number of mutated genes, or isotropic")
ap.add_argument("--crossover", type=float, default=0.0, help="uniform crossover p_swap (0: none)")
ap.add_argument("--tournament", type=int, default=2)
ap.add_argument("--elites", type=int, default=1)
ap.add_argument("--modulo", type=int, default=1)
ap.add_argument("--job", default=None)
ap.add_argument("--median", action="store_true", help="an extra_metrics median_fitness column")
ap.add_argument("--comment", default=None)
ap.add_argument("--n", type=int, default=200)
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()

import random  # noqa: E402

import leap_ec  # noqa: E402
from leap_ec import Representation, ops, probe, util  # noqa: E402
from leap_ec.algorithm import generational_ea  # noqa: E402
from leap_ec.global_vars import context  # noqa: E402
from leap_ec.problem import FunctionProblem  # noqa: E402
from leap_ec.real_rep.initializers import create_real_vector  # noqa: E402
from leap_ec.real_rep.ops import mutate_gaussian  # noqa: E402
from toolz import pipe  # noqa: E402

random.seed(a.seed)
np.random.seed(a.seed)
rng = np.random.default_rng(a.seed)
D, H = 5, 4
X = rng.normal(size=(a.n, D))
if a.model == "linear":
    y = X @ rng.normal(size=D) + 0.5 + 0.1 * rng.normal(size=a.n)
    n_genes = D + 1
else:
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1] * X[:, 2] + 0.1 * rng.normal(size=a.n)
    n_genes = D * H + H + H + 1


def mse(w: np.ndarray) -> float:
    if a.model == "linear":
        pred = X @ w[:D] + w[D]
    else:
        W1 = w[: D * H].reshape(D, H)
        b1 = w[D * H: D * H + H]
        w2 = w[D * H + H: D * H + 2 * H]
        pred = np.tanh(X @ W1 + b1) @ w2 + w[-1]
    return float(np.mean((pred - y) ** 2))


problem = FunctionProblem(mse, maximize=False)
representation = Representation(initialize=create_real_vector(bounds=[(-1.0, 1.0)] * n_genes))
muts: int | str = a.mutations if a.mutations == "isotropic" else int(a.mutations)
extra = {"median_fitness": lambda pop: np.median([ind.fitness for ind in pop])} if a.median else None
notes = {"model": a.model} if a.job else None
kw: dict[str, Any] = dict(job=a.job, notes=notes, extra_metrics=extra, modulo=a.modulo, comment=a.comment)
stats_file = open("fitness_stats.csv", "w")
stdout_probe = probe.FitnessStatsCSVProbe(stream=sys.stdout, **kw)
file_probe = probe.FitnessStatsCSVProbe(stream=stats_file, **kw)


def pipeline(std: float) -> list:
    ops_: list = [ops.tournament_selection(k=a.tournament), ops.clone]
    if a.crossover > 0:
        ops_.append(ops.UniformCrossover(p_swap=a.crossover))
    ops_ += [mutate_gaussian(std=std, expected_num_mutations=muts), ops.evaluate, ops.pool(size=a.pop),
             stdout_probe, file_probe]
    return ops_


if a.std_growth == 1.0:
    final = generational_ea(max_generations=a.generations, pop_size=a.pop, problem=problem,
                            representation=representation, pipeline=pipeline(a.std), k_elites=a.elites)
else:  # LEAP's tailored loop: the same operators, the mutation width multiplied every generation
    parents = representation.create_population(a.pop, problem=problem)
    counter = util.inc_generation(context=context)
    parents = leap_ec.Individual.evaluate_population(parents)
    while counter.generation() < a.generations:
        std = a.std * a.std_growth ** counter.generation()
        offspring = pipe(parents, *pipeline(std), ops.elitist_survival(parents=parents, k=a.elites))
        parents = offspring
        counter()
    final = parents
stats_file.close()
print("best:", max(final))

with open("fitness_stats.csv") as f:
    rows = [r for r in csv.reader(f, skipinitialspace=True) if r and not r[0].startswith("#")]
head, body = rows[0], rows[1:]
col = {name.strip(): i for i, name in enumerate(head)}
train = [(int(r[col["step"]]), r[col["mean_fitness"]]) for r in body]
keep("fitness_stats.csv")
write_truth(framework=f"leap-ec {leap_ec.__version__}", settings=vars(a), loss_name="mean_fitness",
            step_unit="generation, 0-based (the `step` column; with `modulo` N only every Nth)",
            tolerance={"rel": 1e-9, "abs": 0.0},
            record="the `mean_fitness` column of a second `FitnessStatsCSVProbe` in the pipeline, writing to "
                   "`fitness_stats.csv` (the population's mean MSE)",
            train_loss=[(s, float(v)) for s, v in train],
            bsf=[(int(r[col["step"]]), float(r[col["bsf"]])) for r in body])
