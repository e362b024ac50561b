"""POT (Python Optimal Transport): one of its iterative solvers on small synthetic point clouds, with
``verbose=True, log=True`` as its examples call them: Gromov-Wasserstein (``ot.gromov.gromov_wasserstein``, square or
KL loss), fused Gromov-Wasserstein (``ot.gromov.fused_gromov_wasserstein``), regularised OT by conditional gradient
(``ot.optim.cg`` with a squared-Frobenius or KL regulariser) or Sinkhorn (``ot.sinkhorn``). The solvers ``print``
(stdout, block-buffered) a table: ``It.  |Loss        |Relative loss|Absolute loss``, a rule, then
``    3|2.644455e-02|4.863383e-02|1.286100e-03`` per iteration (from iteration 0, the header again every 20
iterations); Sinkhorn's ``It.  |Err`` table every 10 iterations (``   40|1.420461e-02|``, the header again every 200),
its warnings (``UserWarning: Sinkhorn did not converge``) on stderr. Truth: the solver's own ``log`` dict
(``log["loss"]``, one value per iteration from 0; Sinkhorn's ``log["err"]``, one per 10 iterations: at 10 x index, the
last dropped when it is below ``stopThr``, where the solver stops before printing it), at the iteration (``It.``)."""

from __future__ import annotations

import argparse

from h43_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--solver", default="gw", choices=["gw", "fgw", "cg", "sinkhorn"])
ap.add_argument("--loss-fun", default="square_loss", choices=["square_loss", "kl_loss"])
ap.add_argument("--ns", type=int, default=30)
ap.add_argument("--nt", type=int, default=40)
ap.add_argument("--reg", type=float, default=0.1)
ap.add_argument("--regularizer", default="l2", choices=["l2", "kl"])
ap.add_argument("--alpha", type=float, default=0.5)
ap.add_argument("--iters", type=int, default=100)
ap.add_argument("--stop", type=float, default=1e-9)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import ot  # noqa: E402

rng = np.random.RandomState(0)
xs = rng.randn(a.ns, 2)
theta = rng.rand(a.nt) * 2 * np.pi
xt = np.c_[np.cos(theta), np.sin(theta), 0.3 * rng.randn(a.nt)] * 2 + 1
p, q = ot.unif(a.ns), ot.unif(a.nt)

if a.solver in ("gw", "fgw"):
    C1, C2 = ot.dist(xs, xs), ot.dist(xt, xt)
    C1 /= C1.max()
    C2 /= C2.max()
    if a.loss_fun == "kl_loss":
        C1, C2 = C1 + 1e-2, C2 + 1e-2
    if a.solver == "gw":
        T, log = ot.gromov.gromov_wasserstein(C1, C2, p, q, a.loss_fun, verbose=True, log=True, max_iter=a.iters,
                                              tol_rel=a.stop, tol_abs=a.stop)
    else:
        M = ot.dist(xs[:, :1], xt[:, :1])
        M /= M.max()
        T, log = ot.gromov.fused_gromov_wasserstein(M, C1, C2, p, q, a.loss_fun, alpha=a.alpha, verbose=True,
                                                    log=True, max_iter=a.iters, tol_rel=a.stop, tol_abs=a.stop)
    series, name = [(i, v) for i, v in enumerate(log["loss"])], "Loss"
elif a.solver == "cg":
    M = ot.dist(xs[:, :2], xt[:, :2])
    M /= M.max()
    if a.regularizer == "l2":
        def f(G):
            return 0.5 * np.sum(G ** 2)

        def df(G):
            return G
    else:
        def f(G):
            return np.sum(G * np.log(G + 1e-16))

        def df(G):
            return np.log(G + 1e-16) + 1.0
    T, log = ot.optim.cg(p, q, M, a.reg, f, df, verbose=True, log=True, numItermax=a.iters, stopThr=a.stop,
                         stopThr2=a.stop)
    series, name = [(i, v) for i, v in enumerate(log["loss"])], "Loss"
else:
    M = ot.dist(xs[:, :2], xt[:, :2])
    T, log = ot.sinkhorn(p, q, M, a.reg, verbose=True, log=True, numItermax=a.iters, stopThr=a.stop)
    series = [(10 * i, v) for i, v in enumerate(log["err"]) if v >= a.stop]
    name = "Err"

write_truth(framework=f"pot {ot.__version__}", settings=vars(a), loss_name=name,
            step_unit="iteration, 0-based (the `It.` column)", tolerance=tol_sig(7),
            record=f"the solver's own `log` dict (`log[\"{'err' if name == 'Err' else 'loss'}\"]`)",
            train_loss=[(s, float(v)) for s, v in series])
