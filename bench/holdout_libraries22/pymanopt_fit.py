"""pymanopt: a small model fitted on a Riemannian manifold by one of its optimizers (``SteepestDescent``,
``ConjugateGradient``), the cost written with its PyTorch backend (``@pymanopt.function.pytorch``), as its examples
show: a PCA basis on the Stiefel or Grassmann manifold (the mean reconstruction error of a synthetic table), or an
orthogonal Procrustes map (the mean squared error of ``X @ Q`` against ``Y``). Its default ``verbosity=2`` prints
``Optimizing...``, a table on stdout, ``Iteration    Cost                       Gradient norm``, one row an
iteration (`` 12           +5.2638477877442220e+01    1.11739941e+00``: the cost with 16 significant decimals), and
the stopping criterion at the end. Truth: the optimizer's own log, ``log_verbosity=1`` (the result's
``log["iterations"]["cost"]``), at its ``iteration``, 1-based, as the table's first column counts it."""

from __future__ import annotations

import argparse

import numpy as np
from h22_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="pca", choices=["pca", "pca_grassmann", "procrustes"])
ap.add_argument("--optimizer", default="cg", choices=["sd", "cg"])
ap.add_argument("--iters", type=int, default=30)
ap.add_argument("--dim", type=int, default=30)
ap.add_argument("--rank", type=int, default=3)
ap.add_argument("--n", type=int, default=400)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pymanopt  # noqa: E402
import torch  # noqa: E402
from pymanopt.manifolds import Grassmann, Stiefel  # noqa: E402
from pymanopt.optimizers import ConjugateGradient, SteepestDescent  # noqa: E402

rng = np.random.default_rng(0)
if a.task == "procrustes":
    Q_true, _ = np.linalg.qr(rng.normal(size=(a.dim, a.dim)))
    X = rng.normal(size=(a.n, a.dim))
    Y = X @ Q_true + 0.1 * rng.normal(size=(a.n, a.dim))
    Xt, Yt = torch.from_numpy(X), torch.from_numpy(Y)
    manifold = Stiefel(a.dim, a.dim)

    @pymanopt.function.pytorch(manifold)
    def cost(Q):
        return torch.mean((Xt @ Q - Yt) ** 2)
else:
    scales = np.r_[np.linspace(5.0, 3.0, a.rank), np.full(a.dim - a.rank, 0.5)]
    basis, _ = np.linalg.qr(rng.normal(size=(a.dim, a.dim)))
    X = (rng.normal(size=(a.n, a.dim)) * scales) @ basis.T
    Xt = torch.from_numpy(X)
    manifold = (Grassmann if a.task == "pca_grassmann" else Stiefel)(a.dim, a.rank)

    @pymanopt.function.pytorch(manifold)
    def cost(W):
        return torch.sum((Xt - Xt @ W @ W.T) ** 2) / Xt.shape[0]

problem = pymanopt.Problem(manifold, cost)
optimizer = (ConjugateGradient if a.optimizer == "cg" else SteepestDescent)(max_iterations=a.iters, log_verbosity=1)
result = optimizer.run(problem, initial_point=manifold.random_point())

its = result.log["iterations"]
write_truth(framework=f"pymanopt {pymanopt.__version__}", settings=vars(a), loss_name="Cost",
            step_unit="iteration, 1-based (the table's `Iteration` column)", tolerance=tol_sig(16),
            record=f'the optimizer\'s log (`log_verbosity=1`): `result.log["iterations"]["cost"]` '
                   f"({type(optimizer).__name__}.run)",
            train_loss=[(int(i), float(c)) for i, c in zip(its["iteration"], its["cost"], strict=True)])
