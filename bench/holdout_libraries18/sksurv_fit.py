"""scikit-survival: a gradient-boosted survival model (``GradientBoostingSurvivalAnalysis`` of regression trees, or
``ComponentwiseGradientBoostingSurvivalAnalysis`` of one-feature least squares), losses ``coxph`` / ``squared`` /
``ipcwls``, fitted on synthetic right-censored survival times with ``verbose`` 1 or 2, as its user guide shows. Its
progress table goes to stdout: a header ``      Iter       Train Loss   Remaining Time`` (``OOB Improve`` too when
``subsample < 1``), then rows ``{iter:>10d}{train_loss:>16.4f}{remaining:>16s}``: with ``verbose=1`` at iterations
1-10, then every 10 up to 100, every 100 after; every iteration with ``verbose=2``. Truth: the estimator's own
``train_score_`` array (the loss on the (in-bag) training data after each stage), at the iteration, 1-based, only at
the iterations the table prints."""

from __future__ import annotations

import argparse
import math

import numpy as np
from h18_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="trees", choices=["trees", "componentwise"])
ap.add_argument("--loss", default="coxph", choices=["coxph", "squared", "ipcwls"])
ap.add_argument("--lr", type=float, default=0.1)
ap.add_argument("--estimators", type=int, default=50)
ap.add_argument("--depth", type=int, default=2)
ap.add_argument("--subsample", type=float, default=1.0)
ap.add_argument("--verbose", type=int, default=1)
ap.add_argument("--n", type=int, default=300)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import sksurv  # noqa: E402
from sksurv.ensemble import ComponentwiseGradientBoostingSurvivalAnalysis, GradientBoostingSurvivalAnalysis  # noqa: E402
from sksurv.util import Surv  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 6))
risk = X[:, :3] @ np.array([0.8, -0.5, 0.3]) + 0.4 * X[:, 3] ** 2
time = rng.exponential(np.exp(-risk)) * 10.0 + 0.01
censor = rng.exponential(15.0, size=a.n)
event = time <= censor
y = Surv.from_arrays(event, np.minimum(time, censor))

if a.model == "trees":
    est = GradientBoostingSurvivalAnalysis(loss=a.loss, learning_rate=a.lr, n_estimators=a.estimators,
                                           max_depth=a.depth, subsample=a.subsample, verbose=a.verbose,
                                           random_state=0)
else:
    est = ComponentwiseGradientBoostingSurvivalAnalysis(loss=a.loss, learning_rate=a.lr,
                                                        n_estimators=a.estimators, subsample=a.subsample,
                                                        verbose=a.verbose, random_state=0)
est.fit(X, y)
print(f"concordance index (train): {est.score(X, y):.4f}")


def printed(step: int) -> bool:
    """The iterations the table prints (its reporter's rule: verbose 1 thins by powers of ten)."""
    return a.verbose > 1 or step % (10 ** int(math.log10(step))) == 0


scores = [float(v) for v in est.train_score_]
write_truth(framework=f"scikit-survival {sksurv.__version__}", settings=vars(a), loss_name="Train Loss",
            step_unit="boosting iteration, 1-based (the table's `Iter` column)", tolerance=tol_decimals(4),
            record=f"the estimator's `train_score_` array ({type(est).__name__}.fit)",
            train_loss=[(i + 1, v) for i, v in enumerate(scores) if printed(i + 1)])
