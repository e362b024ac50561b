"""scikit-opt: its particle swarm (``sko.PSO.PSO``) minimising one of its own test functions (``sko.demo_func``), with
``verbose=True`` as its README shows. Each iteration prints on stdout (block-buffered into the file) ``Iter: 12, Best
fit: [0.01234567] at [[ 0.01 -0.02]]`` (the best value so far as numpy prints a 1-element array, 8 decimals or
scientific). Truth: the swarm's own ``gbest_y_hist`` (the best value so far after each iteration), at ``Iter``,
0-based."""

from __future__ import annotations

import argparse

import numpy as np
from h45_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--func", default="sphere", choices=["sphere", "schaffer", "rastrigin", "rosenbrock", "griewank"])
ap.add_argument("--dim", type=int, default=3)
ap.add_argument("--pop", type=int, default=40)
ap.add_argument("--iters", type=int, default=60)
ap.add_argument("--w", type=float, default=0.8)
ap.add_argument("--c1", type=float, default=0.5)
ap.add_argument("--c2", type=float, default=0.5)
ap.add_argument("--bound", type=float, default=5.0)
ap.add_argument("--constraint", action="store_true", help="the inequality constraint x0 + x1 >= 1")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
np.random.seed(1)

from importlib.metadata import version  # noqa: E402

from sko import demo_func  # noqa: E402
from sko.PSO import PSO  # noqa: E402

funcs = {"sphere": demo_func.sphere, "schaffer": demo_func.schaffer, "rastrigin": demo_func.rastrigrin,
         "rosenbrock": demo_func.rosenbrock, "griewank": demo_func.griewank}
dim = 2 if a.func == "schaffer" else a.dim
ueq = (lambda x: 1 - x[0] - x[1],) if a.constraint else ()
pso = PSO(func=funcs[a.func], n_dim=dim, pop=a.pop, max_iter=a.iters, lb=[-a.bound] * dim, ub=[a.bound] * dim,
          w=a.w, c1=a.c1, c2=a.c2, constraint_ueq=ueq, verbose=True)
pso.run()
print("best_x is", pso.gbest_x, "best_y is", pso.gbest_y)

hist = [float(np.asarray(v).ravel()[0]) for v in pso.gbest_y_hist]
write_truth(framework=f"scikit-opt {version('scikit-opt')}", settings=vars(a), loss_name="Best fit",
            step_unit="iteration, 0-based (`Iter: N`)", tolerance={"rel": 5.1e-8, "abs": 5.1e-9},
            record="the swarm's `gbest_y_hist` (PSO.run)", train_loss=list(enumerate(hist)))
