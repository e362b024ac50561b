"""gpjax: a Gaussian process regression (``Prior(Constant mean, RBF / Matern52 kernel) * Gaussian likelihood``)
fitted with ``gpx.fit`` to the negative conjugate marginal log-likelihood, with an optax optimizer (adam, sgd,
rmsprop), as its docs show (float64). ``fit``'s ``verbose`` bar (tqdm over ``jax.lax.scan``) goes to stderr, redrawn
with ``\\r``: ``Running:  40%|████      | 40/100 [00:00<00:00, 310.2it/s, Value=45.98]`` (``"{: .2f}"``, drawn
every 10 iterations: the bar advances by 10 and ``set_postfix`` shows the objective of the first of those 10).
Truth: the ``history`` array ``fit`` returns (the objective at each iteration, before its update), at the bar's count
the value is drawn with (``history[n - 10]`` at ``n/N``)."""

from __future__ import annotations

import argparse
import os

from h27_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--kernel", default="rbf", choices=["rbf", "matern52"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--iters", type=int, default=200)
ap.add_argument("--n", type=int, default=80)
ap.add_argument("--noise", type=float, default=0.3)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)

import gpjax as gpx  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax as ox  # noqa: E402

rng = np.random.default_rng(0)
x = np.sort(rng.uniform(-3.0, 3.0, size=a.n)).reshape(-1, 1)
y = np.sin(2.0 * x) + 0.5 * x + rng.normal(scale=a.noise, size=x.shape)
D = gpx.Dataset(X=jnp.asarray(x), y=jnp.asarray(y))

kernel = gpx.kernels.RBF() if a.kernel == "rbf" else gpx.kernels.Matern52()
prior = gpx.gps.Prior(mean_function=gpx.mean_functions.Constant(), kernel=kernel)
posterior = prior * gpx.likelihoods.Gaussian()


def nmll(p, d):
    return -gpx.objectives.conjugate_mll(p, d)


optim = {"adam": ox.adam, "sgd": ox.sgd, "rmsprop": ox.rmsprop}[a.optimizer](a.lr)
model, history = gpx.fit(model=posterior, objective=nmll, train_data=D, optim=optim, num_iters=a.iters)

hist = [float(v) for v in np.asarray(history)]
log_rate = 10
rem = a.iters % log_rate
shown = [(k + log_rate, hist[k]) for k in range(0, a.iters - rem, log_rate)]
if rem:
    shown.append((a.iters, hist[a.iters - rem]))
write_truth(framework=f"gpjax {gpx.__version__}", settings=vars(a), loss_name="Value",
            step_unit="the bar's count n/N the value is drawn with (history[n - 10]: iteration n - 9, 1-based)",
            tolerance=tol_decimals(2), record="the `history` array `gpx.fit` returns (one objective an iteration)",
            train_loss=shown)
