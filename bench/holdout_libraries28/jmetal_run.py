"""jMetalPy: a single-objective ``GeneticAlgorithm``, ``EvolutionStrategy`` or ``SimulatedAnnealing`` on one of its
own benchmark problems (``Sphere``, ``Rastrigin``), with its ``PrintObjectivesObserver(frequency)`` as its examples
register it. The observer logs through jMetalPy's own logger (``[date] [jmetal] [INFO] Evaluations: 80. fitness:
[20.87826576882258]``: ``repr`` of the float, full precision), with the algorithm's DEBUG lines. Truth: what the
algorithm hands its observers (``SOLUTIONS``' objective at ``EVALUATIONS``), recorded by an observer of our own
registered beside the printing one, at the evaluations the printing one prints (every ``frequency``)."""

from __future__ import annotations

import argparse

from h28_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algo", default="ga", choices=["ga", "es", "sa"])
ap.add_argument("--problem", default="sphere", choices=["sphere", "rastrigin"])
ap.add_argument("--vars", type=int, default=10)
ap.add_argument("--evals", type=int, default=800)
ap.add_argument("--pop", type=int, default=40)
ap.add_argument("--freq", type=int, default=40)
ap.add_argument("--mutation", type=float, default=0.1)
ap.add_argument("--temperature", type=float, default=None, help="SimulatedAnnealing's starting temperature")
ap.add_argument("--alpha", type=float, default=None, help="SimulatedAnnealing's cooling factor")
ap.add_argument("--warm-start", type=float, default=None,
                help="start SimulatedAnnealing from a solution near the optimum (each variable scaled by this)")
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(a.seed)

from importlib.metadata import version  # noqa: E402

from jmetal.algorithm.singleobjective.evolution_strategy import EvolutionStrategy  # noqa: E402
from jmetal.algorithm.singleobjective.genetic_algorithm import GeneticAlgorithm  # noqa: E402
from jmetal.algorithm.singleobjective.simulated_annealing import SimulatedAnnealing  # noqa: E402
from jmetal.config import store  # noqa: E402
from jmetal.core.observer import Observer  # noqa: E402
from jmetal.operator.crossover import SBXCrossover  # noqa: E402
from jmetal.operator.mutation import PolynomialMutation  # noqa: E402
from jmetal.operator.selection import BinaryTournamentSelection  # noqa: E402
from jmetal.problem.singleobjective.unconstrained import Rastrigin, Sphere  # noqa: E402
from jmetal.util.generator import InjectorGenerator  # noqa: E402
from jmetal.util.observer import PrintObjectivesObserver  # noqa: E402
from jmetal.util.termination_criterion import StoppingByEvaluations  # noqa: E402


class Record(Observer):
    """The same data the printing observer gets, kept at the evaluations it prints."""

    def __init__(self, frequency: int):
        self.frequency = frequency
        self.points: list[tuple[int, float]] = []

    def update(self, *args, **kwargs):
        evaluations = kwargs["EVALUATIONS"]
        solutions = kwargs["SOLUTIONS"]
        if (evaluations % self.frequency) == 0 and solutions:
            s = solutions[0] if isinstance(solutions, list) else solutions
            self.points.append((evaluations, float(s.objectives[0])))


problem = Sphere(a.vars) if a.problem == "sphere" else Rastrigin(a.vars)
mutation = PolynomialMutation(probability=a.mutation, distribution_index=20)
stop = StoppingByEvaluations(max_evaluations=a.evals)
if a.algo == "ga":
    algo = GeneticAlgorithm(problem=problem, population_size=a.pop, offspring_population_size=a.pop,
                            mutation=mutation, crossover=SBXCrossover(probability=0.9, distribution_index=20),
                            selection=BinaryTournamentSelection(), termination_criterion=stop)
elif a.algo == "es":
    algo = EvolutionStrategy(problem=problem, mu=a.pop // 4, lambda_=a.pop, elitist=True, mutation=mutation,
                             termination_criterion=stop)
else:
    generator = store.default_generator
    if a.warm_start is not None:
        start = problem.create_solution()
        start.variables = [v * a.warm_start for v in start.variables]
        generator = InjectorGenerator(solutions=[start])
    algo = SimulatedAnnealing(problem=problem, mutation=mutation, termination_criterion=stop,
                              solution_generator=generator)
    if a.temperature is not None:
        algo.temperature = a.temperature
    if a.alpha is not None:
        algo.alpha = a.alpha

rec = Record(a.freq)
algo.observable.register(observer=PrintObjectivesObserver(frequency=a.freq))
algo.observable.register(observer=rec)
algo.run()
print(f"Algorithm: {algo.get_name()}")
print(f"Problem: {problem.name()}")
print(f"Solution: {algo.result().variables}")
print(f"Fitness: {algo.result().objectives[0]}")
print(f"Computing time: {algo.total_computing_time}")

write_truth(framework=f"jmetalpy {version('jmetalpy')}", settings=vars(a), loss_name="fitness",
            step_unit="evaluations (`Evaluations: N.`, every `frequency`)", tolerance=tol_sig(12),
            record="the SOLUTIONS' objective the algorithm hands its observers (an observer of ours beside "
                   "PrintObjectivesObserver)",
            train_loss=rec.points)
