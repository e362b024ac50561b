"""pygad: a genetic algorithm fitting the weights of a small regression model (linear, a one-hidden-layer tanh
network, or a log-linear count model) to a synthetic table, as PyGAD's documentation writes it: a
``fitness_func(ga_instance, solution, solution_idx)`` returning minus the mean squared error, and an
``on_generation`` callback that prints the generation and the best fitness of the last generation
(``ga_instance.best_solution(pop_fitness=...)``) - here with the loss it stands for - every ``--every``
generations. Truth: the GA's own record ``ga_instance.best_solutions_fitness`` (the best fitness of each
generation; the loss is minus it), at ``generations_completed`` (1-based)."""

from __future__ import annotations

import argparse

import numpy as np
from h11_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="linear", choices=["linear", "mlp", "poisson"])
ap.add_argument("--generations", type=int, default=50)
ap.add_argument("--population", type=int, default=20)
ap.add_argument("--parents", type=int, default=6)
ap.add_argument("--selection", default="sss")
ap.add_argument("--crossover", default="single_point")
ap.add_argument("--mutation-percent", type=float, default=20)
ap.add_argument("--mutation-range", type=float, default=1.0)
ap.add_argument("--elitism", type=int, default=1)
ap.add_argument("--keep-parents", type=int, default=-1)
ap.add_argument("--every", type=int, default=1)
ap.add_argument("--n", type=int, default=100)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pygad  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 4))
w_true = np.array([1.5, -2.0, 0.7, 1.0])
y = X @ w_true + 0.5 + rng.normal(scale=0.3, size=a.n)
if a.model == "poisson":
    y = rng.poisson(np.exp(0.3 * (X @ w_true) + 0.5)).astype(float)
H = 5


def predict(solution: np.ndarray) -> np.ndarray:
    if a.model == "linear":
        return X @ solution[:4] + solution[4]
    if a.model == "poisson":
        return np.exp(X @ solution[:4] + solution[4])
    w1 = solution[:4 * H].reshape(4, H)
    b1 = solution[4 * H:5 * H]
    w2 = solution[5 * H:6 * H]
    return np.tanh(X @ w1 + b1) @ w2 + solution[6 * H]


def fitness_func(ga_instance, solution, solution_idx):
    return -float(np.mean((predict(solution) - y) ** 2))


def on_generation(ga_instance):
    g = ga_instance.generations_completed
    if g % a.every == 0 or g == a.generations:
        fitness = ga_instance.best_solution(pop_fitness=ga_instance.last_generation_fitness)[1]
        print(f"Generation = {g}")
        print(f"Fitness    = {fitness}")
        print(f"Loss (MSE) = {-fitness}")


n_genes = 5 if a.model in ("linear", "poisson") else 6 * H + 1
ga = pygad.GA(num_generations=a.generations, num_parents_mating=a.parents, fitness_func=fitness_func,
              sol_per_pop=a.population, num_genes=n_genes, init_range_low=-2, init_range_high=2,
              parent_selection_type=a.selection, keep_elitism=a.elitism, keep_parents=a.keep_parents,
              crossover_type=a.crossover,
              mutation_type="random", mutation_percent_genes=a.mutation_percent,
              random_mutation_min_val=-a.mutation_range, random_mutation_max_val=a.mutation_range,
              on_generation=on_generation, random_seed=1)
ga.run()
solution, solution_fitness, solution_idx = ga.best_solution()
print(f"Parameters of the best solution : {solution}")
print(f"Fitness value of the best solution = {solution_fitness}")

best = [float(f) for f in ga.best_solutions_fitness]
# best_solutions_fitness: the initial population's best first when it holds generations + 1 values
if len(best) == a.generations + 1:
    best = best[1:]
steps = [g for g in range(1, a.generations + 1) if g % a.every == 0 or g == a.generations]
write_truth(framework=f"pygad {pygad.__version__}", settings=vars(a), loss_name="Loss (MSE) = minus the fitness",
            step_unit="generation, 1-based (`Generation = N`, `generations_completed`)",
            tolerance={"rel": 1e-9, "abs": 0.0},
            record="the GA's own `best_solutions_fitness` list (minus each value: the loss)",
            train_loss=[(g, -best[g - 1]) for g in steps], n_best_solutions_fitness=len(ga.best_solutions_fitness))
