"""scikit-optimize: ``gp_minimize`` or ``forest_minimize`` tuning a small
objective with ``verbose=True``, as its examples do: either a synthetic 2-d function (Branin, or a sine bowl) or the
validation error of a scikit-learn model on synthetic data (``SGDRegressor``'s log10 learning rate and alpha). Its
``VerboseCallback`` prints on stdout, per call: ``Iteration No: 7 started. Searching for the next optimal point.``,
``Iteration No: 7 ended. Search finished for the next optimal point.``, ``Time taken: 1.2719``, ``Function value
obtained: 0.6685``, ``Current minimum: 0.4209`` (``%.4f``; ``Evaluating function at random point`` for the initial
points). Truth: the best objective so far (``Current minimum``), from the result's own record ``res.func_vals`` (its
running minimum), at the call, 1-based (``Iteration No: N``)."""

from __future__ import annotations

import argparse

import numpy as np
from h10_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--minimizer", default="gp", choices=["gp", "forest"])
ap.add_argument("--objective", default="branin", choices=["branin", "bowl", "sgd"])
ap.add_argument("--calls", type=int, default=15)
ap.add_argument("--initial", type=int, default=5)
ap.add_argument("--acq", default="gp_hedge")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import skopt  # noqa: E402
from skopt import forest_minimize, gp_minimize  # noqa: E402
from skopt.benchmarks import branin  # noqa: E402

space: list  # dimensions: (low, high) or (low, high, prior)
if a.objective == "branin":
    space, fun = [(-5.0, 10.0), (0.0, 15.0)], branin
elif a.objective == "bowl":
    space = [(-2.0, 2.0), (-2.0, 2.0)]

    def fun(x):
        return float((x[0] - 0.3) ** 2 + np.sin(3 * x[1]) + 0.1 * x[1] ** 2 + 1.0)
else:
    from sklearn.datasets import make_regression
    from sklearn.linear_model import SGDRegressor
    from sklearn.metrics import mean_squared_error

    X, y = make_regression(n_samples=300, n_features=8, noise=10.0, random_state=0)
    X_tr, X_va, y_tr, y_va = X[:200], X[200:], y[:200] / 100.0, y[200:] / 100.0
    space = [(-5.0, -1.5, "uniform"), (-6.0, 0.0, "uniform")]

    def fun(x):
        est = SGDRegressor(learning_rate="constant", eta0=10 ** x[0], alpha=10 ** x[1], max_iter=50, tol=None,
                           random_state=0).fit(X_tr, y_tr)
        pred = np.nan_to_num(est.predict(X_va), nan=1e6, posinf=1e6, neginf=-1e6)
        return float(min(mean_squared_error(y_va, pred), 1e6))

common = dict(n_calls=a.calls, random_state=1, verbose=True)
if a.minimizer == "gp":
    res = gp_minimize(fun, space, n_initial_points=a.initial, acq_func=a.acq, **common)
else:
    res = forest_minimize(fun, space, n_initial_points=a.initial, acq_func=a.acq, **common)

vals = [float(v) for v in res.func_vals]
best = np.minimum.accumulate(vals)
write_truth(framework=f"scikit-optimize {skopt.__version__}", settings=vars(a), loss_name="Current minimum",
            step_unit="call, 1-based (`Iteration No: N`)", tolerance=tol_decimals(4),
            record="the result's `res.func_vals` (one objective value a call), its running minimum (the "
                   "`Current minimum` the VerboseCallback prints); `Function value obtained` = `res.func_vals`",
            train_loss=[(i + 1, float(b)) for i, b in enumerate(best)], func_vals=vals)
