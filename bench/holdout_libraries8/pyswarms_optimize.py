"""pyswarms: ``GlobalBestPSO`` or ``LocalBestPSO`` minimising one of its own benchmark functions
(``pyswarms.utils.functions.single_obj``: sphere, rastrigin, rosenbrock) or the mean squared error of a small linear
model's weights on a synthetic table, with ``optimize(f, iters)`` as its quick-start shows (``verbose`` left at its
default). Its reporter logs ``Optimize for N iters with {...}`` and ``Optimization finished | best cost: ...``
(``logging``, stderr, and its own file ``report.log`` in the working directory), and draws a tqdm bar on stderr
whose postfix is redrawn at every iteration: ``\\rpyswarms.single.global_best:   0%|          |0/300, best_cost=30.7``
(tqdm's ``{:.3g}``); the bar's own ``n/N`` counter is refreshed by tqdm's clock (every 0.1 s), so it lags the
iterations. Truth: the optimizer's ``cost_history`` (the swarm's best cost after each iteration) at the iteration,
1-based: the n-th ``best_cost=`` redraw is iteration n (the closing redraw ``N/N`` repeats the last)."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from h8_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--objective", default="sphere", choices=["sphere", "rastrigin", "rosenbrock", "linreg"])
ap.add_argument("--topology", default="global", choices=["global", "local"])
ap.add_argument("--particles", type=int, default=30)
ap.add_argument("--dims", type=int, default=5)
ap.add_argument("--iters", type=int, default=100)
ap.add_argument("--c1", type=float, default=0.5)
ap.add_argument("--c2", type=float, default=0.3)
ap.add_argument("--w", type=float, default=0.9)
ap.add_argument("--n", type=int, default=2000, help="rows of the linreg table")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import pyswarms as ps  # noqa: E402
from pyswarms.utils.functions import single_obj as fx  # noqa: E402

if a.objective == "linreg":
    rng = np.random.default_rng(0)
    X = rng.normal(size=(a.n, a.dims))
    y = X @ rng.normal(size=a.dims) + 0.1 * rng.normal(size=a.n)

    def f(pos):  # one cost per particle: the mean squared error of its weights
        return ((pos @ X.T - y) ** 2).mean(axis=1)
else:
    f = getattr(fx, a.objective)

options = {"c1": a.c1, "c2": a.c2, "w": a.w}
if a.topology == "local":
    options.update(k=3, p=2)
    opt = ps.single.LocalBestPSO(n_particles=a.particles, dimensions=a.dims, options=options)
else:
    opt = ps.single.GlobalBestPSO(n_particles=a.particles, dimensions=a.dims, options=options)
cost, pos = opt.optimize(f, iters=a.iters)

if Path("report.log").is_file():
    keep("report.log")
write_truth(framework=f"pyswarms {version('pyswarms')}", settings=vars(a), loss_name="best_cost",
            step_unit="iteration, 1-based (the n-th `best_cost=` redraw of the bar; its `n/N` counter lags)",
            tolerance=tol_sig(3), record="the optimizer's `cost_history` (the swarm's best cost after each iteration)",
            train_loss=[(i + 1, float(c)) for i, c in enumerate(opt.cost_history)])
