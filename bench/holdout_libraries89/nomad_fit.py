"""PyNomadBBO (NOMAD 4, the mesh adaptive direct search blackbox optimizer): a tiny model's weights trained
derivative-free with ``PyNomad.optimize(blackbox, x0, lb, ub, params)``, the blackbox returning the model's
training loss on synthetic data (``BB_OUTPUT_TYPE OBJ``), as NOMAD's Python examples do. NOMAD prints its own
display on stdout: a ``BBE OBJ`` header (or the columns of ``DISPLAY_STATS``), then a row at each improvement
(``DISPLAY_DEGREE 2``) or at every evaluation (``DISPLAY_ALL_EVAL yes``), then its termination message, best solution
and counters. Truth: its own stats file (``STATS_FILE``, the same rows as the display, at ``BBE``, the blackbox
evaluation count, 1-based)."""

from __future__ import annotations

import argparse
import glob
from importlib import metadata
from typing import Any

from h89_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="linreg", choices=["linreg", "logreg", "mlp", "poisson"])
ap.add_argument("--evals", type=int, default=60)
ap.add_argument("--all-eval", action="store_true")
ap.add_argument("--stats", default="BBE OBJ", help="DISPLAY_STATS columns (`_` for a space)")
ap.add_argument("--bound", type=float, default=5.0)
ap.add_argument("--x0", type=float, default=0.0)
ap.add_argument("--lh", type=int, default=0, help="LH_SEARCH initial points")
ap.add_argument("--direction", default="", help="DIRECTION_TYPE (`_` for a space)")
ap.add_argument("--float32", action="store_true", help="the loss in float32, naive formula")
ap.add_argument("--n", type=int, default=100)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
a.stats, a.direction = a.stats.replace("_", " "), a.direction.replace("_", " ")
seed_all(0)

import numpy as np  # noqa: E402
import PyNomad  # noqa: E402

rng = np.random.default_rng(0)
d = 4
X = rng.normal(size=(a.n, d))
dt = np.float32 if a.float32 else np.float64
if a.model == "linreg":
    y = X @ np.array([1.5, -2.0, 0.5, 3.0]) + 0.3 * rng.normal(size=a.n)
    dim = d + 1
elif a.model == "logreg":
    y = (X @ np.array([2.0, -1.0, 0.5, 1.0]) + 0.5 * rng.normal(size=a.n) > 0).astype(float)
    dim = d + 1
elif a.model == "poisson":
    y = rng.poisson(np.exp(0.3 * X @ np.array([1.0, -1.0, 0.5, 0.5]) + 0.5)).astype(float)
    dim = d + 1
else:
    y = np.sin(X[:, 0] * 1.5) + 0.5 * X[:, 1] + 0.1 * rng.normal(size=a.n)
    dim = (d + 1) * 2 + 3  # 2 tanh units: (d + 1) * 2 weights, then 2 + 1 output weights
Xd, yd = X.astype(dt), y.astype(dt)


def loss(w: np.ndarray) -> float:
    w = w.astype(dt)
    if a.model == "mlp":
        W1 = w[: 2 * d].reshape(d, 2)
        h = np.tanh(Xd @ W1 + w[2 * d:2 * d + 2])
        pred = h @ w[2 * d + 2:2 * d + 4] + w[-1]
        return float(np.mean((pred - yd) ** 2))
    z = Xd @ w[:d] + w[d]
    if a.model == "linreg":
        return float(np.mean((z - yd) ** 2))
    if a.model == "logreg":
        p = 1 / (1 + np.exp(-z))
        return float(-np.mean(yd * np.log(p) + (1 - yd) * np.log(1 - p)))
    return float(np.mean(np.exp(z) - yd * z))  # Poisson negative log-likelihood (no log y! term)


def blackbox(x: Any) -> int:
    w = np.array([x.get_coord(i) for i in range(dim)])
    x.setBBO(str(loss(w)).encode())
    return 1


params = ["BB_OUTPUT_TYPE OBJ", f"MAX_BB_EVAL {a.evals}", "DISPLAY_DEGREE 2", f"DISPLAY_STATS {a.stats}",
          f"STATS_FILE stats.txt {a.stats}", "SEED 1"]
params += ["DISPLAY_ALL_EVAL yes"] if a.all_eval else []
params += [f"LH_SEARCH {a.lh} 0"] if a.lh else []
params += [f"DIRECTION_TYPE {a.direction}"] if a.direction else []
x0 = [a.x0] * dim
PyNomad.optimize(blackbox, x0, [-a.bound] * dim, [a.bound] * dim, params)

stats = sorted(glob.glob("stats*.txt"))[0]
cols = [c for c in a.stats.split() if c not in ("(", ")")]
rows = []
for ln in open(stats):
    # a row holds the columns asked for; a SOL column is the point's coordinates (between parentheses)
    flat = [p for p in ln.split() if p not in ("(", ")")]
    if not flat:
        continue
    rec: dict[str, str] = {}
    j = 0
    for c in cols:
        if c != "SOL":
            rec[c] = flat[j]
        j += dim if c == "SOL" else 1
    rows.append((int(rec["BBE"]), rec["OBJ"]))
keep(stats, "stats.txt")
write_truth(framework=f"PyNomadBBO {metadata.version('PyNomadBBO')}",
            settings=vars(a), loss_name="OBJ", step_unit="blackbox evaluation, 1-based (`BBE`)",
            tolerance=tol_decimals(6),
            record=f"NOMAD's own stats file (`STATS_FILE stats.txt {a.stats}`: `OBJ` at `BBE`)",
            train_loss=rows)
