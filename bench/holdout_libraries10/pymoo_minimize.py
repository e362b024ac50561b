"""pymoo: a single-objective algorithm (``GA``, ``DE``, ``PSO``, ``NelderMead``, ``PatternSearch``) minimising one of
pymoo's test problems (``rastrigin``, ``ackley``, ``rosenbrock``, ``sphere``, ``griewank``) with
``minimize(problem, algorithm, ("n_gen", N), seed=1, verbose=True)``, as its getting-started guide does. Its display
prints a table on stdout: a ``=`` rule, a header ``n_gen  |  n_eval  |     f_avg     |     f_min     |     f_gap``
(PSO adds its ``f``, ``S``, ``w``, ``c1``, ``c2`` columns; NelderMead and PatternSearch print ``f_avg`` and ``f_min``
too), the rule again, then one row a generation (a value of 1e-5 to 10 as ``%.10f``, any other as ``%.6E``: 7
significant digits). Truth: the population's mean objective ``f_avg`` from ``save_history=True``'s record
(``res.history``: a copy of the algorithm after each generation; ``pop.get("F").mean()``, with ``f_min`` as the best
found so far), at the generation (``n_gen``, 1-based)."""

from __future__ import annotations

import argparse

from h10_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algorithm", default="ga", choices=["ga", "de", "pso", "nelder-mead", "pattern"])
ap.add_argument("--problem", default="rastrigin")
ap.add_argument("--n-var", type=int, default=5)
ap.add_argument("--pop", type=int, default=20)
ap.add_argument("--gens", type=int, default=30)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pymoo  # noqa: E402
from pymoo.optimize import minimize  # noqa: E402
from pymoo.problems import get_problem  # noqa: E402

problem = get_problem(a.problem, n_var=a.n_var)
if a.algorithm == "ga":
    from pymoo.algorithms.soo.nonconvex.ga import GA
    algorithm = GA(pop_size=a.pop)
elif a.algorithm == "de":
    from pymoo.algorithms.soo.nonconvex.de import DE
    algorithm = DE(pop_size=a.pop, variant="DE/rand/1/bin", CR=0.3)
elif a.algorithm == "pso":
    from pymoo.algorithms.soo.nonconvex.pso import PSO
    algorithm = PSO(pop_size=a.pop)
elif a.algorithm == "nelder-mead":
    from pymoo.algorithms.soo.nonconvex.nelder import NelderMead
    algorithm = NelderMead()
else:
    from pymoo.algorithms.soo.nonconvex.pattern import PatternSearch
    algorithm = PatternSearch()

res = minimize(problem, algorithm, ("n_gen", a.gens), seed=1, verbose=True, save_history=True)

f_avg = [(h.n_gen, float(h.pop.get("F").mean())) for h in res.history]
f_min = [(h.n_gen, float(h.opt.get("F").min())) for h in res.history]
write_truth(framework=f"pymoo {pymoo.__version__}", settings=vars(a), loss_name="f_avg",
            step_unit="generation, 1-based (`n_gen`)", tolerance={"rel": 0.51e-6, "abs": 0.51e-10},
            record="`minimize(..., save_history=True)`'s `res.history` (the algorithm after each generation): "
                   "`pop.get('F').mean()`; `f_min` = `opt.get('F').min()`",
            train_loss=f_avg, f_min=[[s, v] for s, v in f_min])
