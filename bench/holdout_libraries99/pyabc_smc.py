"""pyabc: likelihood-free ABC-SMC (``pyabc.ABCSMC``) fitting the parameters of small simulators (a Gaussian's mean,
its mean and spread, a noisy logistic growth curve, a choice between two models) to synthetic observations, one
population a generation, the single-core sampler, the run stored in its SQLite history (``sqlite:///abc.db`` in the
working folder) as its tutorials do. pyabc logs through Python's logging to stderr with its own format: per
generation ``ABC INFO: t: 3, eps: 2.56164447e-01.`` (``%.8e``), ``ABC INFO: Accepted: 100 / 410 = 2.4390e-01, ESS:
6.8510e+01.`` and a ``Timing`` line; ``--debug`` sets the ``ABC`` logger to DEBUG as its docs show (database accesses,
scale weights, ``ABC.Epsilon DEBUG: ...``). Truth: the acceptance threshold ``epsilon`` of each generation
``t`` >= 0 from the run's own history (``History.get_all_populations()``; the calibration population ``t = -1`` has
``inf`` and is not a generation), generations 0-based."""

from __future__ import annotations

import argparse
import logging
import os

from h99_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="gauss", choices=["gauss", "gauss2", "growth", "select"])
ap.add_argument("--pop", type=int, default=100)
ap.add_argument("--gens", type=int, default=6)
ap.add_argument("--distance", default="pnorm2", choices=["pnorm1", "pnorm2", "adaptive"])
ap.add_argument("--eps", default="median", choices=["median", "quantile"])
ap.add_argument("--alpha", type=float, default=0.5)
ap.add_argument("--transition", default="mvn", choices=["mvn", "local"])
ap.add_argument("--min-eps", type=float, default=0.0)
ap.add_argument("--debug", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import pyabc  # noqa: E402

if a.debug:
    logging.getLogger("ABC").setLevel(logging.DEBUG)

rng = np.random.default_rng(1)
obs: dict
if a.model in ("gauss", "select"):

    def gauss(p: dict) -> dict:
        return {"y": p["mu"] + 0.5 * np.random.randn(10)}

    def wide(p: dict) -> dict:
        return {"y": p["mu"] + 1.5 * np.random.randn(10)}

    obs = {"y": 1.2 + 0.5 * rng.normal(size=10)}
    prior = pyabc.Distribution(mu=pyabc.RV("uniform", -5, 10))
    models = [gauss, wide] if a.model == "select" else [gauss]
    priors = [prior, pyabc.Distribution(mu=pyabc.RV("uniform", -5, 10))] if a.model == "select" else [prior]
elif a.model == "gauss2":

    def gauss2(p: dict) -> dict:
        return {"y": p["mu"] + p["sd"] * np.random.randn(20)}

    obs = {"y": -0.7 + 1.3 * rng.normal(size=20)}
    models = [gauss2]
    priors = [pyabc.Distribution(mu=pyabc.RV("uniform", -5, 10), sd=pyabc.RV("uniform", 0.1, 4))]
else:
    ts = np.linspace(0, 10, 12)

    def growth(p: dict) -> dict:
        k = 100.0
        n = k / (1 + (k / 5.0 - 1) * np.exp(-p["r"] * ts))
        return {"n": n * p["scale"] + 2.0 * np.random.randn(ts.size)}

    obs = {"n": 100.0 / (1 + 19 * np.exp(-0.8 * ts)) + 2.0 * rng.normal(size=ts.size)}
    models = [growth]
    priors = [pyabc.Distribution(r=pyabc.RV("uniform", 0.05, 2), scale=pyabc.RV("uniform", 0.5, 1.0))]

distance: pyabc.Distance
if a.distance == "adaptive":
    distance = pyabc.AdaptivePNormDistance(p=2)
else:
    distance = pyabc.PNormDistance(p=1 if a.distance == "pnorm1" else 2)
eps = pyabc.MedianEpsilon() if a.eps == "median" else pyabc.QuantileEpsilon(alpha=a.alpha)
transitions = None
if a.transition == "local":
    transitions = [pyabc.LocalTransition(k_fraction=0.25) for _ in models]
abc = pyabc.ABCSMC(models if len(models) > 1 else models[0], priors if len(priors) > 1 else priors[0], distance,
                   population_size=a.pop, eps=eps, transitions=transitions,
                   sampler=pyabc.sampler.SingleCoreSampler())
abc.new("sqlite:///" + os.path.join(os.getcwd(), "abc.db"), obs)
history = abc.run(minimum_epsilon=a.min_eps, max_nr_populations=a.gens)
pops = history.get_all_populations()
pops = pops[pops["t"] >= 0]
write_truth(framework=f"pyabc {pyabc.__version__}", settings=vars(a), loss_name="eps",
            step_unit="generation t, 0-based (`t: 3, eps: ...`)", tolerance=tol_sig(9),
            record="the run's History (`History.get_all_populations()`, `epsilon` of each generation t >= 0)",
            train_loss=[(int(t), float(e)) for t, e in zip(pops["t"], pops["epsilon"], strict=True)],
            samples=[[int(t), int(s)] for t, s in zip(pops["t"], pops["samples"], strict=True)])
