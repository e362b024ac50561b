"""NumPyro: ``SVI.run`` of a small Bayesian model (a linear or logistic regression with an ``AutoNormal`` /
``AutoDiagonalNormal`` guide) with its tqdm bar (``progress_bar=True``, the default): one ``\\r`` line whose postfix
reads ``init loss: 812.3456, avg. loss [101-200]: 140.2154`` (set every ``num_steps // 20`` steps, shown at the
bar's next redraw). Truth: the ``losses`` array ``SVI.run`` returns (the ELBO loss per step), averaged over each
printed range exactly as ``run`` does, at the range's last step, for the ranges the log shows."""

from __future__ import annotations

import argparse
import re
import sys

import numpy as np
from h5_truth import dest, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="linreg", choices=["linreg", "logreg", "hier"])
ap.add_argument("--steps", type=int, default=2000)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "clipped_adam"])
ap.add_argument("--growth", type=float, default=0.0, help="multiply the step size by this every 100 steps")
ap.add_argument("--guide", default="normal", choices=["normal", "diag"])
ap.add_argument("--n", type=int, default=50000)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpyro  # noqa: E402
import numpyro.distributions as dist  # noqa: E402
from numpyro.infer import SVI, Trace_ELBO  # noqa: E402
from numpyro.infer.autoguide import AutoDiagonalNormal, AutoNormal  # noqa: E402

rng = np.random.default_rng(0)
d = 8
X = rng.normal(size=(a.n, d)).astype(np.float32)
w = rng.normal(size=d)
groups = rng.integers(0, 10, size=a.n)
if a.model == "logreg":
    y = (X @ w + 0.5 * rng.normal(size=a.n) > 0).astype(np.float32)
elif a.model == "hier":
    y = (X @ w + rng.normal(size=10)[groups] * 2 + 0.5 * rng.normal(size=a.n)).astype(np.float32)
else:
    y = (X @ w + 3.0 + 0.5 * rng.normal(size=a.n)).astype(np.float32)


def model(X, y=None, g=None):
    coef = numpyro.sample("coef", dist.Normal(jnp.zeros(d), 2.0).to_event(1))
    b = numpyro.sample("b", dist.Normal(0.0, 5.0))
    mu = X @ coef + b
    if a.model == "hier":
        tau = numpyro.sample("tau", dist.HalfNormal(3.0))
        with numpyro.plate("groups", 10):
            u = numpyro.sample("u", dist.Normal(0.0, tau))
        mu = mu + u[g]
    if a.model == "logreg":
        with numpyro.plate("data", X.shape[0]):
            numpyro.sample("obs", dist.Bernoulli(logits=mu), obs=y)
    else:
        sigma = numpyro.sample("sigma", dist.HalfNormal(2.0))
        with numpyro.plate("data", X.shape[0]):
            numpyro.sample("obs", dist.Normal(mu, sigma), obs=y)


step = a.lr
if a.growth:
    step = lambda i: a.lr * a.growth ** (i // 100)  # noqa: E731
optim = {"adam": numpyro.optim.Adam, "sgd": numpyro.optim.SGD, "clipped_adam": numpyro.optim.ClippedAdam}
opt = optim[a.optimizer](step)
guide = (AutoNormal if a.guide == "normal" else AutoDiagonalNormal)(model)
svi = SVI(model, guide, opt, loss=Trace_ELBO())
res = svi.run(jax.random.PRNGKey(0), a.steps, jnp.asarray(X), jnp.asarray(y), jnp.asarray(groups))
print("params:", {k: np.asarray(v).round(3).tolist() for k, v in res.params.items() if k.endswith("loc")})
sys.stdout.flush()
sys.stderr.flush()

losses = [np.float32(x) for x in np.asarray(res.losses)]
batch = max(a.steps // 20, 1)
d_ = dest()
shown = set()
if d_ is not None:
    text = (d_ / "train.log").read_text(errors="replace")
    shown = {int(m.group(2)) for m in re.finditer(r"avg\. loss \[(\d+)-(\d+)\]", text)}
series = []
for i in range(batch, a.steps + 1, batch):
    if i in shown:
        series.append((i, sum(losses[i - batch:i]) / batch))
write_truth(framework=f"numpyro {numpyro.__version__}", settings=vars(a), loss_name="avg. loss",
            step_unit="SVI step, 1-based (the end of `avg. loss [a-b]`)", tolerance=tol_decimals(4),
            record="the losses array SVI.run returns (its SVIRunResult), averaged over each printed range as run does",
            train_loss=series)
