"""SCS (the Splitting Conic Solver, its own Python binding ``scs.SCS``): a tiny generated conic problem, a linear
program (``--problem lp``), a box-constrained least squares as a quadratic program (``qp``) or a least-norm
second-order cone program (``socp``), solved with ``verbose=True`` as SCS's users do, with the settings they set
(``eps_abs`` / ``eps_rel``, ``max_iters``, ``acceleration_lookback``, ``adaptive_scale``, ``normalize``, ``alpha``,
``scale``). SCS prints its banner, the problem and settings, then its iteration table on stdout
(`` iter | pri res | dua res |   gap   |   obj   |  scale  | time (s)``: a row at iteration 0, every 250 and the
last, ``%.2e``) and its summary. The should-stop runs are problems with no solution (``--infeasible``: contradicting
rows; ``--unbounded``: an objective that falls without bound) solved with ``eps_infeas`` so small that SCS never
takes its certificate: its iterates run away. Truth: the per-iteration record SCS writes itself with
``log_csv_filename`` (``res_pri``, the primal residual, at the iterations the table prints, 0-based); the CSV
(~1.5 KB an iteration) is not kept."""

from __future__ import annotations

import argparse
import csv

from h67_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--problem", default="lp", choices=["lp", "qp", "socp"])
ap.add_argument("--m", type=int, default=80)
ap.add_argument("--n", type=int, default=40)
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--spread", type=float, default=0.0, help="columns scaled by 10**U(-spread, spread)")
ap.add_argument("--infeasible", action="store_true")
ap.add_argument("--unbounded", action="store_true")
ap.add_argument("--max-iters", type=int, default=2000)
ap.add_argument("--eps", type=float, default=1e-9)
ap.add_argument("--eps-infeas", type=float, default=1e-7)
ap.add_argument("--lookback", type=int, default=10)
ap.add_argument("--no-adaptive-scale", action="store_true")
ap.add_argument("--no-normalize", action="store_true")
ap.add_argument("--alpha", type=float, default=1.5)
ap.add_argument("--scale", type=float, default=0.1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(a.seed)

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import scs  # noqa: E402

rng = np.random.default_rng(a.seed)
m, n = a.m, a.n
A = rng.normal(size=(m, n)) * 10.0 ** rng.uniform(-a.spread, a.spread, size=n)
data: dict = {}
cone: dict = {}
if a.problem == "lp":
    # min c'x s.t. Ax <= b: b from an interior point (feasible), c = -A'y with y > 0 (bounded)
    b = A @ rng.normal(size=n) + rng.uniform(0.1, 1.0, size=m)
    c = -A.T @ rng.uniform(0.1, 1.0, size=m)
    if a.infeasible:  # the same rows again, reversed and pushed past them: Ax <= b and Ax >= b + 1
        A, b = np.vstack([A, -A]), np.r_[b, -b - 1.0]
    if a.unbounded:  # a few rows only and a random cost: the cost falls along a free direction
        A, b, c = A[:5], np.ones(5), rng.normal(size=n)
    data = {"A": sp.csc_matrix(A), "b": b, "c": c}
    cone = {"l": A.shape[0]}
elif a.problem == "qp":
    # min 0.5 ||Fx - g||^2 s.t. -1 <= x <= 1 (P = F'F, c = -F'g)
    g = rng.normal(size=m) * 3
    P = A.T @ A
    c = -A.T @ g
    G, h = np.vstack([np.eye(n), -np.eye(n)]), np.ones(2 * n)
    if a.infeasible:  # x <= 1 and x >= 2
        h = np.r_[np.ones(n), -2.0 * np.ones(n)]
    if a.unbounded:  # a concave-free direction: P without its last columns' curvature, cost along them
        P[:, -3:] = 0.0
        P[-3:, :] = 0.0
        G, h = np.vstack([np.eye(n)[: n - 3], -np.eye(n)[: n - 3]]), np.ones(2 * (n - 3))
        c[-3:] = 1.0
    data = {"P": sp.csc_matrix(np.triu(P)), "A": sp.csc_matrix(G), "b": h, "c": c}
    cone = {"l": G.shape[0]}
else:
    # min t s.t. ||Fx - g||_2 <= t, sum(x) = 1, x >= 0: variables (x, t); cones: z (1), l (n), q (m + 1)
    g = rng.normal(size=m)
    z_A = np.r_[np.ones(n), 0.0][None, :]
    z_b = np.array([1.0])
    l_A = np.c_[-np.eye(n), np.zeros(n)]
    l_b = np.zeros(n)
    if a.infeasible:  # x >= 0, sum(x) = 1 and x_i >= 1 for the first two
        l_b[:2] = -1.0
    q_A = np.vstack([np.r_[np.zeros(n), -1.0][None, :], np.c_[-A, np.zeros(m)]])
    q_b = np.r_[0.0, -g]
    data = {"A": sp.csc_matrix(np.vstack([z_A, l_A, q_A])), "b": np.r_[z_b, l_b, q_b],
            "c": np.r_[np.zeros(n), 1.0]}
    cone = {"z": 1, "l": n, "q": [m + 1]}

solver = scs.SCS(data, cone, verbose=True, eps_abs=a.eps, eps_rel=a.eps, eps_infeas=a.eps_infeas,
                 max_iters=a.max_iters, acceleration_lookback=a.lookback, adaptive_scale=not a.no_adaptive_scale,
                 normalize=not a.no_normalize, alpha=a.alpha, scale=a.scale, log_csv_filename="scs_log.csv")
sol = solver.solve()
info = sol["info"]
print(f"status: {info['status']}, iterations: {info['iter']}")

with open("scs_log.csv") as f:
    rows = list(csv.DictReader(f))
last = int(info["iter"])
# the rows SCS's table prints: iteration 0, every 250 (its PRINT_INTERVAL) and the last
printed = [r for r in rows if int(r["iter"]) % 250 == 0 or int(r["iter"]) == last]
write_truth(framework=f"scs {scs.__version__}", settings=vars(a), loss_name="pri res",
            step_unit="iteration, 0-based (the table's `iter` column: 0, every 250 and the last)",
            tolerance=tol_sig(3), record="SCS's own per-iteration CSV (`log_csv_filename`: `res_pri` at `iter`)",
            train_loss=[(int(r["iter"]), float(r["res_pri"])) for r in printed],
            eval_loss=[(int(r["iter"]), float(r["res_dual"])) for r in printed], eval_name="dua res",
            status=info["status"])
