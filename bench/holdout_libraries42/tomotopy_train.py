"""tomotopy: a topic model (``LDAModel``, ``HDPModel``, ``CTModel``, ``PAModel``) on a small synthetic corpus,
trained in chunks as its README shows::

    for i in range(0, 100, 10):
        mdl.train(10)
        print('Iteration: {}\\tLog-likelihood: {}'.format(i, mdl.ll_per_word))

(the full ``repr`` of the float; the chunk's first iteration printed after the chunk is trained) after tomotopy's
own ``RuntimeWarning`` about ``workers`` where the run leaves it at its default. Truth: the model's
``ll_per_word`` after each chunk (higher is better), at the number printed beside it."""

from __future__ import annotations

import argparse

import numpy as np
from h42_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="lda", choices=["lda", "hdp", "ct", "pa"])
ap.add_argument("--k", type=int, default=5)
ap.add_argument("--alpha", type=float, default=0.1)
ap.add_argument("--eta", type=float, default=0.01)
ap.add_argument("--iters", type=int, default=100)
ap.add_argument("--chunk", type=int, default=10)
ap.add_argument("--docs", type=int, default=300)
ap.add_argument("--workers", type=int, default=0, help="0: tomotopy's default (all cores, with its warning)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import tomotopy as tp  # noqa: E402

rng = np.random.default_rng(0)
V, K = 300, 6
topics = rng.dirichlet(np.full(V, 0.05), size=K)
if a.model == "lda":
    mdl = tp.LDAModel(k=a.k, alpha=a.alpha, eta=a.eta, seed=1)
elif a.model == "hdp":
    mdl = tp.HDPModel(initial_k=a.k, alpha=a.alpha, eta=a.eta, seed=1)
elif a.model == "ct":
    mdl = tp.CTModel(k=a.k, eta=a.eta, seed=1)
else:
    mdl = tp.PAModel(k1=2, k2=a.k, eta=a.eta, seed=1)
for _ in range(a.docs):
    th = rng.dirichlet(np.full(K, 0.3))
    z = rng.choice(K, size=int(rng.integers(30, 90)), p=th)
    mdl.add_doc([f"w{rng.choice(V, p=topics[t])}" for t in z])

seen = []
kw = {"workers": a.workers} if a.workers else {}
for i in range(0, a.iters, a.chunk):
    mdl.train(a.chunk, **kw)
    print('Iteration: {}\tLog-likelihood: {}'.format(i, mdl.ll_per_word))  # noqa: UP032 (its README's line)
    seen.append((i, float(mdl.ll_per_word)))

write_truth(framework=f"tomotopy {tp.__version__}", settings=vars(a), loss_name="Log-likelihood",
            step_unit="iteration, 0-based, the chunk's first (`Iteration: 10`: after iterations 10 to 19)",
            tolerance={"rel": 1e-12, "abs": 0.0}, record=f"the model's `ll_per_word` after each `train({a.chunk})`",
            train_loss=seen, higher_is_better=["Log-likelihood"])
