"""openTSNE: ``TSNE(verbose=True, ...).fit(X)`` on a small synthetic table of Gaussian clusters, as its
documentation's first example does (settings: perplexity, learning rate, exaggeration phase length, iterations,
initialisation, neighbour search, negative gradient method, dof). Its verbose output (stdout) prints the estimator's
repr between dashed lines, then ``===> Finding 90 nearest neighbors ...``, ``===> Running optimization with
exaggeration=12.00, lr=25.00 for 250 iterations...`` and every 50 iterations ``Iteration   50, KL divergence 1.1762,
50 iterations in 0.1121 sec`` (``%6.4f``), once for the early exaggeration phase and again, counting from 0, for the
main phase. Truth: the ``callbacks`` it calls every ``callbacks_every_iters`` = 50 iterations with
``(iteration, error, embedding)``, at the iteration counted across both phases (a main-phase ``Iteration N`` is
``early_exaggeration_iter + N``)."""

from __future__ import annotations

import argparse

import numpy as np
from h7_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--n", type=int, default=300)
ap.add_argument("--dim", type=int, default=10)
ap.add_argument("--perplexity", type=float, default=30)
ap.add_argument("--lr", default="auto")
ap.add_argument("--early-iter", type=int, default=250)
ap.add_argument("--iters", type=int, default=500)
ap.add_argument("--initialization", default="pca", choices=["pca", "random", "spectral"])
ap.add_argument("--neighbors", default="auto", choices=["auto", "exact", "annoy", "pynndescent"])
ap.add_argument("--method", default="auto", choices=["auto", "bh", "fft"])
ap.add_argument("--dof", type=float, default=1.0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

from openTSNE import TSNE  # noqa: E402

rng = np.random.default_rng(0)
k = 4
centres = rng.normal(scale=6.0, size=(k, a.dim))
X = np.concatenate([rng.normal(size=(a.n // k, a.dim)) + c for c in centres])

record: list[tuple[int, float]] = []
phase = {"offset": 0, "last": 0}


def on_iteration(iteration, error, embedding):
    """openTSNE's callback: ``iteration`` restarts at the main phase; counted across both phases here."""
    if iteration <= phase["last"]:
        phase["offset"] = a.early_iter
    phase["last"] = iteration
    record.append((phase["offset"] + iteration, float(error)))
    return False


lr = a.lr if a.lr == "auto" else float(a.lr)
tsne = TSNE(perplexity=a.perplexity, learning_rate=lr, early_exaggeration_iter=a.early_iter, n_iter=a.iters,
            initialization=a.initialization, neighbors=a.neighbors, negative_gradient_method=a.method, dof=a.dof,
            n_jobs=1, random_state=0, verbose=True, callbacks=on_iteration, callbacks_every_iters=50)
embedding = tsne.fit(X)

write_truth(framework=f"openTSNE {version('openTSNE')}", settings=vars(a), loss_name="KL divergence",
            step_unit="iteration across both phases (early exaggeration, then main: the log's `Iteration N` restarts "
                      "at the main phase, whose N is early_exaggeration_iter + N here)",
            tolerance=tol_decimals(4),
            record="its `callbacks` (every `callbacks_every_iters`=50 iterations: iteration, KL divergence, embedding)",
            train_loss=record, early_exaggeration_iter=a.early_iter)
