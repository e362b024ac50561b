"""Ray Tune: one function trainable (a small torch model) run by ``tune.Tuner(...).fit()`` on a local Ray.

Ray prints its own status output to the console (trial status tables, per-iteration result tables when
``verbose`` asks for them). The truth is the trial's own ``progress.csv`` (one row per ``tune.report``:
``training_iteration``, ``loss``), at ``training_iteration`` (1-based).
"""

from __future__ import annotations

import argparse
import csv
import glob
import os

from lib_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--iters", type=int, default=30)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--ramp", type=float, default=1.0)
ap.add_argument("--verbose", type=int, default=2)
ap.add_argument("--metric", default="loss")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import ray  # noqa: E402
from ray import tune  # noqa: E402


def train_fn(config):
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    X = torch.randn(512, 8, generator=g)
    y = X[:, :2].sum(1, keepdim=True) - X[:, 2:3] ** 2
    model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=config["lr"], momentum=0.9)
    lr = config["lr"]
    for _ in range(config["iters"]):
        tot = 0.0
        for b in range(8):
            xb, yb = X[b * 64:(b + 1) * 64], y[b * 64:(b + 1) * 64]
            loss = torch.nn.functional.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        lr *= config["ramp"]
        for pg in opt.param_groups:
            pg["lr"] = lr
        tune.report({config["metric"]: tot / 8, "lr": lr})


ray.init(num_cpus=1, include_dashboard=False, log_to_driver=True)
storage = os.path.abspath("ray_results")
tuner = tune.Tuner(
    tune.with_resources(train_fn, {"cpu": 1}),
    param_space={"lr": a.lr, "ramp": a.ramp, "iters": a.iters, "metric": a.metric},
    tune_config=tune.TuneConfig(num_samples=1),
    run_config=tune.RunConfig(name="holdout", storage_path=storage, verbose=a.verbose),
)
results = tuner.fit()
ray.shutdown()

prog = glob.glob(f"{storage}/holdout/*/progress.csv")[0]
with open(prog) as f:
    rows = list(csv.DictReader(f))
keep(prog)
pts = [(int(r["training_iteration"]), float(r[a.metric])) for r in rows]
write_truth(framework="ray[tune]", settings=vars(a), label=a.label, should_stop=a.should_stop, loss_name=a.metric,
            step_unit="training_iteration, 1-based (one tune.report per epoch)",
            tolerance={"rel": 1e-9, "sig": 5, "abs": 5.1e-6}, record="the trial's progress.csv",
            train_loss=pts)
