"""The user's training script: full-batch gradient descent, its final training loss reported to orion."""
import argparse
import numpy as np
from orion.client import report_objective

p = argparse.ArgumentParser()
p.add_argument("--lr", type=float, required=True)
p.add_argument("--steps", type=int, default=30)
p.add_argument("--task", default="linreg")
args = p.parse_args()
rng = np.random.default_rng(0)
X = rng.normal(size=(200, 10)) * np.linspace(0.5, 3.0, 10)
w_true = rng.normal(size=10)
w = np.zeros(10)
with np.errstate(all="ignore"):
    if args.task == "linreg":
        y = X @ w_true + 0.3 * rng.normal(size=200)
        for _ in range(args.steps):
            w -= args.lr * 2 * X.T @ (X @ w - y) / len(y)
        loss = float(np.mean((X @ w - y) ** 2))
    else:
        y = (X @ w_true + 0.5 * rng.normal(size=200) > 0).astype(float)
        for _ in range(args.steps):
            p_ = 1 / (1 + np.exp(-(X @ w)))
            w -= args.lr * X.T @ (p_ - y) / len(y)
        p_ = 1 / (1 + np.exp(-(X @ w)))
        loss = float(-np.mean(y * np.log(p_) + (1 - y) * np.log(1 - p_)))
report_objective(loss)
