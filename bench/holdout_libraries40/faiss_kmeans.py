"""faiss: ``faiss.Kmeans(d, k, niter, verbose=True, ...)`` trained on a synthetic mixture of Gaussians, as its
wiki's clustering page shows (``kmeans.train(x)``). Its C++ clustering loop prints on stdout (C stdio, so
block-buffered into the file apart from Python's own prints): ``Clustering 4000 points in 16D to 20 clusters, redo 1
times, 25 iterations``, ``  Preprocessing in 0.00 s``, then one line per iteration ended by ``\\r``, not a newline:
``  Iteration 7 (0.05 s, search 0.04 s): objective=51234.5 imbalance=1.021 nsplit=0       \\r`` (``%g``: 6
significant digits); more points than ``k * max_points_per_centroid`` first print ``Sampling a subset of ...``.
Truth: the ``Kmeans`` object's own record, ``kmeans.iteration_stats`` (``obj`` per iteration: the sum of squared
distances to the centroids), at the iteration, 0-based, as printed."""

from __future__ import annotations

import argparse

import numpy as np
from h40_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--n", type=int, default=4000)
ap.add_argument("--d", type=int, default=16)
ap.add_argument("--k", type=int, default=20)
ap.add_argument("--niter", type=int, default=25)
ap.add_argument("--centers", type=int, default=12, help="Gaussian blobs in the data")
ap.add_argument("--max-points", type=int, default=256, help="max_points_per_centroid (faiss' default 256)")
ap.add_argument("--seed", type=int, default=1234)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import faiss  # noqa: E402

faiss.omp_set_num_threads(1)
rng = np.random.default_rng(0)
centers = rng.normal(scale=4.0, size=(a.centers, a.d))
x = (centers[rng.integers(0, a.centers, size=a.n)] + rng.normal(size=(a.n, a.d))).astype("float32")
print(f"data: {x.shape[0]} x {x.shape[1]}, k={a.k}, niter={a.niter}", flush=True)
km = faiss.Kmeans(a.d, a.k, niter=a.niter, verbose=True, seed=a.seed,
                  max_points_per_centroid=a.max_points)
km.train(x)
print(f"\nfinal objective: {km.obj[-1]:.6g}", flush=True)

objs = [float(s["obj"]) for s in km.iteration_stats]
write_truth(framework=f"faiss-cpu {faiss.__version__}", settings=vars(a), loss_name="objective",
            step_unit="iteration, 0-based (`Iteration N`)", tolerance=tol_sig(6),
            record="the `faiss.Kmeans` object's `iteration_stats` (`obj` per iteration of `train`)",
            train_loss=list(enumerate(objs)))
