"""implicit: ``AlternatingLeastSquares.fit`` on a synthetic user x item confidence matrix with its tqdm bar
(``show_progress=True``, the default: one ``\\r``-redrawn line whose postfix is ``loss=0.00482``) or, with the bar
off and logging at INFO, its ``loss 0.0048`` log line per iteration. Truth: the loss the ``fit`` ``callback``
receives per iteration (``callback(iteration, elapsed, loss)``), at the bar's count (1-based)."""

from __future__ import annotations

import argparse
import logging

import numpy as np
from h4_truth import seed_all, tol_decimals, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--iterations", type=int, default=15)
ap.add_argument("--factors", type=int, default=16)
ap.add_argument("--regularization", type=float, default=0.01)
ap.add_argument("--alpha", type=float, default=1.0)
ap.add_argument("--cg", action="store_true", help="conjugate gradient solver (the default is Cholesky)")
ap.add_argument("--no-progress", action="store_true", help="no bar; logging at INFO instead")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
if a.no_progress:
    logging.basicConfig(level=logging.INFO)
seed_all(0)

import implicit  # noqa: E402
from implicit.cpu.als import AlternatingLeastSquares  # noqa: E402
from scipy import sparse  # noqa: E402

rng = np.random.default_rng(0)
n_users, n_items = 400, 300
taste, items = rng.normal(size=(n_users, 6)), rng.normal(size=(n_items, 6))
score = taste @ items.T + rng.normal(size=(n_users, n_items))
counts = np.where(score > 2.0, rng.integers(1, 8, size=score.shape), 0).astype(np.float32)
user_items = sparse.csr_matrix(counts)
model = AlternatingLeastSquares(factors=a.factors, regularization=a.regularization, alpha=a.alpha,
                                iterations=a.iterations, calculate_training_loss=True, use_cg=a.cg,
                                num_threads=1, random_state=0)
losses: list[tuple[int, float]] = []
model.fit(user_items, show_progress=not a.no_progress, callback=lambda it, _t, loss: losses.append((it + 1, loss)))
write_truth(framework=f"implicit {implicit.__version__}", settings=vars(a), loss_name="loss",
            step_unit="ALS iteration, 1-based (the bar's count; the nth `loss` log line)",
            tolerance=tol_decimals(4) if a.no_progress else tol_sig(3),
            record="the loss AlternatingLeastSquares.fit passes its callback per iteration", train_loss=losses)
