"""A user's gradient-boosting script: XGBoost or LightGBM on synthetic tabular data, evaluation printed.

Truth: XGBoost ``evals_result`` / LightGBM ``record_evaluation`` of the training set, at the iterations the
log prints (XGBoost 0-based ``[i]``, LightGBM 1-based ``[i]``).
"""

from __future__ import annotations

import argparse

import numpy as np
from holdout_truth import write_truth
from sklearn.datasets import make_classification, make_regression

p = argparse.ArgumentParser()
p.add_argument("--lib", default="xgb")
p.add_argument("--variant", default="native3")
p.add_argument("--rounds", type=int, default=50)
p.add_argument("--every", type=int, default=1)
p.add_argument("--eta", type=float, default=0.1)
p.add_argument("--label", default="healthy")
p.add_argument("--should-stop", action="store_true")
args = p.parse_args()

settings = {k: v for k, v in vars(args).items() if k != "label"}
cls = args.variant in ("native3", "sk_multiclass", "binary_feval")
if args.variant == "sk_multiclass":
    X, y = make_classification(n_samples=900, n_features=15, n_informative=8, n_classes=3, random_state=9)
elif cls:
    X, y = make_classification(n_samples=900, n_features=15, n_informative=6, flip_y=0.05, random_state=9)
else:
    X, y = make_regression(n_samples=900, n_features=15, n_informative=7, noise=10.0, random_state=9)
    y = y / 20.0
Xtr, Xva, Xte, ytr, yva, yte = X[:600], X[600:750], X[750:], y[:600], y[600:750], y[750:]


def printed(n_iters: int, every: int, base: int) -> list[int]:
    """The iterations a period-``every`` logger prints: every ``every``-th and the last."""
    if base == 0:
        its = [i for i in range(n_iters) if i % every == 0]
        last = n_iters - 1
    else:
        its = [i for i in range(1, n_iters + 1) if i % every == 0]
        last = n_iters
    return sorted(set(its) | {last})


if args.lib == "xgb":
    import xgboost as xgb

    tol = {"rel": 1e-3, "abs": 5e-6}
    unit = "boosting iteration (0-based, as '[i]' prints it)"
    if args.variant == "native3":
        def err_at_03(predt, d):
            return "err03", float(np.mean((predt > 0.3) != d.get_label()))

        dtr, dva, dte = xgb.DMatrix(Xtr, ytr), xgb.DMatrix(Xva, yva), xgb.DMatrix(Xte, yte)
        res: dict = {}
        xgb.train({"objective": "binary:logistic", "eval_metric": ["logloss", "error"], "eta": args.eta,
                   "max_depth": 3, "nthread": 1, "seed": 0}, dtr, args.rounds,
                  evals=[(dtr, "train"), (dva, "val"), (dte, "test")], custom_metric=err_at_03,
                  evals_result=res, verbose_eval=args.every)
        curve, name, n = res["train"]["logloss"], "train-logloss", args.rounds
    elif args.variant == "sk_early":
        m = xgb.XGBRegressor(n_estimators=args.rounds, learning_rate=args.eta, max_depth=4,
                             early_stopping_rounds=15, eval_metric="rmse", n_jobs=1, random_state=0)
        m.fit(Xtr, ytr, eval_set=[(Xtr, ytr), (Xva, yva)], verbose=True if args.every == 1 else args.every)
        curve, name = m.evals_result()["validation_0"]["rmse"], "validation_0-rmse"
        n = len(curve)
    else:  # eval set listed before the train set; verbose_eval=True
        dtr, dva = xgb.DMatrix(Xtr, ytr), xgb.DMatrix(Xva, yva)
        res = {}
        xgb.train({"objective": "reg:squarederror", "eta": args.eta, "max_depth": 5, "nthread": 1, "seed": 0,
                   "eval_metric": "rmse"}, dtr, args.rounds, evals=[(dva, "eval"), (dtr, "train")],
                  evals_result=res, verbose_eval=True if args.every == 1 else args.every)
        curve, name, n = res["train"]["rmse"], "train-rmse", args.rounds
    its = printed(n, args.every, 0)
    pts = [(i, curve[i]) for i in its]
    record = "xgboost evals_result (training set)"
