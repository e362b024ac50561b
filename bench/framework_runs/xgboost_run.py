"""XGBoost ``xgb.train`` with ``evals`` and ``verbose_eval`` (prints ``[i]\\ttrain-rmse:X\\tvalid-rmse:Y``).

Truth: ``evals_result`` for the train set at the iterations the log prints (every ``verbose_eval``-th from 0,
and the last), steps = boosting iteration (0-based, as ``[i]`` prints it).
Settings: objective, eval_metric, rounds, verbose_eval, eta, max_depth, valid (bool).
"""

from __future__ import annotations

from _common import parse_args, seed_all, write_truth

out, st, work = parse_args()
seed_all(st.get("seed", 0))

import numpy as np  # noqa: E402
import xgboost as xgb  # noqa: E402

rng = np.random.default_rng(0)
x = rng.normal(size=(2000, 10))
obj = st.get("objective", "reg:squarederror")
if obj.startswith("binary"):
    y = (x[:, 0] + x[:, 1] ** 2 + 0.5 * rng.normal(size=len(x)) > 1).astype(float)
else:
    y = x[:, 0] + np.sin(x[:, 1]) + 0.3 * rng.normal(size=len(x))
dtrain = xgb.DMatrix(x[:1500], label=y[:1500])
dvalid = xgb.DMatrix(x[1500:], label=y[1500:])
metrics = st.get("eval_metric", "rmse")  # one name, or a list (the first is the loss the truth follows)
metric = metrics[0] if isinstance(metrics, list) else metrics
params = {"objective": obj, "eval_metric": metrics, "eta": st.get("eta", 0.1), "max_depth": st.get("max_depth", 4),
          "nthread": 1, "seed": 0}
evals = [(dtrain, "train")] + ([(dvalid, "valid")] if st.get("valid", True) else [])
result: dict = {}
rounds, period = st.get("rounds", 100), st.get("verbose_eval", 10)
xgb.train(params, dtrain, num_boost_round=rounds, evals=evals, evals_result=result, verbose_eval=period)
vals = result["train"][metric]
shown = [i for i in range(len(vals)) if period is True or i % int(period) == 0 or i == len(vals) - 1]
write_truth(out, framework="xgboost", settings=st, train_loss=[(i, vals[i]) for i in shown],
            loss_name=f"train-{metric}", step_unit="boosting iteration (0-based, as '[i]' prints it)",
            tolerance={"rel": 1e-3, "abs": 5e-6}, record="xgb.train evals_result (train set)")
