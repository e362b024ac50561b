"""kmodes: ``KPrototypes`` (k-prototypes, mixed numeric and categorical columns) or ``KModes`` fitted with
``verbose=1`` on a synthetic table, as its README shows. It prints on stdout ``Init: initializing centroids``,
``Init: initializing clusters``, ``Starting iterations...``, then per iteration
``Run: 1, iteration: 3/100, moves: 12, ncost: 3385.7802586317794`` (``KModes``: ``Run 1, ... cost: ...``; the cost
in full), one block per initialisation (``n_init``), and ``Best run was number 2`` when there are several. Truth:
the fitted model's ``epoch_costs_`` (the best run's cost after each iteration; its first entry, the cost before the
first iteration, is not printed), at the iteration, 1-based."""

from __future__ import annotations

import argparse

import numpy as np
from h37_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="kprototypes", choices=["kprototypes", "kmodes"])
ap.add_argument("--k", type=int, default=6)
ap.add_argument("--n", type=int, default=600)
ap.add_argument("--init", default="Huang", choices=["Huang", "Cao", "random"])
ap.add_argument("--n-init", type=int, default=1)
ap.add_argument("--noise", type=float, default=0.45)
ap.add_argument("--gamma", type=float, default=None, help="KPrototypes' weight of the categorical part")
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import kmodes  # noqa: E402
from kmodes.kmodes import KModes  # noqa: E402
from kmodes.kprototypes import KPrototypes  # noqa: E402

rng = np.random.default_rng(0)
centers = rng.integers(0, 6, size=(a.k, 10))
lab = rng.integers(0, a.k, a.n)
C = centers[lab].copy()
mask = rng.random(C.shape) < a.noise
C[mask] = rng.integers(0, 6, mask.sum())
if a.model == "kprototypes":
    X = np.hstack([rng.normal(size=(a.n, 3)) + lab[:, None] * 0.5, C]).astype(object)
    est = KPrototypes(n_clusters=a.k, init=a.init, n_init=a.n_init, gamma=a.gamma, verbose=1,
                      random_state=a.seed)
    est.fit(X, categorical=list(range(3, 13)))
else:
    est = KModes(n_clusters=a.k, init=a.init, n_init=a.n_init, verbose=1, random_state=a.seed)
    est.fit(C)

costs = [float(c) for c in est.epoch_costs_]
write_truth(framework=f"kmodes {kmodes.__version__}", settings=vars(a), loss_name="cost",
            step_unit="iteration, 1-based (`Run R, iteration: N/M`, the best run's)", tolerance=tol_sig(15),
            record=f"the fitted {type(est).__name__}'s `epoch_costs_` (the best run's; its entry 0, before the first "
                   "iteration, is not printed)",
            train_loss=[(i, c) for i, c in enumerate(costs) if i > 0])