else:
    import lightgbm as lgb

    tol = {"rel": 1e-3, "abs": 1e-12}
    unit = "boosting iteration (1-based, as '[i]' prints it)"
    rec: dict = {}
    if args.variant == "names_l1_l2":
        ltr = lgb.Dataset(Xtr, ytr)
        lho = lgb.Dataset(Xva, yva, reference=ltr)
        lgb.train({"objective": "regression", "metric": ["l1", "l2"], "learning_rate": args.eta,
                   "num_leaves": 15, "verbose": -1, "num_threads": 1, "seed": 0}, ltr, args.rounds,
                  valid_sets=[ltr, lho], valid_names=["train", "holdout"],
                  callbacks=[lgb.log_evaluation(period=args.every), lgb.record_evaluation(rec)])
        curve, name, n = rec["train"]["l2"], "train's l2", args.rounds
    elif args.variant == "sk_multiclass":
        m = lgb.LGBMClassifier(n_estimators=args.rounds, learning_rate=args.eta, num_leaves=15, verbose=-1,
                               n_jobs=1, random_state=0)
        m.fit(Xtr, ytr, eval_set=[(Xtr, ytr), (Xva, yva)], eval_names=["fit", "val"], eval_metric="multi_error",
              callbacks=[lgb.log_evaluation(args.every), lgb.early_stopping(10, verbose=True),
                         lgb.record_evaluation(rec)])
        curve, name = rec["fit"]["multi_logloss"], "fit's multi_logloss"
        n = len(curve)
    elif args.variant == "binary_feval":
        def neg_f1(preds, d):
            yt = d.get_label()
            yp = preds > 0.5
            tp = float(np.sum(yp & (yt == 1)))
            f1 = 2 * tp / max(1.0, float(np.sum(yp) + np.sum(yt == 1)))
            return "neg_f1", -f1, False

        ltr = lgb.Dataset(Xtr, ytr, free_raw_data=False)
        lva = lgb.Dataset(Xva, yva, reference=ltr)
        lgb.train({"objective": "binary", "metric": "binary_logloss", "learning_rate": args.eta,
                   "num_leaves": 7, "verbose": -1, "num_threads": 1, "seed": 0}, ltr, args.rounds,
                  valid_sets=[lva, ltr], feval=neg_f1,
                  callbacks=[lgb.log_evaluation(args.every), lgb.record_evaluation(rec)])
        curve, name, n = rec["training"]["binary_logloss"], "training's binary_logloss", args.rounds
    else:  # rmse, learning rate far too high
        ltr = lgb.Dataset(Xtr, ytr)
        lva = lgb.Dataset(Xva, yva, reference=ltr)
        lgb.train({"objective": "regression", "metric": "rmse", "learning_rate": args.eta, "num_leaves": 31,
                   "min_data_in_leaf": 3, "verbose": -1, "num_threads": 1, "seed": 0}, ltr, args.rounds,
                  valid_sets=[ltr, lva], valid_names=["tr", "va"],
                  callbacks=[lgb.log_evaluation(args.every), lgb.record_evaluation(rec)])
        curve, name, n = rec["tr"]["rmse"], "tr's rmse", args.rounds
    its = printed(n, args.every, 1)
    pts = [(i, curve[i - 1]) for i in its]
    record = "lightgbm record_evaluation (training set)"
write_truth(framework="xgboost" if args.lib == "xgb" else "lightgbm", settings=settings, label=args.label,
            should_stop=args.should_stop, loss_name=name, step_unit=unit, tolerance=tol, record=record,
            train_loss=pts)
