"""openbox: its ``Optimizer`` (Bayesian optimisation: a GP or a probabilistic random forest surrogate, or random
search) tuning the learning rate (and weight decay) of a small numpy network trained by full-batch gradient descent
with momentum; each trial trains from scratch and returns its final training MSE, as openbox's quick-start does
with its objective. openbox logs through its own colour logger (stderr: ``[2026-12-07 02:24:41,033][gd_lr][INFO]
[generic_smbo.py:350] Iter 1 (init), objectives: [0.0094...], resource_ratio: 1.0``) under a tqdm bar, and the
script prints the returned ``History`` as openbox's docs do (a table of the optimum). Some runs begin with a user's
learning-rate sweep as ``initial_configurations``. Truth: the ``History`` ``run()`` returns (``get_objectives()``,
one a trial, at the 1-based iteration openbox logs)."""

from __future__ import annotations

import argparse
import glob

from h59_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--strategy", default="bo", choices=["bo", "random"])
ap.add_argument("--surrogate", default="auto")
ap.add_argument("--init", default="random_explore_first")
ap.add_argument("--initial-runs", type=int, default=3)
ap.add_argument("--runs", type=int, default=16)
ap.add_argument("--sweep", default="", help="comma-separated learning rates tried first, in this order")
ap.add_argument("--wd", action="store_true", help="also tune the weight decay")
ap.add_argument("--lr-max", type=float, default=1.0)
ap.add_argument("--epochs", type=int, default=40)
ap.add_argument("--early-stop", action="store_true")
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import openbox  # noqa: E402
from openbox import Optimizer  # noqa: E402
from openbox import space as sp  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(256, 8))
y = (np.tanh(X @ rng.normal(size=(8, 1))) + 0.3 * X[:, :1] + 0.05 * rng.normal(size=(256, 1)))
W1_0 = rng.normal(scale=0.5, size=(8, 16))
W2_0 = rng.normal(scale=0.5, size=(16, 1))


def train(config) -> dict:
    """Train the 8-16-1 tanh network from the same start with the trial's learning rate: its final MSE."""
    lr = float(config["lr"])
    wd = float(config["wd"]) if "wd" in config else 0.0
    W1, W2 = W1_0.copy(), W2_0.copy()
    v1, v2 = np.zeros_like(W1), np.zeros_like(W2)
    with np.errstate(all="ignore"):
        for _ in range(a.epochs):
            h = np.tanh(X @ W1)
            err = h @ W2 - y
            g2 = h.T @ err * (2 / len(X)) + wd * W2
            g1 = X.T @ ((err @ W2.T) * (1 - h ** 2)) * (2 / len(X)) + wd * W1
            v1 = 0.9 * v1 - lr * g1
            v2 = 0.9 * v2 - lr * g2
            W1, W2 = W1 + v1, W2 + v2
        loss = float(np.mean((np.tanh(X @ W1) @ W2 - y) ** 2))
    return {"objectives": [loss]}


space = sp.Space()
params = [sp.Real("lr", 1e-4, a.lr_max, default_value=1e-3, log=True)]
if a.wd:
    params.append(sp.Real("wd", 1e-6, 1e-1, default_value=1e-4, log=True))
space.add_variables(params)
initial = None
init = a.init
initial_runs = a.initial_runs
if a.sweep:
    lrs = [float(s) for s in a.sweep.split(",")]
    initial = [sp.Configuration(space, {"lr": lr, **({"wd": 1e-4} if a.wd else {})}) for lr in lrs]
    initial_runs = len(lrs)
opt = Optimizer(train, space, max_runs=a.runs, sample_strategy=a.strategy, surrogate_type=a.surrogate,
                init_strategy=init, initial_runs=initial_runs, initial_configurations=initial,
                early_stop=a.early_stop, task_id="tune_mlp_lr", logging_dir="logs", random_state=a.seed)
history = opt.run()
print(history)

objs = history.get_objectives()[:, 0]
for f in glob.glob("logs/*.log"):
    keep(f, "openbox.log")
write_truth(framework=f"openbox {openbox.__version__}", settings=vars(a), loss_name="objectives (final training MSE)",
            step_unit="iteration, 1-based (`Iter 3, objectives: [...]`)", tolerance=tol_sig(12),
            record="the `History` `Optimizer.run()` returns (`get_objectives()`, one a trial)",
            train_loss=list(enumerate(objs.tolist(), 1)))
