"""mlxtend: one of its gradient-trained estimators (``LinearRegression(method="sgd")``, ``Adaline``,
``LogisticRegression``, ``SoftmaxRegression``, ``MultiLayerPerceptron``) fitted on a small synthetic table with
``print_progress`` 1, 2 or 3, as its user guide shows. Its progress line goes to stderr, one ``\\r`` redraw per
epoch, never a newline: ``\\rIteration: 12/50 | Cost 0.53 | Elapsed: 00:00:00 | ETA: 00:00:00`` (the cost with 2
decimals; ``Elapsed``/``ETA`` with 2 and 3). Truth: the estimator's ``cost_`` list (one cost an epoch, over the whole
training set, after the epoch's updates), at the epoch, 1-based, as ``Iteration: N/M`` counts it."""

from __future__ import annotations

import argparse

import numpy as np
from h6_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="linreg", choices=["linreg", "adaline", "logreg", "softmax", "mlp"])
ap.add_argument("--eta", type=float, default=0.01)
ap.add_argument("--epochs", type=int, default=50)
ap.add_argument("--minibatches", type=int, default=1)
ap.add_argument("--progress", type=int, default=1)
ap.add_argument("--n", type=int, default=200)
ap.add_argument("--no-scale", action="store_true", help="leave the features unstandardised")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import mlxtend  # noqa: E402
from mlxtend.classifier import Adaline, LogisticRegression, MultiLayerPerceptron, SoftmaxRegression  # noqa: E402
from mlxtend.regressor import LinearRegression  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 4)) * np.array([1.0, 3.0, 0.5, 2.0]) + np.array([2.0, -1.0, 0.0, 5.0])
if not a.no_scale:
    X = (X - X.mean(0)) / X.std(0)
w = np.array([1.5, -2.0, 0.7, 1.0])
if a.model == "linreg":
    y = X @ w + 3.0 + rng.normal(scale=0.5, size=a.n)
    est = LinearRegression(method="sgd", eta=a.eta, epochs=a.epochs, minibatches=a.minibatches, random_seed=1,
                           print_progress=a.progress)
elif a.model == "adaline":
    y = (X @ w + rng.normal(scale=0.5, size=a.n) > 0).astype(int)
    est = Adaline(eta=a.eta, epochs=a.epochs, minibatches=a.minibatches, random_seed=1, print_progress=a.progress)
elif a.model == "logreg":
    y = (X @ w + rng.normal(scale=1.0, size=a.n) > 0).astype(int)
    est = LogisticRegression(eta=a.eta, epochs=a.epochs, l2_lambda=0.0, minibatches=a.minibatches, random_seed=1,
                             print_progress=a.progress)
elif a.model == "softmax":
    s = X @ np.stack([w, -w[::-1], np.array([0.5, 0.5, -1.0, 0.0])], axis=1) + rng.normal(size=(a.n, 3))
    y = s.argmax(1)
    est = SoftmaxRegression(eta=a.eta, epochs=a.epochs, l2=0.0, minibatches=a.minibatches, n_classes=3,
                            random_seed=1, print_progress=a.progress)
else:
    s = X @ np.stack([w, -w[::-1], np.array([0.5, 0.5, -1.0, 0.0])], axis=1) + rng.normal(size=(a.n, 3))
    y = s.argmax(1)
    est = MultiLayerPerceptron(eta=a.eta, epochs=a.epochs, hidden_layers=[16], n_classes=3, momentum=0.0,
                               minibatches=a.minibatches, random_seed=1, print_progress=a.progress)

est.fit(X, y)

costs = [float(c) for c in est.cost_]
write_truth(framework=f"mlxtend {mlxtend.__version__}", settings=vars(a), loss_name="Cost",
            step_unit="epoch, 1-based (`Iteration: N/M`)", tolerance=tol_decimals(2),
            record=f"the estimator's `cost_` list ({type(est).__name__}.fit)",
            train_loss=[(i + 1, c) for i, c in enumerate(costs)])
