"""LightGBM ``lgb.train`` with ``valid_sets`` and ``log_evaluation(period)`` (prints
``[i]\\ttraining's l2: X\\tvalid_1's l2: Y``).

Truth: ``record_evaluation`` for the training set at the iterations the log prints (every ``period``-th,
1-based, and none at other iterations), steps = boosting iteration (1-based, as ``[i]`` prints it).
Settings: objective, metric, rounds, period, learning_rate, num_leaves, valid (bool), lgb_verbose, early_stopping
(rounds; LightGBM then prints the best iteration's line again at the end).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from _common import parse_args, seed_all, write_truth

out, st, work = parse_args()
seed_all(st.get("seed", 0))

import lightgbm as lgb  # noqa: E402
import numpy as np  # noqa: E402

rng = np.random.default_rng(0)
x = rng.normal(size=(2000, 10))
obj = st.get("objective", "regression")
if obj == "binary":
    y = (x[:, 0] + x[:, 1] ** 2 + 0.5 * rng.normal(size=len(x)) > 1).astype(float)
else:
    y = x[:, 0] + np.sin(x[:, 1]) + 0.3 * rng.normal(size=len(x))
metric = st.get("metric", "l2")
params = {"objective": obj, "metric": metric, "learning_rate": st.get("learning_rate", 0.1),
          "num_leaves": st.get("num_leaves", 15), "num_threads": 1, "seed": 0, "verbose": st.get("lgb_verbose", 1)}
train = lgb.Dataset(x[:1500], label=y[:1500])
sets, names = [train], ["training"]
if st.get("valid", True):
    sets.append(lgb.Dataset(x[1500:], label=y[1500:], reference=train))
    names.append("valid_1")
result: dict = {}
period = st.get("period", 10)
callbacks: list[Callable[..., Any]] = [lgb.log_evaluation(period), lgb.record_evaluation(result)]
if "early_stopping" in st:
    callbacks.append(lgb.early_stopping(st["early_stopping"]))
lgb.train(params, train, num_boost_round=st.get("rounds", 100), valid_sets=sets, valid_names=names,
          callbacks=callbacks)
vals = result["training"][metric]
shown = [i + 1 for i in range(len(vals)) if (i + 1) % period == 0]
write_truth(out, framework="lightgbm", settings=st, train_loss=[(i, vals[i - 1]) for i in shown],
            loss_name=f"training's {metric}", step_unit="boosting iteration (1-based, as '[i]' prints it)",
            tolerance={"rel": 1e-3, "abs": 1e-12}, record="lgb.record_evaluation (training set)")
