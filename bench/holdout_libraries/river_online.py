"""river: online learning scored by ``evaluate.progressive_val_score(..., print_every=N)``, its default printout.

The printout is ``[1,000] LogLoss: 0.52`` (the sample count with a thousands separator, the metric's repr). The
truth is the same seeded stream replayed through ``evaluate.iter_progressive_val_score(step=N)`` (the library's
own structured record of the progressive metric: one dict per checkpoint with ``Step``), at full precision.
"""

from __future__ import annotations

import argparse
import math
import random

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--n", type=int, default=6000)
ap.add_argument("--every", type=int, default=250)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--metric", default="LogLoss")
ap.add_argument("--rolling", type=int, default=0)
ap.add_argument("--scale", action="store_true", help="a StandardScaler before the linear model")
ap.add_argument("--show-time", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from river import evaluate, linear_model, metrics, optim, preprocessing, utils  # noqa: E402


def stream():
    rng = random.Random(1)
    w = [rng.gauss(0, 1) for _ in range(8)]
    for _ in range(a.n):
        x = {f"x{j}": rng.gauss(0, 1) * (1 + 3 * j) for j in range(8)}
        z = sum(w[j] * x[f"x{j}"] / (1 + 3 * j) for j in range(8)) + 0.4 * math.sin(x["x0"])
        if a.task == "cls":
            yield x, (z + rng.gauss(0, 0.5)) > 0
        else:
            yield x, 3.0 * z + 10 + rng.gauss(0, 0.5)


def model():
    lin = (linear_model.LogisticRegression(optimizer=optim.SGD(a.lr)) if a.task == "cls"
           else linear_model.LinearRegression(optimizer=optim.SGD(a.lr), intercept_lr=a.lr))
    return preprocessing.StandardScaler() | lin if a.scale else lin


def metric():
    m = getattr(metrics, a.metric)()
    return utils.Rolling(m, window_size=a.rolling) if a.rolling else m


evaluate.progressive_val_score(stream(), model(), metric(), print_every=a.every, show_time=a.show_time)

truth = []
for rec in evaluate.iter_progressive_val_score(stream(), model(), metric(), step=a.every):
    m = rec[next(k for k in rec if k not in ("Step", "Time", "Memory"))]
    truth.append((rec["Step"], m.get()))
write_truth(framework="river", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name=a.metric, step_unit="samples seen (the printout's [n])",
            tolerance={"rel": 1e-9, "abs": 5.1e-7 if a.metric != "Accuracy" else 5.1e-5},
            record="evaluate.iter_progressive_val_score(step=print_every) of the same seeded stream",
            train_loss=truth)
