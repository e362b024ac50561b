"""GPy: a Gaussian process regression (``GPRegression``, or ``SparseGPRegression`` with inducing points) on a
synthetic 1-D series, its hyper-parameters fitted by ``model.optimize(optimizer, messages=True, max_iters=...)`` as a
user runs it from a script (no notebook). paramz's ``VerboseOptimization`` then prints on stdout a header
``Running L-BFGS-B (Scipy implementation) Code:`` / ``  runtime   i      f              |g|``, and per objective
evaluation, redrawn with ``\\r`` (a newline now and then, at random), ``    00s12  0007   8.192257e+01
3.1e+02`` - printed for every evaluation during the first 0.2 s, then at most once a second -, then ``Runtime:`` and
``Optimization status:``; the model's table printed at the end. The climin optimizers (``adam``, ``rprop``) take a
``step_rate``. Truth: the values paramz prints, taken where it prints them (its ``VerboseOptimization.print_out``
wrapped to record ``(iteration, fnow)``; GPy keeps no history of the objective), at paramz's own evaluation count
(0-based)."""

from __future__ import annotations

import argparse

from h25_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--optimizer", default="lbfgsb")
ap.add_argument("--kernel", default="rbf", choices=["rbf", "matern52", "rbf+linear"])
ap.add_argument("--n", type=int, default=100)
ap.add_argument("--sparse", type=int, default=0, help="inducing points (0: a full GP)")
ap.add_argument("--iters", type=int, default=1000)
ap.add_argument("--step-rate", type=float, default=None)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import GPy  # noqa: E402
import numpy as np  # noqa: E402
from paramz.optimization import verbose_optimization as vo  # noqa: E402

printed: dict[int, float] = {}
_print_out = vo.VerboseOptimization.print_out


def print_out(self, seconds):
    _print_out(self, seconds)
    if self.verbose and not self.ipython_notebook:
        printed[int(self.iteration)] = float(self.fnow)


vo.VerboseOptimization.print_out = print_out

rng = np.random.RandomState(0)
X = rng.uniform(-3, 3, (a.n, 1))
Y = np.sin(2 * X) + 0.3 * X + 0.1 * rng.randn(a.n, 1)
if a.kernel == "rbf":
    k = GPy.kern.RBF(1)
elif a.kernel == "matern52":
    k = GPy.kern.Matern52(1)
else:
    k = GPy.kern.RBF(1) + GPy.kern.Linear(1)
if a.sparse:
    m = GPy.models.SparseGPRegression(X, Y, k, num_inducing=a.sparse)
else:
    m = GPy.models.GPRegression(X, Y, k)
kw = {} if a.step_rate is None else {"step_rate": a.step_rate}
m.optimize(a.optimizer, messages=True, max_iters=a.iters, **kw)
print(m)

write_truth(framework=f"GPy {version('GPy')} (paramz {version('paramz')})", settings=vars(a),
            loss_name="f (the negative log marginal likelihood)",
            step_unit="objective evaluation, 0-based (the `i` column)", tolerance=tol_sig(7),
            record="paramz's VerboseOptimization values where it prints them (`iteration`, `fnow`)",
            train_loss=sorted(printed.items()))
