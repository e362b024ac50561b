"""pygmo: a population evolved by one of its algorithms (``cmaes``, ``xnes``, ``de``, ``sade``, ``pso``, ``sga``) on
one of its test problems (``rosenbrock``, ``ackley``, ``rastrigin``), with ``algo.set_verbosity(n)`` as its tutorials
do. pagmo then prints on stdout (from C++) the algorithm's parameters and a table, a row every ``n`` generations:
``   Gen:        Fevals:          Best:            dx:            df:         sigma:`` / ``      1              0
6977.84        16.7389    2.53329e+06            0.5`` (``gbest:`` for ``pso``, ``F:  CR:`` for ``sade``,
``Improvement:`` for ``sga``), then ``Exit condition -- generations = 60``. Truth: the algorithm's own log,
``algo.extract(...).get_log()`` (one tuple per printed row: generation, evaluations, best fitness, ...), ``Best`` (the
best fitness in the population at that generation) at its generation number."""

from __future__ import annotations

import argparse

from h25_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algorithm", default="cmaes", choices=["cmaes", "xnes", "de", "sade", "pso", "sga"])
ap.add_argument("--problem", default="rosenbrock", choices=["rosenbrock", "ackley", "rastrigin"])
ap.add_argument("--dim", type=int, default=5)
ap.add_argument("--pop", type=int, default=20)
ap.add_argument("--gen", type=int, default=60)
ap.add_argument("--verbosity", type=int, default=1)
ap.add_argument("--sigma0", type=float, default=0.5)
ap.add_argument("--unbounded", action="store_true", help="cmaes / xnes: force_bounds=False")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import pygmo as pg  # noqa: E402

prob = pg.problem(getattr(pg, a.problem)(a.dim))
if a.algorithm == "cmaes":
    uda = pg.cmaes(gen=a.gen, sigma0=a.sigma0, force_bounds=not a.unbounded, seed=1)
elif a.algorithm == "xnes":
    uda = pg.xnes(gen=a.gen, sigma0=a.sigma0, force_bounds=not a.unbounded, seed=1)
else:
    uda = getattr(pg, a.algorithm)(gen=a.gen, seed=1)
algo = pg.algorithm(uda)
algo.set_verbosity(a.verbosity)
pop = pg.population(prob, a.pop, seed=1)
pop = algo.evolve(pop)
print("champion:", pop.champion_f)

log = algo.extract(type(uda)).get_log()
write_truth(framework=f"pygmo {version('pygmo')} ({a.algorithm})", settings=vars(a),
            loss_name="Best (gbest for pso)", step_unit="generation, 1-based (the `Gen:` column)",
            tolerance=tol_sig(6), record="the algorithm's own log, `algo.extract(...).get_log()` (gen, best)",
            train_loss=[(row[0], row[2]) for row in log])
