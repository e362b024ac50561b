"""mittens: GloVe (``mittens.GloVe``) or its retrofitting variant (``mittens.Mittens``, pulled towards given
initial embeddings) fitted on a small synthetic word-word co-occurrence matrix, as its README shows, with its default
progress display. Its progress goes to stderr, one ``\\r`` redraw every ``display_progress`` iterations and never a
newline: ``\\rIteration 10: error 1234.5678`` (the error with 4 decimals: the weighted squared error of the GloVe
objective, plus the retrofitting term for Mittens). Truth: the model's ``errors`` list (one error an iteration,
computed before that iteration's AdaGrad update), at the iteration, 1-based, as ``Iteration N:`` counts it, at the
iterations it prints."""

from __future__ import annotations

import argparse

import numpy as np
from h22_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="glove", choices=["glove", "mittens"])
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--iters", type=int, default=100)
ap.add_argument("--display", type=int, default=10)
ap.add_argument("--dim", type=int, default=10)
ap.add_argument("--words", type=int, default=60)
ap.add_argument("--xmax", type=float, default=100.0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import mittens  # noqa: E402
from mittens import GloVe, Mittens  # noqa: E402

rng = np.random.default_rng(0)
Z = rng.normal(size=(a.words, 5))
counts = np.round(np.exp(Z @ Z.T / 2) * rng.poisson(3, size=(a.words, a.words)))
counts = counts + counts.T
vocab = [f"w{i}" for i in range(a.words)]
if a.model == "glove":
    model = GloVe(n=a.dim, xmax=a.xmax, max_iter=a.iters, learning_rate=a.lr, display_progress=a.display)
    model.fit(counts)
else:
    initial = {w: rng.normal(size=a.dim) for w in vocab[: a.words // 2]}
    model = Mittens(n=a.dim, xmax=a.xmax, max_iter=a.iters, learning_rate=a.lr, display_progress=a.display)
    model.fit(counts, vocab=vocab, initial_embedding_dict=initial)

errors = [float(e) for e in model.errors]
write_truth(framework=f"mittens {mittens.__version__}", settings=vars(a), loss_name="error",
            step_unit="iteration, 1-based (`Iteration N:`)", tolerance=tol_decimals(4),
            record=f"the model's `errors` list ({type(model).__name__}.fit)",
            train_loss=[(i + 1, e) for i, e in enumerate(errors) if (i + 1) % a.display == 0])
