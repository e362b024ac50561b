"""SPORCO (Sparse Optimisation Research Code): dictionary learning as its examples do it, on small synthetic data
(no download): ``bpdndl.BPDNDictLearn`` (a patch dictionary, ADMM for both steps) on sparse combinations of a
hidden dictionary, ``cbpdndl.ConvBPDNDictLearn`` (a convolutional dictionary; sparse coding ``xmethod`` and
dictionary update ``dmethod`` ``pgm`` or an ADMM one, ``cns`` / ``cg`` / ``ism``; ``pgm``, the proximal gradient
method, with a fixed ``L`` or its backtracking) on the high-pass parts of small synthetic images. With ``Verbose``
SPORCO prints its own table on stdout: a header ``Itn   Fnc       DFid ...``, a rule of dashes, then a row an
iteration ``   3  4.97e+01  1.73e+01  3.24e+02 ...`` (``%.2e``). Truth: the solver's own iteration record,
``getitstat()`` (``ObjFun`` at ``Iter``, 0-based)."""

from __future__ import annotations

import argparse

from h80_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="cbpdndl", choices=["bpdndl", "cbpdndl"])
ap.add_argument("--xmethod", default="admm", choices=["admm", "pgm"])
ap.add_argument("--dmethod", default="pgm", choices=["pgm", "cns", "cg", "ism"])
ap.add_argument("--iters", type=int, default=20)
ap.add_argument("--lmbda", type=float, default=0.1)
ap.add_argument("--xL", type=float, default=None, help="fixed L (1/step) of a pgm sparse coding, no backtracking")
ap.add_argument("--dL", type=float, default=None, help="fixed L (1/step) of a pgm dictionary update")
ap.add_argument("--backtrack", action="store_true", help="pgm with its standard backtracking")
ap.add_argument("--accurate", action="store_true", help="AccurateDFid")
ap.add_argument("--atoms", type=int, default=12)
ap.add_argument("--size", type=int, default=6, help="filter size (convolutional) or patch length / 8")
ap.add_argument("--images", type=int, default=4)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import sporco  # noqa: E402
from sporco import signal  # noqa: E402
from sporco.dictlrn import bpdndl, cbpdndl  # noqa: E402
from sporco.pgm.backtrack import BacktrackStandard  # noqa: E402

rng = np.random.default_rng(0)


def images(n: int, side: int = 32) -> np.ndarray:
    """Smooth blobs and edges, the high-pass part SPORCO's examples learn from (``tikhonov_filter``)."""
    yy, xx = np.mgrid[:side, :side] / side
    out = []
    for _ in range(n):
        im = np.zeros((side, side))
        for _ in range(6):
            cx, cy, w = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.03, 0.12)
            im += rng.uniform(0.3, 1.0) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * w * w))
        th = rng.uniform(0, np.pi)
        im += 0.5 * (np.cos(th) * xx + np.sin(th) * yy > rng.uniform(0.3, 0.7))
        out.append(im + 0.02 * rng.standard_normal((side, side)))
    stack = np.stack(out, axis=-1)
    _, high = signal.tikhonov_filter(stack, 5.0)
    return high


def pgm_opts(L: float | None) -> dict:
    o: dict = {}
    if L is not None:
        o["L"] = L
    o["Backtrack"] = BacktrackStandard() if a.backtrack else None
    return o


if a.model == "bpdndl":
    n = 8 * a.size
    Dh = rng.standard_normal((n, 2 * a.atoms))
    Dh /= np.linalg.norm(Dh, axis=0)
    X0 = np.zeros((2 * a.atoms, 200))
    on = rng.random(X0.shape) < 0.08
    X0[on] = rng.standard_normal(np.count_nonzero(on))
    S = Dh @ X0 + 0.02 * rng.standard_normal((n, 200))
    D0 = rng.standard_normal((n, a.atoms))
    opt = bpdndl.BPDNDictLearn.Options({"Verbose": True, "MaxMainIter": a.iters, "AccurateDFid": a.accurate,
                                        "BPDN": {"rho": 10.0 * a.lmbda + 0.1},
                                        "CMOD": {"rho": S.shape[1] / 1e3}})
    solver = bpdndl.BPDNDictLearn(D0, S, a.lmbda, opt)
    solver.solve()
    stat = solver.getitstat()
else:
    S = images(a.images)
    D0 = rng.standard_normal((a.size, a.size, a.atoms))
    xo = {"rho": 50.0 * a.lmbda + 0.5, "AutoRho": {"Enabled": True}} if a.xmethod == "admm" else pgm_opts(a.xL)
    do = pgm_opts(a.dL) if a.dmethod == "pgm" else {"rho": 10.0, "AutoRho": {"Enabled": True}}
    opt = cbpdndl.ConvBPDNDictLearn.Options({"Verbose": True, "MaxMainIter": a.iters, "AccurateDFid": a.accurate,
                                             "CBPDN": xo, "CCMOD": do}, xmethod=a.xmethod, dmethod=a.dmethod)
    solver = cbpdndl.ConvBPDNDictLearn(D0, S, a.lmbda, opt, xmethod=a.xmethod, dmethod=a.dmethod)
    solver.solve()
    stat = solver.getitstat()
write_truth(framework=f"sporco {sporco.__version__}", settings=vars(a), loss_name="ObjFun",
            step_unit="iteration, 0-based (the `Itn` column)", tolerance=tol_sig(3),
            record="the solver's iteration record, `getitstat()` (`ObjFun` at `Iter`)",
            train_loss=list(zip(stat.Iter, stat.ObjFun, strict=True)),
            dfid=[[int(i), float(v)] for i, v in zip(stat.Iter, stat.DFid, strict=True)])
