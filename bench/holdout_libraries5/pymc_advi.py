"""PyMC: ADVI / FullRankADVI (``pm.ADVI().fit`` then ``.refine`` in chunks, as its variational API notebook
continues a fit) of a small Bayesian regression or hierarchical model. PyMC's logger prints at the end of each call
``Finished [100%]: Average Loss = 1,234.5`` (the mean of the call's last <= 1001 losses, ``{:,.5g}``), after the
final state of its rich progress bar (``Fitting ━━━━ 100% 0:00:00 Average Loss = 1,240.1``: a console that is not a
terminal gets only the final state). Truth: the inference's ``hist`` (the loss, the negative ELBO, per iteration)
averaged as ``Finished`` does, at the cumulative iteration count where each call ends."""

from __future__ import annotations

import argparse
import logging

import numpy as np
from h5_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="linreg", choices=["linreg", "hier", "logreg"])
ap.add_argument("--method", default="advi", choices=["advi", "fullrank"])
ap.add_argument("--chunk", type=int, default=1000)
ap.add_argument("--chunks", type=int, default=8)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="adagrad_window", choices=["adagrad_window", "adam", "sgd", "momentum"])
ap.add_argument("--growth", type=float, default=0.0,
                help="multiply the learning rate (a shared variable) by this between calls")
ap.add_argument("--n", type=int, default=500)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pymc as pm  # noqa: E402
import pytensor  # noqa: E402

rng = np.random.default_rng(0)
d = 5
X = rng.normal(size=(a.n, d))
w = rng.normal(size=d)
g = rng.integers(0, 8, size=a.n)
if a.model == "logreg":
    y = (X @ w + 0.5 * rng.normal(size=a.n) > 0).astype(int)
elif a.model == "hier":
    y = X @ w + rng.normal(size=8)[g] * 2 + rng.normal(size=a.n)
else:
    y = X @ w + 1.5 + rng.normal(size=a.n)

with pm.Model() as model:
    coef = pm.Normal("coef", 0, 10, shape=d)
    b = pm.Normal("b", 0, 10)
    mu = pm.math.dot(X, coef) + b
    if a.model == "hier":
        tau = pm.HalfNormal("tau", 5)
        u = pm.Normal("u", 0, tau, shape=8)
        mu = mu + u[g]
    if a.model == "logreg":
        pm.Bernoulli("obs", logit_p=mu, observed=y)
    else:
        sigma = pm.HalfNormal("sigma", 5)
        pm.Normal("obs", mu, sigma, observed=y)
    lr = pytensor.shared(np.float64(a.lr), "lr") if a.growth else a.lr
    opt = {"adagrad_window": pm.adagrad_window, "adam": pm.adam, "sgd": pm.sgd,
           "momentum": pm.momentum}[a.optimizer](learning_rate=lr)
    inference = pm.ADVI(random_seed=0) if a.method == "advi" else pm.FullRankADVI(random_seed=0)
    ends = []
    error = None
    try:
        for k in range(a.chunks):
            if k == 0:
                approx = inference.fit(a.chunk, obj_optimizer=opt)
            else:
                if a.growth:
                    lr.set_value(lr.get_value() * a.growth)
                inference.refine(a.chunk)
            ends.append(len(inference.hist))
        logging.getLogger("pymc").info("mean of the approximation: %s", approx.mean.eval().round(3))
    except FloatingPointError as e:  # PyMC stops at the first NaN loss; the truth keeps the calls that finished
        error = e

hist = np.asarray(inference.hist, dtype="float64")
series = []
start = 0
for end in ends:
    chunk = hist[start:end]
    i = len(chunk) - 1
    part = chunk[max(0, i - 1000): i + 1]
    fin = part[np.isfinite(part)]
    series.append((end, float(fin.mean()) if len(fin) else float("nan")))
    start = end
write_truth(framework=f"pymc {pm.__version__}", settings=vars(a), loss_name="Average Loss",
            step_unit="ADVI iteration, cumulative over the fit/refine calls (each call's `Finished [100%]` line)",
            tolerance=tol_sig(5),
            record="the inference's hist (loss per iteration), averaged as the Finished line does, per call",
            train_loss=series)
if error is not None:
    raise error
