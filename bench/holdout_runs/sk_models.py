"""A user's scikit-learn script: MLP or SGD estimators with ``verbose`` on, on synthetic data.

Truth: MLP ``loss_curve_`` (iteration, 1-based); SGD estimators keep no loss record, so the same seeded fit is
first run with the process' stdout (fd 1) captured, and its ``-- Epoch N`` / ``Avg. loss: X`` lines (what the
estimator's Cython loop prints) are the truth; the fit that reaches the log is the identical second fit.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import warnings

import numpy as np
from holdout_truth import write_truth
from sklearn.datasets import make_classification, make_regression
from sklearn.linear_model import SGDClassifier, SGDRegressor
from sklearn.neural_network import MLPClassifier, MLPRegressor
from sklearn.preprocessing import StandardScaler

p = argparse.ArgumentParser()
p.add_argument("--model", default="mlpreg")  # mlpreg | mlpcls_partial | sgdcls | sgdreg
p.add_argument("--solver", default="adam")
p.add_argument("--lr", type=float, default=1e-3)
p.add_argument("--lr-schedule", default="constant")
p.add_argument("--iters", type=int, default=50)
p.add_argument("--scale", action="store_true")
p.add_argument("--label", default="healthy")
p.add_argument("--should-stop", action="store_true")
args = p.parse_args()

warnings.simplefilter("default")


def sgd_truth(make):
    """Fit once with fd 1 captured; the epochs and average losses it printed."""
    sys.stdout.flush()
    keep = os.dup(1)
    with tempfile.TemporaryFile() as f:
        os.dup2(f.fileno(), 1)
        try:
            try:
                make().fit(X, y)
            except (ValueError, FloatingPointError):
                pass
        finally:
            sys.stdout.flush()
            os.dup2(keep, 1)
            os.close(keep)
        f.seek(0)
        text = f.read().decode()
    epochs = [int(m) for m in re.findall(r"-- Epoch (\d+)", text)]
    losses = [float(m) for m in re.findall(r"Avg\. loss: ([^\s,]+)", text)]
    return list(zip(epochs, losses, strict=False))


if args.model in ("mlpreg", "sgdreg"):
    X, y = make_regression(n_samples=600, n_features=20, n_informative=8, noise=5.0, random_state=4)
    y = y / 10.0
else:
    X, y = make_classification(n_samples=600, n_features=20, n_informative=6, random_state=4)
if args.scale:
    X = StandardScaler().fit_transform(X)

if args.model == "mlpreg":
    m = MLPRegressor(hidden_layer_sizes=(32,), solver=args.solver, learning_rate_init=args.lr,
                     learning_rate=args.lr_schedule, max_iter=args.iters, tol=1e-9, n_iter_no_change=5,
                     momentum=0.9, nesterovs_momentum=True, random_state=1, verbose=True)
    m.fit(X, y)
    pts, unit, record, tol = list(enumerate(m.loss_curve_, 1)), "iteration (1-based, as 'Iteration N' prints it)", \
        "MLPRegressor.loss_curve_", {"rel": 1e-3, "abs": 5e-9}
elif args.model == "mlpcls_partial":
    m = MLPClassifier(hidden_layer_sizes=(24, 12), learning_rate_init=args.lr, random_state=2, verbose=True,
                      batch_size=50)
    classes = np.unique(y)
    rng = np.random.default_rng(0)
    for epoch in range(args.iters):
        idx = rng.permutation(len(X))
        m.partial_fit(X[idx], y[idx], classes=classes)
        if epoch % 5 == 4:
            print(f">>> epoch {epoch + 1}/{args.iters} train acc {m.score(X, y):.3f}")
    pts, unit, record, tol = list(enumerate(m.loss_curve_, 1)), "iteration (1-based, as 'Iteration N' prints it)", \
        "MLPClassifier.loss_curve_ (partial_fit)", {"rel": 1e-3, "abs": 5e-9}
else:
    def make():
        if args.model == "sgdreg":
            return SGDRegressor(max_iter=args.iters, tol=None, eta0=args.lr, learning_rate=args.lr_schedule,
                                random_state=3, verbose=1)
        return SGDClassifier(loss="log_loss", max_iter=args.iters, tol=None, eta0=args.lr,
                             learning_rate=args.lr_schedule, random_state=3, verbose=1)

    pts = sgd_truth(make)
    try:
        make().fit(X, y)
    except (ValueError, FloatingPointError) as e:
        print(f"training failed: {e}", file=sys.stderr)
    unit, record, tol = "epoch (1-based, as '-- Epoch N' prints it)", \
        "the estimator's own printed Avg. loss (fd-captured identical fit)", {"rel": 1e-3, "abs": 5e-7}
write_truth(framework="scikit-learn", settings={k: v for k, v in vars(args).items() if k != "label"},
            label=args.label, should_stop=args.should_stop, loss_name="loss", step_unit=unit, tolerance=tol,
            record=record, train_loss=pts)
