"""Pyro: stochastic variational inference (``SVI.step``) printed the way Pyro's tutorials print it.

Pyro has no logger of its own for SVI: its tutorials print ``"[iteration %04d] loss: %.4f"`` every N steps (the
Bayesian regression tutorial) or ``"Elbo loss: {}"`` (the intro). The truth is the list of ``svi.step`` return
values the script keeps, at the 1-based iteration.
"""

from __future__ import annotations

import argparse

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--steps", type=int, default=600)
ap.add_argument("--every", type=int, default=50)
ap.add_argument("--lr", type=float, default=0.03)
ap.add_argument("--fmt", default="tutorial", choices=["tutorial", "elbo", "logging"])
ap.add_argument("--model", default="regression", choices=["regression", "mixture"])
ap.add_argument("--no-validation", action="store_true", help="pyro.enable_validation(False)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import logging  # noqa: E402
from typing import Any  # noqa: E402

import pyro  # noqa: E402
import pyro.distributions as dist  # noqa: E402
import torch  # noqa: E402
from pyro.infer import SVI, Trace_ELBO  # noqa: E402
from pyro.infer.autoguide import AutoDiagonalNormal, AutoNormal  # noqa: E402
from pyro.nn import PyroModule, PyroSample  # noqa: E402

pyro.set_rng_seed(0)
if a.no_validation:
    pyro.enable_validation(False)
g = torch.Generator().manual_seed(0)
N = 400
x = torch.randn(N, 3, generator=g)
y = x @ torch.tensor([1.5, -2.0, 0.7]) + 0.8 + 0.3 * torch.randn(N, generator=g)


class BayesianRegression(PyroModule):
    def __init__(self, d_in: int) -> None:
        super().__init__()
        self.linear = PyroModule[torch.nn.Linear](d_in, 1)
        self.linear.weight = PyroSample(dist.Normal(0.0, 1.0).expand([1, d_in]).to_event(2))
        self.linear.bias = PyroSample(dist.Normal(0.0, 10.0).expand([1]).to_event(1))

    def forward(self, x, y=None):
        sigma = pyro.sample("sigma", dist.Uniform(0.0, 10.0))
        mean = self.linear(x).squeeze(-1)
        with pyro.plate("data", x.shape[0]):
            pyro.sample("obs", dist.Normal(mean, sigma), obs=y)
        return mean


def mixture(data=None):
    weights = pyro.sample("weights", dist.Dirichlet(torch.ones(2)))
    locs = pyro.sample("locs", dist.Normal(0.0, 10.0).expand([2]).to_event(1))
    scale = pyro.sample("scale", dist.LogNormal(0.0, 2.0))
    with pyro.plate("data", len(data)):
        z = pyro.sample("z", dist.Categorical(weights), infer={"enumerate": "parallel"})
        pyro.sample("obs", dist.Normal(locs[z], scale), obs=data)


model: Any
args: tuple
if a.model == "regression":
    model = BayesianRegression(3)
    guide = AutoDiagonalNormal(model)
    elbo = Trace_ELBO()
    args = (x, y)
else:
    from pyro import poutine
    from pyro.infer import TraceEnum_ELBO, config_enumerate  # noqa: F401

    data = torch.cat([torch.randn(150, generator=g) - 3, torch.randn(150, generator=g) + 3])
    model = mixture
    guide = AutoNormal(poutine.block(mixture, expose=["weights", "locs", "scale"]))
    elbo = TraceEnum_ELBO(max_plate_nesting=1)
    args = (data,)

svi = SVI(model, guide, pyro.optim.Adam({"lr": a.lr}), loss=elbo)
pyro.clear_param_store()
if a.fmt == "logging":
    logging.basicConfig(format="%(relativeCreated) 9d %(message)s", level=logging.INFO)
losses = []
for j in range(a.steps):
    loss = svi.step(*args)
    losses.append(loss)
    if (j + 1) % a.every == 0 or (j == 0 and a.fmt != "elbo"):
        if a.fmt == "tutorial":
            print("[iteration %04d] loss: %.4f" % (j + 1, loss / N))  # noqa: UP031 (the tutorial's)
        elif a.fmt == "elbo":
            print(f"Elbo loss: {loss}")
        else:
            logging.info(f"Step {j + 1}\tLoss = {loss}")

scale = N if a.fmt == "tutorial" else 1
pts = [(j + 1, v / scale) for j, v in enumerate(losses) if (j + 1) % a.every == 0 or (j == 0 and a.fmt != "elbo")]
write_truth(framework="pyro", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="loss", step_unit="SVI iteration, 1-based" if a.fmt != "elbo"
            else "SVI iteration, 1-based (the 'Elbo loss:' lines carry no step: one line per iteration)",
            tolerance={"rel": 1e-9, "abs": 5.1e-5} if a.fmt == "tutorial" else {"rel": 1e-9},
            record="the svi.step() return values the script keeps" + (" / N (as printed)" if scale != 1 else ""),
            train_loss=pts)
