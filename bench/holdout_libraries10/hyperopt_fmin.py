"""hyperopt: ``fmin`` tuning a small scikit-learn model on synthetic data (``MLPRegressor``'s learning rate, alpha
and width, or ``GradientBoostingRegressor``'s learning rate, depth and trees; the validation mean squared error as
the loss), with ``tpe.suggest``, ``rand.suggest`` or ``anneal.suggest`` and a ``Trials`` object, as its docs show.
Its default progress bar (tqdm, on stderr, ``\\r`` redraws, no TTY) shows the best loss after each finished trial:
``\\r 30%|███       | 6/20 [00:01<00:03,  3.51trial/s, best loss: 0.041151343998453924]`` (``str`` of the float: all its
digits). Each trial fits a model (a fraction of a second), longer than tqdm's 0.1 s redraw interval, so every trial's
count is printed. Truth: the best loss so far, from the ``Trials`` record (``trials.losses()``, one loss a trial; its
running minimum), at the trial count, 1-based, as the bar counts it (``7/20``)."""

from __future__ import annotations

import argparse

import numpy as np
from h10_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algo", default="tpe", choices=["tpe", "rand", "anneal"])
ap.add_argument("--model", default="mlp", choices=["mlp", "gbr"])
ap.add_argument("--evals", type=int, default=20)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import hyperopt  # noqa: E402
from hyperopt import Trials, anneal, fmin, hp, rand, tpe  # noqa: E402
from sklearn.datasets import make_regression  # noqa: E402
from sklearn.ensemble import GradientBoostingRegressor  # noqa: E402
from sklearn.metrics import mean_squared_error  # noqa: E402
from sklearn.neural_network import MLPRegressor  # noqa: E402

X, y = make_regression(n_samples=3000, n_features=10, noise=40.0, random_state=0)
y = y / np.std(y)
X_tr, X_va, y_tr, y_va = X[:2000], X[2000:], y[:2000], y[2000:]

if a.model == "mlp":
    space = {"lr": hp.loguniform("lr", np.log(1e-4), np.log(3e-2)), "alpha": hp.loguniform("alpha", -12, -2),
             "width": hp.choice("width", [8, 16, 32])}

    def objective(p):
        est = MLPRegressor(hidden_layer_sizes=(p["width"],), learning_rate_init=p["lr"], alpha=p["alpha"],
                           max_iter=100, tol=0.0, n_iter_no_change=1000, random_state=0)
        est.fit(X_tr, y_tr)
        return float(mean_squared_error(y_va, est.predict(X_va)))
else:
    space = {"lr": hp.loguniform("lr", np.log(1e-3), np.log(0.5)), "depth": hp.choice("depth", [1, 2, 3, 4]),
             "trees": hp.quniform("trees", 50, 200, 25)}

    def objective(p):
        est = GradientBoostingRegressor(learning_rate=p["lr"], max_depth=p["depth"], n_estimators=int(p["trees"]),
                                        random_state=0)
        est.fit(X_tr, y_tr)
        return float(mean_squared_error(y_va, est.predict(X_va)))

import warnings  # noqa: E402

from sklearn.exceptions import ConvergenceWarning  # noqa: E402

warnings.simplefilter("ignore", ConvergenceWarning)
algo = {"tpe": tpe.suggest, "rand": rand.suggest, "anneal": anneal.suggest}[a.algo]
trials = Trials()
best = fmin(objective, space, algo=algo, max_evals=a.evals, trials=trials, rstate=np.random.default_rng(1))
print(best)

losses = [float(v) for v in trials.losses()]
durations = [(t["refresh_time"] - t["book_time"]).total_seconds() for t in trials.trials]
write_truth(framework=f"hyperopt {hyperopt.__version__}", settings=vars(a), loss_name="best loss",
            step_unit="trial, 1-based (the bar's `N/M`)", tolerance={"rel": 1e-9, "abs": 1e-9},
            record="the `Trials` object's `trials.losses()` (one validation loss a trial), its running minimum "
                   "(the `best loss` the progress bar shows)",
            train_loss=[(i + 1, float(b)) for i, b in enumerate(np.minimum.accumulate(losses))], losses=losses,
            trial_seconds=[round(d, 3) for d in durations])
