"""A user's CatBoost script on synthetic tabular data, its verbose evaluation lines
(``0:\\tlearn: 0.68\\ttest: 0.69\\tbest: 0.69 (0)\\ttotal: 5ms\\tremaining: 1s``).

Truth: ``get_evals_result()['learn'][metric]`` (CatBoost's own record; the same values as
``catboost_info/learn_error.tsv``, kept beside the log) at the iterations the log prints (0-based, every
``verbose``-th and the last).
"""

from __future__ import annotations

import argparse

from _truth import common_args, keep, settings_of, write_truth
from sklearn.datasets import make_classification, make_regression

p = argparse.ArgumentParser()
p.add_argument("--task", default="cls")
p.add_argument("--iters", type=int, default=100)
p.add_argument("--verbose", type=int, default=1)
p.add_argument("--eval", action="store_true")
p.add_argument("--early", type=int, default=0)
p.add_argument("--lr", type=float, default=0.1)
p.add_argument("--bootstrap", default="MVS")
common_args(p)
args = p.parse_args()

from catboost import CatBoostClassifier, CatBoostRegressor  # noqa: E402

if args.task == "reg":
    X, y = make_regression(n_samples=800, n_features=12, n_informative=6, noise=8.0, random_state=args.seed)
    y = y / 30.0
    model = CatBoostRegressor(iterations=args.iters, learning_rate=args.lr, depth=4, loss_function="RMSE",
                              bootstrap_type=args.bootstrap,
                              thread_count=1, random_seed=args.seed, verbose=args.verbose,
                              early_stopping_rounds=args.early or None)
    metric = "RMSE"
else:
    multi = args.task == "multi"
    X, y = make_classification(n_samples=800, n_features=12, n_informative=6, n_classes=3 if multi else 2,
                               flip_y=0.05, random_state=args.seed)
    metric = "MultiClass" if multi else "Logloss"
    model = CatBoostClassifier(iterations=args.iters, learning_rate=args.lr, depth=4, loss_function=metric,
                               thread_count=1, random_seed=args.seed, verbose=args.verbose,
                               early_stopping_rounds=args.early or None)
Xtr, ytr, Xva, yva = X[:600], y[:600], X[600:], y[600:]
model.fit(Xtr, ytr, eval_set=(Xva, yva) if args.eval else None)

res = model.get_evals_result()
curve = res["learn"][metric]
n = len(curve)
# every verbose-th iteration, and the last unless early stopping ended the fit (then no last line is printed)
its = sorted({i for i in range(n) if i % args.verbose == 0} | ({n - 1} if n == args.iters else set()))
val = res.get("validation", {}).get(metric)
keep("catboost_info/learn_error.tsv")
if args.eval:
    keep("catboost_info/test_error.tsv")
write_truth(framework="catboost", settings=settings_of(args), label=args.label, should_stop=args.should_stop,
            loss_name=f"learn {metric}", step_unit="boosting iteration (0-based, as 'i:' prints it)",
            tolerance={"rel": 1e-3, "abs": 5e-5}, record="catboost get_evals_result()['learn'] "
            "(= catboost_info/learn_error.tsv)", train_loss=[(i, curve[i]) for i in its],
            eval_loss=[(i, val[i]) for i in its] if val else None, best_iteration=model.get_best_iteration())
print(f"best iteration {model.get_best_iteration()}, trees {model.tree_count_}")
