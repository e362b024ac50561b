"""ZOOpt: a small model's weights fitted by derivative-free optimisation, ``Opt.min(Objective(loss, Dimension(...)),
Parameter(budget=..., intermediate_result=True, intermediate_freq=...))`` as ZOOpt's README does (SRacos by
default, Racos with ``sequential=False``, noise handling with ``noise_handling=True, suppression=True``): the loss is
the training loss of a linear regression (mean squared error) or a logistic classifier (cross entropy) on small
synthetic data. ZOOpt prints on stdout (block-buffered) ``[zoopt] budget 100, fx result: 0.8312...`` (``str`` of a
float: every digit) then ``[zoopt] x: [0.12, ...]`` every ``intermediate_freq`` evaluations, and
``[zoopt] expected remaining running time: ...`` when it expects more than 5 s; the script then prints the
solution as its README does (``solution.print_solution()``: ``x: [...]`` / ``value: ...``). Truth: ZOOpt's own
record ``Objective.get_history_bestsofar()`` (the best loss after each evaluation), at the printed budget ``t``, as
the algorithm holds it when it prints: SRacos counts every evaluation, prints from ``t = train_size + 1`` on and
before taking the ``t``-th evaluation in (the best of the first ``t - 1``); Racos counts after its ``train_size``
first samples and takes its samples in a batch of ``negative_size`` at a time (the best of the first ``train_size +
(t - 1) // negative_size * negative_size``)."""

from __future__ import annotations

import argparse

from h29_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--budget", type=int, default=300)
ap.add_argument("--freq", type=int, default=20)
ap.add_argument("--dim", type=int, default=6)
ap.add_argument("--n", type=int, default=200)
ap.add_argument("--racos", action="store_true", help="sequential=False (Racos, not SRacos)")
ap.add_argument("--noise", action="store_true", help="a noisy loss (minibatches): noise_handling + suppression")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import numpy as np  # noqa: E402
from zoopt import Dimension, Objective, Opt, Parameter  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, a.dim))
w_true = rng.uniform(-0.8, 0.8, size=a.dim)
if a.task == "reg":
    y = X @ w_true + 0.1 * rng.normal(size=a.n)
else:
    y = (X @ w_true + 0.3 * rng.normal(size=a.n) > 0).astype(float)


def loss(solution):
    w = np.array(solution.get_x())
    Xb, yb = X, y
    if a.noise:
        idx = rng.choice(a.n, 32, replace=False)
        Xb, yb = X[idx], y[idx]
    z = Xb @ w
    if a.task == "reg":
        return float(np.mean((z - yb) ** 2))
    return float(np.mean(np.logaddexp(0.0, z) - yb * z))


dim = Dimension(a.dim, [[-1, 1]] * a.dim, [True] * a.dim)
obj = Objective(loss, dim)
kw = dict(budget=a.budget, intermediate_result=True, intermediate_freq=a.freq, seed=0)
if a.racos:
    kw["sequential"] = False
if a.noise:
    kw.update(noise_handling=True, suppression=True, non_update_allowed=50, resample_times=5, balance_rate=0.5)
par = Parameter(**kw)
solution = Opt.min(obj, par)
solution.print_solution()

best = obj.get_history_bestsofar()
ts, neg = par.get_train_size(), par.get_negative_size()
if a.racos:  # Racos counts the budget after its ts first samples, and takes in a batch of neg at a time
    pts = [(t, best[ts + (t - 1) // neg * neg - 1]) for t in range(a.freq, a.budget // neg * neg + 1, a.freq)]
else:  # SRacos counts every evaluation and prints the best of those before the t-th
    pts = [(t, best[t - 2]) for t in range(a.freq, min(len(best), a.budget) + 1, a.freq) if t > ts]
write_truth(framework=f"zoopt {version('zoopt')}", settings=vars(a), loss_name="fx result",
            step_unit="evaluation (the printed budget), 1-based",
            tolerance={"rel": 1e-9, "abs": 1e-12},
            record="Objective.get_history_bestsofar(): SRacos at budget - 1; Racos at its last batch's end",
            train_loss=pts, n_evaluations=len(best), train_size=ts, negative_size=neg)
