"""NiaPy: one of its nature-inspired algorithms (``ParticleSwarmAlgorithm``, ``DifferentialEvolution``,
``GreyWolfOptimizer``, ``ArtificialBeeColonyAlgorithm``, ``FireflyAlgorithm``) on one of its own problems
(``Sphere``, ``Rastrigin``, ``Ackley``), with its ``Task(..., enable_logging=True)`` as its docs show. The task logs
each improvement of the best fitness through the logging module's basic format on stderr:
``INFO:niapy.task.Task:evals:38 => 48.024095124367044`` (``%s`` of the float). Truth: the task's own record of those
improvements (``Task.n_evals`` and ``Task.fitness_evals``), at the evaluation count the log prints."""

from __future__ import annotations

import argparse

from h28_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algo", default="pso", choices=["pso", "de", "gwo", "abc", "fa"])
ap.add_argument("--problem", default="sphere", choices=["sphere", "rastrigin", "ackley"])
ap.add_argument("--dim", type=int, default=10)
ap.add_argument("--evals", type=int, default=600)
ap.add_argument("--pop", type=int, default=20)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

from niapy.algorithms.basic import (  # noqa: E402
    ArtificialBeeColonyAlgorithm,
    DifferentialEvolution,
    FireflyAlgorithm,
    GreyWolfOptimizer,
    ParticleSwarmAlgorithm,
)
from niapy.problems import Ackley, Rastrigin, Sphere  # noqa: E402
from niapy.task import Task  # noqa: E402

problem = {"sphere": Sphere, "rastrigin": Rastrigin, "ackley": Ackley}[a.problem](dimension=a.dim)
task = Task(problem=problem, max_evals=a.evals, enable_logging=True)
algo = {"pso": ParticleSwarmAlgorithm, "de": DifferentialEvolution, "gwo": GreyWolfOptimizer,
        "abc": ArtificialBeeColonyAlgorithm, "fa": FireflyAlgorithm}[a.algo](population_size=a.pop, seed=a.seed)
best_x, best_f = algo.run(task)
print(f"{algo.Name[0]} on {problem.name()}: best fitness {best_f} after {task.evals} evaluations, {task.iters} "
      "iterations")

write_truth(framework=f"niapy {version('niapy')}", settings=vars(a), loss_name="best fitness",
            step_unit="function evaluations (`evals:N`, at each improvement)", tolerance=tol_sig(12),
            record="the task's own record of its improvements (`Task.n_evals`, `Task.fitness_evals`)",
            train_loss=[(int(n), float(f)) for n, f in zip(task.n_evals, task.fitness_evals, strict=True)])
