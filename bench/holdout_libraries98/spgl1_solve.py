"""spgl1: sparse recovery by the spectral projected gradient of ``spgl1`` (LASSO ``spg_lasso`` with a given L1 budget
tau, basis pursuit denoise ``spg_bpdn`` with a residual target sigma, basis pursuit ``spg_bp``, weighted L1, the
group-sparse multiple-measurement ``spg_mmv``) on a random Gaussian (or partial DCT) matrix and a sparse signal,
with ``verbosity=2`` as its docs show. spgl1 prints its header (sizes, tau, the two-norm of b, tolerances), its
iteration table on stdout (``iterr  Objective  Relative Gap  [Rel Error]  gnorm  stepg  nnz_x  nnz_g  [tau]``, the
objective -- the residual two-norm -- as ``%13.7e``: 8 significant digits) and its exit line. With a fixed tau
every iteration is printed; when tau is found by its root-finding (BPDN, BP, MMV) only iterations 0-9, every 10th,
the last 10 before ``iter_lim``, the tau updates and the last. Truth: ``info["rnorm2"]`` (the residual two-norm at
each iteration, the last one's left out by spgl1 itself), kept at the iterations it prints whatever tau does."""

from __future__ import annotations

import argparse

from h98_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--problem", default="lasso", choices=["lasso", "bpdn", "bp", "weighted", "mmv"])
ap.add_argument("--matrix", default="gauss", choices=["gauss", "dct"])
ap.add_argument("--m", type=int, default=50)
ap.add_argument("--n", type=int, default=128)
ap.add_argument("--k", type=int, default=8, help="nonzeros of the signal")
ap.add_argument("--noise", type=float, default=0.01)
ap.add_argument("--tau", type=float, default=5.0)
ap.add_argument("--sigma", type=float, default=0.1)
ap.add_argument("--iter-lim", type=int, default=300)
ap.add_argument("--subspace-min", action="store_true")
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(a.seed)

import numpy as np  # noqa: E402
import spgl1  # noqa: E402

rng = np.random.default_rng(a.seed)
if a.matrix == "gauss":
    A = rng.normal(size=(a.m, a.n)) / np.sqrt(a.m)
else:
    j = np.arange(a.n)
    full = np.cos(np.pi * (j[:, None] + 0.5) * j[None, :] / a.n) * np.sqrt(2.0 / a.n)
    A = full[np.sort(rng.choice(a.n, a.m, replace=False))]
cols = 3 if a.problem == "mmv" else 1
x0 = np.zeros((a.n, cols))
support = rng.choice(a.n, a.k, replace=False)
x0[support] = rng.normal(size=(a.k, cols)) * 3
B = A @ x0 + a.noise * rng.normal(size=(a.m, cols))
b = B[:, 0]
common = dict(verbosity=2, iter_lim=a.iter_lim, subspace_min=a.subspace_min)
if a.problem == "lasso":
    x, r, g, info = spgl1.spg_lasso(A, b, a.tau, **common)
elif a.problem == "bpdn":
    x, r, g, info = spgl1.spg_bpdn(A, b, a.sigma, **common)
elif a.problem == "bp":
    x, r, g, info = spgl1.spg_bp(A, b, **common)
elif a.problem == "weighted":
    w = 0.5 + rng.uniform(size=a.n)
    x, r, g, info = spgl1.spgl1(A, b, sigma=a.sigma, weights=w, **common)
else:
    x, r, g, info = spgl1.spg_mmv(A, B, a.sigma, **common)

single_tau = a.problem == "lasso"
hist = [float(v) for v in info["rnorm2"]]


def printed(i: int) -> bool:
    """The iterations spgl1 prints whatever tau does (the tau updates and the last are printed too)."""
    return single_tau or i < 10 or i % 10 == 0 or a.iter_lim - i < 10


write_truth(framework=f"spgl1 {spgl1.__version__}", settings=vars(a),
            loss_name="Objective (the residual two-norm ||Ax - b||_2)",
            step_unit="spgl1 iteration, 0-based (`iterr`)", tolerance=tol_sig(8),
            record='spgl1\'s `info["rnorm2"]` (the residual two-norm at each iteration), kept at the iterations it '
                   "always prints",
            train_loss=[(i, v) for i, v in enumerate(hist) if printed(i)], spgl1_stat=int(info["stat"]),
            niters=int(info["niters"]))
