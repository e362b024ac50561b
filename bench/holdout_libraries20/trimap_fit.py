"""trimap: ``TRIMAP(verbose=True)`` embedding a small synthetic table (clusters on a curved manifold; no download),
as its README shows (``fit_transform``; ``n_inliers``, ``n_outliers``, ``n_random``, ``lr``, ``n_iters``,
``opt_method`` ``dbd`` / ``momentum`` / ``sd``, ``apply_pca``). Its verbose lines on stdout: the settings
(``TRIMAP(n_inliers=12, ...)``), ``running TriMap on 600 points with dimension 20``, ``pre-processing``, ``found
nearest neighbors``, ``sampled triplets``, ``running TriMap with dbd``, then every 100 iterations ``Iteration:  100 /
 800, Loss: 12.345, Violated triplets: 1.2345`` (``%3.3f``), ``Elapsed time: 0:00:01.23``. Truth: the loss the
library computes at each iteration (its ``trimap_grad``'s last row over the number of triplets, the ``C`` it prints),
recorded by wrapping that function, at the iteration, 1-based, as ``Iteration: N / M`` counts it, only every 100th
as the log prints."""

from __future__ import annotations

import argparse

import numpy as np
from h20_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--n", type=int, default=600)
ap.add_argument("--dim", type=int, default=20)
ap.add_argument("--clusters", type=int, default=5)
ap.add_argument("--lr", type=float, default=0.1)
ap.add_argument("--iters", type=int, default=800)
ap.add_argument("--opt", default="dbd", choices=["dbd", "momentum", "sd"])
ap.add_argument("--inliers", type=int, default=12)
ap.add_argument("--outliers", type=int, default=4)
ap.add_argument("--random", type=int, default=3)
ap.add_argument("--no-pca", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import trimap  # noqa: E402
import trimap.trimap_ as tm  # noqa: E402

rng = np.random.default_rng(0)
centers = rng.normal(scale=4.0, size=(a.clusters, a.dim))
lab = rng.integers(0, a.clusters, size=a.n)
t = rng.uniform(0, 3, size=a.n)
curve = np.stack([np.sin(t * (k + 1)) for k in range(a.dim)], axis=1)
X = (centers[lab] + curve + rng.normal(scale=0.6, size=(a.n, a.dim))).astype(np.float32)

sums: list = []
_grad = tm.trimap_grad


def recording_grad(*args):
    g = _grad(*args)
    sums.append(g[-1, 0])
    return g


tm.trimap_grad = recording_grad
reducer = trimap.TRIMAP(n_inliers=a.inliers, n_outliers=a.outliers, n_random=a.random, lr=a.lr, n_iters=a.iters,
                        opt_method=a.opt, apply_pca=not a.no_pca, verbose=True)
Y = reducer.fit_transform(X)
n_triplets = float(reducer.triplets.shape[0])
losses = [float(s / n_triplets) for s in sums]

write_truth(framework=f"trimap {getattr(trimap, '__version__', '1.2.0')}", settings=vars(a), loss_name="Loss",
            step_unit="iteration, 1-based (`Iteration:  100 /  800`), every 100th", tolerance=tol_decimals(3),
            record="the loss its `trimap_grad` returns each iteration over the number of triplets (the `C` it "
                   "prints), recorded by a wrapper",
            train_loss=[(i + 1, c) for i, c in enumerate(losses) if (i + 1) % 100 == 0])
