"""SigPy: iterative reconstruction ``App``s run as its tutorials run them, with ``save_objective_values=True`` and its
progress bar on (tqdm on stderr, no TTY: the bar redrawn after ``\\r`` at each iteration, ``LinearLeastSquares:
 35%|###5      | 14/40 [00:00<00:00, 812.41it/s, obj=1.23E+02]``; the step size's power iteration first draws its own
``MaxEig`` bar with ``max_eig=...``). Problems: a least-squares fit of a random dense operator (``sp.linop.MatMul``)
by conjugate gradient, gradient descent (with or without Nesterov acceleration, the step given or found by the power
method), ADMM or primal-dual; and MRI recons of its own Shepp-Logan phantom with its birdcage coil maps and Poisson
undersampling (``sigpy.mri.app.L1WaveletRecon``, ``TotalVariationRecon``). Truth: the app's ``objective_values``
(the objective after each iteration; its first value, before any, is not drawn), at the iteration, 1-based."""

from __future__ import annotations

import argparse

from h97_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--problem", default="lls", choices=["lls", "l1wavelet", "tv"])
ap.add_argument("--solver", default="ConjugateGradient",
                choices=["ConjugateGradient", "GradientMethod", "ADMM", "PrimalDualHybridGradient"])
ap.add_argument("--iters", type=int, default=30)
ap.add_argument("--alpha", type=float, default=0.0, help="GradientMethod step size (0: 1/max_eig by power method)")
ap.add_argument("--no-accelerate", action="store_true")
ap.add_argument("--lamda", type=float, default=0.0)
ap.add_argument("--m", type=int, default=120)
ap.add_argument("--n", type=int, default=60)
ap.add_argument("--size", type=int, default=64)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import sigpy as sp  # noqa: E402
import sigpy.mri as mr  # noqa: E402

rng = np.random.default_rng(0)
kw: dict = {"max_iter": a.iters, "save_objective_values": True}
if a.alpha:
    kw["alpha"] = a.alpha
if a.no_accelerate:
    kw["accelerate"] = False
if a.problem == "lls":
    mat = rng.normal(size=(a.m, a.n)) / np.sqrt(a.m)
    x_true = rng.normal(size=(a.n, 1))
    y = mat @ x_true + 0.05 * rng.normal(size=(a.m, 1))
    A = sp.linop.MatMul((a.n, 1), mat)
    app = sp.app.LinearLeastSquares(A, y, solver=a.solver, lamda=a.lamda, **kw)
else:
    shape = (a.size, a.size)
    img = sp.shepp_logan(shape)
    mps = mr.birdcage_maps((4, *shape))
    mask = mr.poisson(shape, accel=3, seed=0)
    ksp = mask * sp.fft(mps * img, axes=(-2, -1))
    ksp = ksp + 0.01 * mask * (rng.normal(size=ksp.shape) + 1j * rng.normal(size=ksp.shape))
    if a.problem == "l1wavelet":
        app = mr.app.L1WaveletRecon(ksp, mps, a.lamda or 0.005, solver=a.solver, **kw)
    else:
        app = mr.app.TotalVariationRecon(ksp, mps, a.lamda or 0.005, solver=a.solver, **kw)
x = app.run()
objs = [float(v) for v in app.objective_values]
write_truth(framework=f"sigpy {sp.__version__}", settings=vars(a), loss_name="obj",
            step_unit="iteration, 1-based (the bar's `14/40`)", tolerance=tol_sig(3),
            record="the app's `objective_values` (after each iteration; the value before the first is not drawn)",
            train_loss=list(enumerate(objs[1:], 1)))
