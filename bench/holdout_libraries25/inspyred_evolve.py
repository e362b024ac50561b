"""inspyred: an evolutionary computation (``inspyred.ec.ES``, ``GA`` or ``DEA``) minimising one of its benchmarks
(``inspyred.benchmarks.Rosenbrock``, ``Sphere``, ``Rastrigin``: ``maximize=False``), observed as its tutorials do
with ``observer=[inspyred.ec.observers.stats_observer, inspyred.ec.observers.file_observer]``. ``stats_observer``
prints on stdout a header and a row after every generation (``Generation Evaluation      Worst       Best
Median    Average    Std Dev`` / a dashed line / ``         3        160  2436.7519  37.950226 ...`` then an empty
line: each value ``str(float)`` cut to 10 characters); ``file_observer`` writes the library's own statistics file
``inspyred-statistics-file-<date>.csv`` (``generation, population size, worst, best, median, average, std``, full
precision) and an individuals file. Truth: that statistics file's ``best`` (the best fitness of the population) at
its generation (0 = the initial population)."""

from __future__ import annotations

import argparse
import csv
import glob
import random

from h25_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algorithm", default="ES", choices=["ES", "GA", "DEA"])
ap.add_argument("--problem", default="Rosenbrock", choices=["Rosenbrock", "Sphere", "Rastrigin"])
ap.add_argument("--dim", type=int, default=5)
ap.add_argument("--pop", type=int, default=40)
ap.add_argument("--gen", type=int, default=30)
ap.add_argument("--stdev", type=float, default=None, help="gaussian mutation stdev")
ap.add_argument("--unbounded", action="store_true", help="no bounder: candidates may leave the domain")
ap.add_argument("--elites", type=int, default=None, help="GA: num_elites")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import inspyred  # noqa: E402

prng = random.Random(0)
problem = getattr(inspyred.benchmarks, a.problem)(a.dim)
ea = getattr(inspyred.ec, a.algorithm)(prng)
ea.terminator = inspyred.ec.terminators.generation_termination
ea.observer = [inspyred.ec.observers.stats_observer, inspyred.ec.observers.file_observer]
kw = {}
if a.stdev is not None:
    kw["gaussian_stdev"] = a.stdev
if a.elites is not None:
    kw["num_elites"] = a.elites
bounder = inspyred.ec.Bounder(None, None) if a.unbounded else problem.bounder
ea.evolve(generator=problem.generator, evaluator=problem.evaluator, pop_size=a.pop, bounder=bounder,
          maximize=problem.maximize, max_generations=a.gen, **kw)

stats = sorted(glob.glob("inspyred-statistics-file-*.csv"))[0]
for f in glob.glob("inspyred-*-file-*.csv"):
    if "statistics" in f:
        keep(f)
with open(stats) as fh:
    rows = [r for r in csv.reader(fh) if r]
write_truth(framework=f"inspyred {version('inspyred')} ({a.algorithm})", settings=vars(a),
            loss_name="Best (the population's best fitness, minimised)",
            step_unit="generation, 0 = the initial population (the `Generation` column)",
            tolerance={"rel": 1e-7, "abs": 1e-7},
            record="inspyred's file_observer statistics file (`best` at `generation`)",
            train_loss=[(int(r[0]), float(r[3])) for r in rows])
