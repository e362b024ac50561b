"""Vowpal Wabbit through its Python bindings (``vowpalwabbit.Workspace``): examples learned one at a time, VW's own
progress table on stderr (``average loss  since last  example counter ...``), at the doubling counters by default
or every ``-P N`` examples. Truth: the workspace's running ``get_sum_loss() / get_weighted_examples()`` (what the
table's first column is), kept after every example and taken at the counters the table prints."""

from __future__ import annotations

import argparse
import math
import random

import vowpalwabbit
from h3_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="logistic", choices=["logistic", "squared", "oaa"])
ap.add_argument("--n", type=int, default=5000)
ap.add_argument("--vw", action="append", default=[], help="an extra VW argument (repeat)")
ap.add_argument("--progress", type=float, default=0.0, help="-P value (0: VW's default doubling)")
ap.add_argument("--scale", type=float, default=1.0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
rng = random.Random(0)

opts = {"logistic": "--loss_function logistic", "squared": "--loss_function squared", "oaa": "--oaa 3"}[a.task]
args = " ".join([opts, "-b 18", *a.vw])
if a.progress:
    args += f" -P {int(a.progress) if a.progress.is_integer() else a.progress}"
vw = vowpalwabbit.Workspace(args)
w = [rng.gauss(0, 1) for _ in range(8)]
record = []
for i in range(a.n):
    x = [rng.gauss(0, 1) * a.scale for _ in range(8)]
    z = sum(wi * xi for wi, xi in zip(w, x, strict=True)) / a.scale
    if a.task == "logistic":
        y = "1" if z + rng.gauss(0, 0.5) > 0 else "-1"
    elif a.task == "squared":
        y = f"{0.3 * z + rng.gauss(0, 0.1):.4f}"
    else:
        y = str(1 + (z > -0.5) + (z > 0.7))
    feats = " ".join(f"f{j}:{v:.4f}" for j, v in enumerate(x))
    vw.learn(f"{y} |x {feats} |c bias")
    record.append((i + 1, vw.get_sum_loss() / vw.get_weighted_examples()))
vw.finish()


def printed(count: int) -> bool:
    if not a.progress:
        return count & (count - 1) == 0
    if a.progress.is_integer():
        return count % int(a.progress) == 0
    k = 1.0
    while k < count:
        k *= a.progress
    return math.isclose(int(k), count)


train = [(c, v) for c, v in record if printed(c)]
write_truth(framework="vowpalwabbit", settings={**vars(a), "vw_args": args}, loss_name="average loss",
            step_unit="example counter (examples seen)", tolerance={"rel": 1e-6, "abs": 5.1e-7},
            record="Workspace.get_sum_loss() / get_weighted_examples() after each learn, at the printed counters",
            train_loss=train)
