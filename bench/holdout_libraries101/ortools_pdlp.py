"""ortools PDLP: a small random convex QP (a diagonal quadratic objective, equality constraints, free variables) or
LP (equality constraints, non-negative variables) solved by ``pdlp.primal_dual_hybrid_gradient``, the primal-dual
hybrid gradient method, with its own iteration table at every termination check (``verbosity_level`` 3: 6
significant digits; 4: a row for the average iterate ``A`` and one for the current ``C``). The step is PDLP's
adaptive line search (its default) or, as its ``CONSTANT_STEP_SIZE_RULE``, the inverse of its estimate of the
constraint matrix's norm times ``initial_step_size_scaling``: well above 1 the iterates blow up. Truth: the solve
log's ``iteration_stats`` (``record_iteration_stats``): at each iteration with convergence information, the L2
primal residual (the table's ``prim_resid`` column) of the average iterate (the current one where there is no
average, at iteration 0)."""

from __future__ import annotations

import argparse

from h101_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--problem", default="qp", choices=["qp", "lp"])
ap.add_argument("--m", type=int, default=40)
ap.add_argument("--n", type=int, default=80)
ap.add_argument("--iters", type=int, default=400)
ap.add_argument("--check-freq", type=int, default=64)
ap.add_argument("--scale", type=float, default=0.0, help="> 0: constant step, this times the default step")
ap.add_argument("--restarts", default="adaptive", choices=["adaptive", "none", "every"])
ap.add_argument("--verbosity", type=int, default=3)
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(a.seed)

import numpy as np  # noqa: E402
import ortools  # noqa: E402
import scipy.sparse as sp  # noqa: E402
from ortools.pdlp import solvers_pb2  # noqa: E402
from ortools.pdlp.python import pdlp  # noqa: E402

rng = np.random.default_rng(a.seed)
A = sp.random(a.m, a.n, density=0.3, random_state=a.seed, format="csc")
qp = pdlp.QuadraticProgram()
qp.resize_and_initialize(a.n, a.m)
qp.constraint_matrix = A
if a.problem == "qp":
    b = A @ rng.normal(size=a.n)
    qp.constraint_lower_bounds = b
    qp.constraint_upper_bounds = b
    qp.variable_lower_bounds = np.full(a.n, -np.inf)
    qp.variable_upper_bounds = np.full(a.n, np.inf)
    qp.objective_vector = rng.normal(size=a.n)
    qp.set_objective_matrix_diagonal(np.full(a.n, 1.0))
else:
    b = A @ rng.uniform(0, 1, a.n)
    qp.constraint_lower_bounds = b
    qp.constraint_upper_bounds = b
    qp.variable_lower_bounds = np.zeros(a.n)
    qp.variable_upper_bounds = np.full(a.n, np.inf)
    qp.objective_vector = -rng.uniform(0.1, 1.0, a.n)

P = solvers_pb2.PrimalDualHybridGradientParams
params = P()
params.verbosity_level = a.verbosity
params.record_iteration_stats = True
params.num_threads = 1
params.termination_criteria.iteration_limit = a.iters
params.termination_check_frequency = a.check_freq
params.restart_strategy = {"adaptive": P.ADAPTIVE_HEURISTIC, "none": P.NO_RESTARTS,
                           "every": P.EVERY_MAJOR_ITERATION}[a.restarts]
if a.scale > 0:
    params.linesearch_rule = P.CONSTANT_STEP_SIZE_RULE
    params.initial_step_size_scaling = a.scale
result = pdlp.primal_dual_hybrid_gradient(qp, params)

from ortools.pdlp import solve_log_pb2  # noqa: E402

series: dict[int, float] = {}
for st in result.solve_log.iteration_stats:
    infos = {c.candidate_type: c for c in st.convergence_information}
    if not infos:
        continue
    info = infos.get(solve_log_pb2.POINT_TYPE_AVERAGE_ITERATE) or infos.get(solve_log_pb2.POINT_TYPE_CURRENT_ITERATE)
    if info is None:
        continue
    series[st.iteration_number] = info.l2_primal_residual
write_truth(framework=f"ortools {ortools.__version__}", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="prim_resid (L2 primal residual)",
            step_unit="PDHG iteration, 0-based (the table's `iter#`), at every termination check",
            tolerance=tol_sig(6),
            record="the solve log's `iteration_stats` (`record_iteration_stats=True`): `l2_primal_residual` of the "
                   "average iterate's convergence information (the current iterate's at iteration 0)",
            train_loss=sorted(series.items()),
            termination_reason=solve_log_pb2.TerminationReason.Name(result.solve_log.termination_reason))
