"""pacmap: ``PaCMAP(verbose=True)`` embedding a small synthetic table (clusters on a curved manifold; no download),
as its README shows (``fit_transform``; ``lr``, ``num_iters``, ``n_neighbors``, ``MN_ratio``, ``FP_ratio``,
``apply_pca``, ``knn_backend``). Its verbose lines on stdout: the settings, ``Finding pairs``, the pairs' shapes,
``Initial Loss: ...``, then every 10 iterations ``Iteration:   10, Loss: 12345.678901`` (``%f``) over its three
phases (the weights of mid-near and further pairs change at iterations 100 and 200, so the loss jumps there),
``Elapsed time: 0.52s``. Truth: the loss the library computes at each iteration (the last row of its
``pacmap_grad``'s result, the ``C`` it prints), recorded by wrapping that function, at the iteration, 1-based, as
``Iteration: N`` counts it (C of the gradient computed at iteration N, before its update), only every 10th as the
log prints."""

from __future__ import annotations

import argparse

import numpy as np
from h20_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--n", type=int, default=600)
ap.add_argument("--dim", type=int, default=20)
ap.add_argument("--clusters", type=int, default=5)
ap.add_argument("--lr", type=float, default=1.0)
ap.add_argument("--iters", type=int, nargs="+", default=[100, 100, 250],
                help="num_iters: one number (its third phase) or the three phases")
ap.add_argument("--neighbors", type=int, default=10)
ap.add_argument("--mn-ratio", type=float, default=0.5)
ap.add_argument("--fp-ratio", type=float, default=2.0)
ap.add_argument("--no-pca", action="store_true")
ap.add_argument("--init", default="pca", choices=["pca", "random"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pacmap  # noqa: E402
import pacmap.pacmap as pm  # noqa: E402

rng = np.random.default_rng(0)
centers = rng.normal(scale=4.0, size=(a.clusters, a.dim))
lab = rng.integers(0, a.clusters, size=a.n)
t = rng.uniform(0, 3, size=a.n)
curve = np.stack([np.sin(t * (k + 1)) for k in range(a.dim)], axis=1)
X = (centers[lab] + curve + rng.normal(scale=0.6, size=(a.n, a.dim))).astype(np.float32)

losses: list[float] = []
_grad = pm.pacmap_grad


def recording_grad(*args):
    g = _grad(*args)
    losses.append(float(g[-1, 0]))
    return g


pm.pacmap_grad = recording_grad
num_iters = a.iters[0] if len(a.iters) == 1 else tuple(a.iters)
reducer = pacmap.PaCMAP(n_components=2, n_neighbors=a.neighbors, MN_ratio=a.mn_ratio, FP_ratio=a.fp_ratio, lr=a.lr,
                        num_iters=num_iters, apply_pca=not a.no_pca, verbose=True, random_state=1)
Y = reducer.fit_transform(X, init=a.init)

write_truth(framework=f"pacmap {getattr(pacmap, '__version__', '0.9.1')}", settings=vars(a), loss_name="Loss",
            step_unit="iteration, 1-based (`Iteration:   10`), every 10th", tolerance=tol_decimals(6),
            record="the loss its `pacmap_grad` returns each iteration (the `C` it prints), recorded by a wrapper",
            train_loss=[(i + 1, c) for i, c in enumerate(losses) if (i + 1) % 10 == 0])
