"""EvoX (PyTorch): a single-objective algorithm on a numerical test problem under ``StdWorkflow`` with an
``EvalMonitor``, run as EvoX's quick start does (``workflow.init_step()``, then ``workflow.step()`` in a loop), the
user printing the monitor's output every ``--print-every`` generations, one of two ways:
- ``--show best``: ``print(monitor.get_best_fitness())``, the best fitness so far as PyTorch prints a tensor
  (``tensor(3.1416)``, ``tensor(1.2346e-05)``: 4 decimals, scientific when small), after ``gen N`` on the line;
- ``--show latest``: the generation's own fitnesses from ``monitor.get_latest_fitness()``, as
  ``gen 20: min 1.234567 mean 4.567890`` (``{:.6f}``).
Truth: the monitor's own record, ``EvalMonitor(full_fit_history=True).fitness_history`` (one tensor of the
population's fitness per evaluation: the ``init_step``'s, then one per ``step``), at the generation (0 = the
``init_step``, N = after N steps): its minimum for ``latest``, its running minimum for ``best``."""

from __future__ import annotations

import argparse
import math
from importlib.metadata import version

import torch
from h31_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algorithm", default="PSO", choices=["PSO", "DE", "OpenES", "CSO"])
ap.add_argument("--problem", default="Ackley", choices=["Ackley", "Rastrigin", "Sphere", "Rosenbrock", "Griewank"])
ap.add_argument("--dim", type=int, default=10)
ap.add_argument("--pop", type=int, default=50)
ap.add_argument("--generations", type=int, default=100)
ap.add_argument("--lr", type=float, default=0.05, help="OpenES learning rate")
ap.add_argument("--sigma", type=float, default=1.0, help="OpenES noise scale")
ap.add_argument("--show", default="best", choices=["best", "latest"])
ap.add_argument("--print-every", type=int, default=10)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from evox import algorithms  # noqa: E402
from evox.problems import numerical  # noqa: E402
from evox.workflows import EvalMonitor, StdWorkflow  # noqa: E402

lb, ub = -10 * torch.ones(a.dim), 10 * torch.ones(a.dim)
if a.algorithm == "OpenES":
    algo = algorithms.OpenES(pop_size=a.pop, center_init=torch.full((a.dim,), 5.0), learning_rate=a.lr,
                             noise_stdev=a.sigma)
else:
    algo = getattr(algorithms, a.algorithm)(pop_size=a.pop, lb=lb, ub=ub)
prob = getattr(numerical, a.problem)()
monitor = EvalMonitor(full_fit_history=True)
workflow = StdWorkflow(algo, prob, monitor=monitor)


def show(gen: int) -> None:
    if a.show == "best":
        print(f"gen {gen}", monitor.get_best_fitness())
    else:
        fit = monitor.get_latest_fitness()
        print(f"gen {gen}: min {fit.min().item():.6f} mean {fit.mean().item():.6f}")


workflow.init_step()
show(0)
for gen in range(1, a.generations + 1):
    workflow.step()
    if gen % a.print_every == 0:
        show(gen)

hist = [h.min().item() for h in monitor.fitness_history]
if a.show == "best":
    best, run_min = math.inf, []
    for v in hist:
        best = v if math.isnan(v) else min(best, v)
        run_min.append(best)
    hist = run_min
points = [(g, v) for g, v in enumerate(hist) if g % a.print_every == 0]
write_truth(framework=f"evox {version('evox')}", settings=vars(a),
            loss_name="best fitness so far" if a.show == "best" else "the generation's minimum fitness",
            step_unit="generation (0 = the init_step's evaluation, N = after N steps; the printed `gen N`)",
            tolerance=({"rel": 0.51e-4, "abs": 0.51e-4} if a.show == "best" else tol_decimals(6)),
            record="the EvalMonitor's fitness_history (full_fit_history=True): "
                   + ("its running minimum" if a.show == "best" else "each generation's minimum"),
            train_loss=points)
