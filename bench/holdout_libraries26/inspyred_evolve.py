"""inspyred: an evolutionary computation minimising a benchmark function (``inspyred.benchmarks``: Rastrigin,
Rosenbrock, Ackley), logged as its own examples log: ``ea.observer = [ec.observers.stats_observer,
ec.observers.file_observer]``. ``stats_observer`` prints on stdout, every generation, its header and one row
(``Generation Evaluation      Worst       Best     Median    Average    Std Dev`` / dashes / the values right-aligned in
10 characters and cut to 10: ``str(value)[:10]``, not rounded) and a blank line; ``file_observer`` writes its
statistics file (``generation, pop size, worst, best, median, average, std dev``, full precision; kept, named as its
default ``inspyred-statistics-file-<date>.csv``) and its individuals file (not kept). Truth: the statistics file's
``best`` (the population's best fitness, minimised) at its generation (0-based: the initial population)."""

from __future__ import annotations

import argparse
import csv
import glob
import random

from h26_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algorithm", default="ga", choices=["ga", "es", "dea"])
ap.add_argument("--problem", default="rastrigin", choices=["rastrigin", "rosenbrock", "ackley"])
ap.add_argument("--dims", type=int, default=10)
ap.add_argument("--pop", type=int, default=40)
ap.add_argument("--generations", type=int, default=30)
ap.add_argument("--mutation-rate", type=float, default=0.2)
ap.add_argument("--stdev", type=float, default=0.5, help="gaussian_stdev of the mutation")
ap.add_argument("--elites", type=int, default=1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import inspyred  # noqa: E402
from inspyred import ec  # noqa: E402

prng = random.Random(0)
problem = {"rastrigin": inspyred.benchmarks.Rastrigin, "rosenbrock": inspyred.benchmarks.Rosenbrock,
           "ackley": inspyred.benchmarks.Ackley}[a.problem](a.dims)
if a.algorithm == "es":
    ea = ec.ES(prng)
elif a.algorithm == "dea":
    ea = ec.DEA(prng)
else:
    ea = ec.EvolutionaryComputation(prng)
    ea.selector = ec.selectors.tournament_selection
    ea.variator = [ec.variators.blend_crossover, ec.variators.gaussian_mutation]
    ea.replacer = ec.replacers.generational_replacement
ea.terminator = ec.terminators.generation_termination
ea.observer = [ec.observers.stats_observer, ec.observers.file_observer]
final = ea.evolve(generator=problem.generator, evaluator=problem.evaluator, pop_size=a.pop, maximize=False,
                  bounder=problem.bounder, max_generations=a.generations, mutation_rate=a.mutation_rate,
                  gaussian_stdev=a.stdev, num_elites=a.elites, tournament_size=3,
                  num_selected=a.pop)
stats_file = sorted(glob.glob("inspyred-statistics-file-*.csv"))[0]
rows = list(csv.reader(open(stats_file)))
keep(stats_file)
write_truth(framework=f"inspyred {inspyred.__version__}", settings=vars(a), loss_name="Best",
            step_unit="generation, 0-based (the `Generation` column; 0 is the initial population)",
            tolerance={"rel": 1e-05, "sig": 6},
            record="its file_observer's statistics file (`best` at `generation`)",
            train_loss=[(int(r[0]), float(r[3])) for r in rows])
