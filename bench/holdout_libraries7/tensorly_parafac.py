"""TensorLy: a CP decomposition (``tensorly.decomposition.parafac``, alternating least squares) of a small synthetic
low-rank tensor plus noise, with ``verbose=1`` as its examples show (settings: rank, initialisation, iterations,
tolerance, normalised factors, L2 regularisation, orthogonalisation, the numpy or the pytorch backend). Its verbose
output (stdout) prints ``reconstruction error=0.4123...`` at iteration 0, then ``iteration 3, reconstruction error:
0.2101..., decrease = 0.0012..., unnormalized = 4.56...`` every iteration (the float's full ``repr``, with the
pytorch backend too), and ``PARAFAC converged after N iterations`` when the decrease falls under ``tol``. Truth: the
``callback`` it calls with ``(cp_tensor, rec_error)`` once at the initialisation (not printed, not in the truth) and
once an iteration, at the iteration, 0-based."""

from __future__ import annotations

import argparse

import numpy as np
from h7_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--shape", default="12,10,8")
ap.add_argument("--true-rank", type=int, default=3)
ap.add_argument("--rank", type=int, default=3)
ap.add_argument("--noise", type=float, default=0.3)
ap.add_argument("--init", default="random", choices=["random", "svd"])
ap.add_argument("--iters", type=int, default=30)
ap.add_argument("--tol", type=float, default=1e-8)
ap.add_argument("--normalize", action="store_true")
ap.add_argument("--l2", type=float, default=0.0)
ap.add_argument("--orthogonalise", action="store_true")
ap.add_argument("--backend", default="numpy", choices=["numpy", "pytorch"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import tensorly as tl  # noqa: E402
from tensorly.decomposition import parafac  # noqa: E402

tl.set_backend(a.backend)
rng = np.random.default_rng(0)
shape = tuple(int(s) for s in a.shape.split(","))
factors = [rng.normal(size=(s, a.true_rank)) for s in shape]
X = np.einsum("ir,jr,kr->ijk", *factors)
X = X + a.noise * X.std() * rng.normal(size=shape)
tensor = tl.tensor(X)  # float64

errors: list[float] = []


def on_iteration(cp_tensor, rec_error):
    """TensorLy's callback: the initialisation's error first, then one per iteration."""
    errors.append(float(rec_error))


parafac(tensor, rank=a.rank, n_iter_max=a.iters, init=a.init, tol=a.tol, normalize_factors=a.normalize,
        l2_reg=a.l2, orthogonalise=a.orthogonalise, random_state=0, verbose=1, callback=on_iteration)

write_truth(framework=f"tensorly {version('tensorly')}", settings=vars(a), loss_name="reconstruction error",
            step_unit="iteration, 0-based (`reconstruction error=` at 0, then `iteration N, reconstruction error:`)",
            tolerance=tol_sig(12),
            record="its `callback` (cp_tensor, rec_error): the initialisation's call left out, then one an iteration",
            train_loss=list(enumerate(errors[1:])))
