"""DEAP 1.4: evolving the weights of a small numpy network on a regression task (its loss, the MSE, minimised).

The tutorials' way: a ``creator.FitnessMin`` individual holding the flat weights, ``tools.Statistics`` over the
fitness (``avg``, ``std``, ``min``, ``max``) and ``algorithms.eaSimple`` / ``eaMuPlusLambda`` with ``verbose=True``
(its ``Logbook`` printed as it grows: a tab-separated header ``gen nevals avg std min max`` then one row a
generation), or a ``tools.MultiStatistics`` (a chapter per statistic: a two-row header, the chapter names over their
columns), or DEAP's CMA-ES (``cma.Strategy`` with ``eaGenerateUpdate``). Truth: the logbook's ``min`` (or the
``fitness`` chapter's ``min``) at its ``gen`` (0 = the initial population).
"""

from __future__ import annotations

import argparse
import random

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algo", default="simple", choices=["simple", "mupluslambda", "cma"])
ap.add_argument("--stats", default="single", choices=["single", "multi"])
ap.add_argument("--gens", type=int, default=40)
ap.add_argument("--pop", type=int, default=40)
ap.add_argument("--sigma", type=float, default=0.1)
ap.add_argument("--mutpb", type=float, default=0.3)
ap.add_argument("--sigma-growth", type=float, default=1.0, help="the mutation's sigma multiplied by this each gen")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
from deap import algorithms, base, cma, creator, tools  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(128, 4))
y = np.sin(X[:, 0]) + 0.5 * X[:, 1] * X[:, 2] + 0.1 * rng.normal(size=128)
H = 8
N = 4 * H + H + H + 1  # a 4-8-1 network with a ReLU: its flat weights


def loss(ind) -> tuple[float]:
    w = np.asarray(ind, dtype=float)
    w1, b1 = w[: 4 * H].reshape(4, H), w[4 * H: 5 * H]
    w2, b2 = w[5 * H: 6 * H], w[6 * H]
    with np.errstate(all="ignore"):
        pred = np.maximum(X @ w1 + b1, 0.0) @ w2 + b2
        return (float(np.mean((pred - y) ** 2)),)


creator.create("FitnessMin", base.Fitness, weights=(-1.0,))
creator.create("Individual", list, fitness=creator.FitnessMin)
tb = base.Toolbox()
tb.register("evaluate", loss)
fit = tools.Statistics(lambda ind: ind.fitness.values)
if a.stats == "multi":
    norm = tools.Statistics(lambda ind: float(np.linalg.norm(ind)))
    stats = tools.MultiStatistics(fitness=fit, wnorm=norm)
else:
    stats = fit
stats.register("avg", np.mean)
stats.register("std", np.std)
stats.register("min", np.min)
stats.register("max", np.max)

sigma = [a.sigma]
if a.algo == "cma":
    strategy = cma.Strategy(centroid=[0.0] * N, sigma=a.sigma, lambda_=a.pop)
    tb.register("generate", strategy.generate, creator.Individual)
    tb.register("update", strategy.update)
    pop, book = algorithms.eaGenerateUpdate(tb, ngen=a.gens, stats=stats, verbose=True)
else:
    tb.register("attr", random.gauss, 0.0, 0.5)
    tb.register("individual", tools.initRepeat, creator.Individual, tb.attr, n=N)
    tb.register("population", tools.initRepeat, list, tb.individual)
    tb.register("mate", tools.cxBlend, alpha=0.3)

    def mutate(ind):
        return tools.mutGaussian(ind, mu=0.0, sigma=sigma[0], indpb=0.2)

    tb.register("mutate", mutate)
    tb.register("select", tools.selTournament, tournsize=3)
    pop = tb.population(n=a.pop)
    if a.sigma_growth != 1.0:
        # a schedule bug: the mutation's step meant to shrink by 0.9 a generation, written as a growth
        orig = tb.select

        def select(individuals, k):
            sigma[0] *= a.sigma_growth
            return orig(individuals, k)

        tb.register("select", select)
    if a.algo == "simple":
        pop, book = algorithms.eaSimple(pop, tb, cxpb=0.5, mutpb=a.mutpb, ngen=a.gens, stats=stats,
                                         verbose=True)
    else:
        pop, book = algorithms.eaMuPlusLambda(pop, tb, mu=a.pop, lambda_=a.pop, cxpb=0.5, mutpb=a.mutpb, ngen=a.gens,
                                              stats=stats, verbose=True)

mins = book.chapters["fitness"].select("min") if a.stats == "multi" else book.select("min")
gens = book.select("gen")
write_truth(framework=f"deap {a.algo}", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="min", step_unit="generation, 0 = the initial population (the logbook's gen)",
            tolerance={"rel": 1e-5, "abs": 1e-12},
            record="the Logbook's min of the fitness (the MSE of the evolved network's weights)",
            train_loss=list(zip(gens, mins, strict=True)))
