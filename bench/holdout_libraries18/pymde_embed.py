"""pymde: a minimum-distortion embedding (``pymde.preserve_neighbors`` or ``pymde.preserve_distances``) of a small
synthetic point cloud, fitted by its own L-BFGS solver with ``embed(verbose=True, print_every=N)``, as its
tutorial shows. Its logger writes to stderr: the problem's set-up lines, then
``Dec 06 08:08:37 AM: iteration 010 | distortion 0.380594 | residual norm 0.00732472 | step length 1 | percent change
5.02537`` every ``print_every`` iterations and at the last (``%g``-like: 6 significant digits), then a closing
``Finished fitting in ... seconds and N iterations.`` and ``average distortion 0.356 | residual norm 7.4e-04``.
Truth: the embedding's own record ``mde.solve_stats.average_distortions`` (one value per iteration), at the
iteration, 0-based, only at the iterations the log prints."""

from __future__ import annotations

import argparse

import numpy as np
from h18_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--problem", default="neighbors", choices=["neighbors", "distances"])
ap.add_argument("--dim", type=int, default=2)
ap.add_argument("--neighbors", type=int, default=None)
ap.add_argument("--n", type=int, default=300)
ap.add_argument("--features", type=int, default=10)
ap.add_argument("--clusters", type=int, default=0, help="draw the points around this many centres (0: one cloud)")
ap.add_argument("--iters", type=int, default=120)
ap.add_argument("--print-every", type=int, default=10)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pymde  # noqa: E402
import torch  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, a.features))
if a.clusters:
    centres = rng.normal(scale=4.0, size=(a.clusters, a.features))
    X = X + centres[rng.integers(0, a.clusters, size=a.n)]
data = torch.tensor(X, dtype=torch.float32)
if a.problem == "neighbors":
    mde = pymde.preserve_neighbors(data, embedding_dim=a.dim, n_neighbors=a.neighbors, verbose=True)
else:
    mde = pymde.preserve_distances(data, embedding_dim=a.dim, verbose=True)
mde.embed(max_iter=a.iters, print_every=a.print_every, verbose=True)

dist = [float(v) for v in mde.solve_stats.average_distortions]
last = len(dist) - 1
write_truth(framework=f"pymde {pymde.__version__}", settings=vars(a), loss_name="distortion",
            step_unit="solver iteration, 0-based (`iteration 010`)", tolerance=tol_sig(6),
            record="the embedding's `solve_stats.average_distortions` (MDE.embed)",
            train_loss=[(i, v) for i, v in enumerate(dist) if i % a.print_every == 0 or i == last])
