"""pycma 4.5 (``cma``): CMA-ES evolving the weights of a small numpy network on a regression task (the MSE).

The docs' ask-and-tell loop (``es = cma.CMAEvolutionStrategy(x0, sigma0, opts)``; ``while not es.stop(): X =
es.ask(); es.tell(X, [f(x) for x in X]); es.logger.add(); es.disp()``) or ``cma.fmin2``. Its display: a banner
``(6_w,12)-aCMA-ES (mu_w=3.7,w_1=40%) in dimension 49 (seed=1, ...)``, a header ``Iterat #Fevals   function value
axis ratio  sigma  min&max std  t[m:s]`` repeated every ten displays, then rows (iterations 1-3, every
``verb_disp``-th, and whenever a second has passed): the iteration, the evaluations, the iteration's best value as
``%.15e``. ``es.logger`` writes ``outcmaes/fit.dat`` (a store: ``% # columns="iteration, evaluation, sigma, axis
ratio, bestever, best, median, worst ..."`` then one row an iteration). Truth: the iteration's best (``min(es.fit
.fit)``) at the iterations the display printed; for ``fit.dat``, its ``best`` column at every iteration.
"""

from __future__ import annotations

import argparse
import shutil

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--iters", type=int, default=150)
ap.add_argument("--popsize", type=int, default=12)
ap.add_argument("--sigma0", type=float, default=0.5)
ap.add_argument("--verb-disp", type=int, default=10)
ap.add_argument("--sigma-boost", type=float, default=1.0, help="es.sigma multiplied by this after each tell")
ap.add_argument("--store", action="store_true", help="keep outcmaes/fit.dat as a store entry")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import cma  # noqa: E402
import numpy as np  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(128, 4))
y = np.sin(X[:, 0]) + 0.5 * X[:, 1] * X[:, 2] + 0.1 * rng.normal(size=128)
H = 8


def loss(w) -> float:
    w = np.asarray(w, dtype=float)
    w1, b1 = w[: 4 * H].reshape(4, H), w[4 * H: 5 * H]
    w2, b2 = w[5 * H: 6 * H], w[6 * H]
    with np.errstate(all="ignore"):
        return float(np.mean((np.maximum(X @ w1 + b1, 0.0) @ w2 + b2 - y) ** 2))


n = 6 * H + 1
shutil.rmtree("outcmaes", ignore_errors=True)
es = cma.CMAEvolutionStrategy(n * [0.0], a.sigma0, {"popsize": a.popsize, "seed": 1, "maxiter": a.iters,
                                                    "verb_disp": a.verb_disp, "verb_disp_overwrite": 0})
printed: list[tuple[int, float]] = []
every: list[tuple[int, float]] = []
while not es.stop():
    sols = es.ask()
    es.tell(sols, [loss(x) for x in sols])
    if a.sigma_boost != 1.0:
        # a bug: a restart heuristic meant to widen the search once, applied after every generation
        es.sigma *= a.sigma_boost
    es.logger.add()
    shown = getattr(es, "times_displayed", 0)
    es.disp()
    every.append((es.countiter, min(es.fit.fit)))
    if getattr(es, "times_displayed", 0) > shown:
        printed.append(every[-1])
es.result_pretty()
common = dict(framework="cma es", settings=vars(a), label=a.label, should_stop=a.should_stop,
              loss_name="function value", step_unit="iteration, 1-based (es.countiter)",
              tolerance={"rel": 1e-13, "abs": 1e-300})
write_truth(**common, record="min(es.fit.fit) at the iterations es.disp() printed", train_loss=printed)
if a.store:
    keep("outcmaes/fit.dat", "outcmaes/fit.dat")
    write_truth(name="truth_store.json", **{**common, "loss_name": "best"},
                record="outcmaes/fit.dat's best column (the iteration's best f)", train_loss=every)
    store_entry("outcmaes/fit.dat", "truth_store.json")
