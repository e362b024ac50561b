"""A user's River (online learning) script: ``evaluate.progressive_val_score(..., print_every=N)`` (its lines
``[1,000] LogLoss: 0.452``: the sample count with thousands separators, the progressive-validation metric).

The progressive metric is the online learner's loss on each sample before it learns from it: the train loss of
online learning. Truth: River's own ``evaluate.iter_progressive_val_score`` (the same evaluation, re-run
identically) at the steps the log prints (``Step``: samples seen, every ``print_every``-th).
"""

from __future__ import annotations

import argparse
import contextlib
import io

from _truth import common_args, settings_of, write_truth

p = argparse.ArgumentParser()
p.add_argument("--task", default="cls")
p.add_argument("--n", type=int, default=4000)
p.add_argument("--every", type=int, default=200)
p.add_argument("--lr", type=float, default=0.01)
p.add_argument("--rolling", type=int, default=0, help="a rolling metric over this many samples (0: cumulative)")
common_args(p)
args = p.parse_args()

import numpy as np  # noqa: E402
from river import evaluate, linear_model, metrics, optim, preprocessing, utils  # noqa: E402


def stream():
    rng = np.random.default_rng(args.seed)
    w = rng.normal(size=8)
    for _ in range(args.n):
        x = rng.normal(size=8)
        z = float(x @ w + 0.5 * rng.normal())
        yield {f"x{i}": float(v) for i, v in enumerate(x)}, (z > 0 if args.task == "cls" else z)


def model_and_metric():
    if args.task == "cls":
        m = linear_model.LogisticRegression(optimizer=optim.SGD(args.lr))
        kind = metrics.LogLoss
    else:
        m = linear_model.LinearRegression(optimizer=optim.SGD(args.lr), intercept_lr=args.lr)
        kind = metrics.MAE
    return preprocessing.StandardScaler() | m, utils.Rolling(kind, window_size=args.rolling) if args.rolling else kind()


model, metric = model_and_metric()
evaluate.progressive_val_score(stream(), model, metric, print_every=args.every)
model, metric = model_and_metric()
points = []  # the metric object is updated in place: read each checkpoint's value when it is yielded
with contextlib.redirect_stdout(io.StringIO()):
    for r in evaluate.iter_progressive_val_score(stream(), model, metric, step=args.every):
        if r["Step"] % args.every == 0:
            points.append((r["Step"], metric.get()))
name = type(metric.obj if args.rolling else metric).__name__
write_truth(framework="river", settings=settings_of(args), label=args.label, should_stop=args.should_stop,
            loss_name=name, step_unit="samples seen (as '[1,000]' prints it)", tolerance={"sig": 5, "rel": 1e-6},
            record="river evaluate.iter_progressive_val_score (an identical re-run)",
            train_loss=points)
