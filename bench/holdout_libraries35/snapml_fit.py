"""snapml (IBM Snap ML): its scikit-learn-style generalised linear models (``LogisticRegression``,
``LinearRegression``, ``SupportVectorMachine``) with ``verbose=True`` and ``generate_training_history="full"`` on
synthetic data. Its C++ core prints on stdout ``[Info] Single-threaded mode.``, a boxed ``Training objective per
iteration`` header, then one line an epoch ``epoch:     3, t_elap_sec:       0.00, train_obj: -5.029211e+01`` (the
dual objective for the dual solvers, negative; the primal one otherwise), and a closing ``[Info] Tolerance 0.001
attained after 5 epochs.`` or ``[Info] Warning: did not converge within tolerance 0.001``. ``privacy=True`` trains the
primal logistic regression by (differentially private) SGD with the learning rate ``eta``, and prints its privacy
parameters first (``eps:1.000000e+06, delta:...``). Truth: the estimator's ``training_history_`` (the library's own
record: ``train_obj`` at ``epochs``)."""

from __future__ import annotations

import argparse

import numpy as np
from h35_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="logreg", choices=["logreg", "linreg", "svm"])
ap.add_argument("--primal", action="store_true", help="dual=False")
ap.add_argument("--penalty", default="l2")
ap.add_argument("--regularizer", type=float, default=1.0)
ap.add_argument("--max-iter", type=int, default=20)
ap.add_argument("--privacy-eta", type=float, default=0.0, help="privacy=True: DP-SGD with this eta (no noise)")
ap.add_argument("--n", type=int, default=500)
ap.add_argument("--p", type=int, default=20)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

from snapml import LinearRegression, LogisticRegression, SupportVectorMachine  # noqa: E402

rng = np.random.default_rng(0)
X = (rng.normal(size=(a.n, a.p)) * rng.uniform(0.3, 2.0, size=a.p)).astype(np.float32)
w = rng.normal(size=a.p)
if a.model == "linreg":
    y = (X @ w + 0.3 * rng.normal(size=a.n)).astype(np.float32)
else:
    y = (X @ w + 0.5 * rng.normal(size=a.n) > 0).astype(np.float32)
kw = dict(max_iter=a.max_iter, regularizer=a.regularizer, verbose=True, n_jobs=1, tol=1e-3,
          generate_training_history="full", dual=not (a.primal or a.privacy_eta))
if a.model == "svm":  # dual only, no penalty choice
    del kw["dual"]
else:
    kw["penalty"] = a.penalty
if a.privacy_eta:
    kw.update(privacy=True, eta=a.privacy_eta, grad_clip=1e6, privacy_epsilon=1e6)
est = {"logreg": LogisticRegression, "linreg": LinearRegression, "svm": SupportVectorMachine}[a.model](**kw)
est.fit(X, y)

hist = est.training_history_[0]
write_truth(framework=f"snapml {version('snapml')}", settings=vars(a), loss_name="train_obj",
            step_unit="epoch, 0-based (`epoch:     N`)", tolerance=tol_sig(7),
            record="the estimator's `training_history_` (`generate_training_history=\"full\"`: `train_obj`, `epochs`)",
            train_loss=[(int(e), float(v)) for e, v in zip(hist["epochs"], hist["train_obj"], strict=True)])
