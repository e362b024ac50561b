"""pykan (Kolmogorov-Arnold networks): ``KAN.fit(dataset, opt, steps, log=N)``, whose tqdm bar carries
``| train_loss: 3.57e-02 | test_loss: 3.63e-02 | reg: 1.78e+01 |`` (a description set every ``log`` steps; the
bar redrawn with ``\\r``). Truth: the ``results['train_loss']`` dict ``fit`` returns (RMSE after each step), at the
steps whose description is set."""

from __future__ import annotations

import argparse

import torch
from h3_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--func", default="expsin", choices=["expsin", "poly", "bessel"])
ap.add_argument("--width", default="2,5,1")
ap.add_argument("--grid", type=int, default=5)
ap.add_argument("--opt", default="LBFGS")
ap.add_argument("--lr", type=float, default=1.0)
ap.add_argument("--steps", type=int, default=30)
ap.add_argument("--log", type=int, default=1)
ap.add_argument("--lamb", type=float, default=0.0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from kan import KAN, create_dataset  # noqa: E402

if a.func == "expsin":
    def f(x):
        return torch.exp(torch.sin(torch.pi * x[:, [0]]) + x[:, [1]] ** 2)
elif a.func == "poly":
    def f(x):
        return x[:, [0]] * x[:, [1]] + 0.5 * x[:, [0]] ** 3
else:
    def f(x):
        return torch.sin(3 * x[:, [0]]) * torch.cos(2 * x[:, [1]])
dataset = create_dataset(f, n_var=2, seed=0, train_num=500, test_num=500)
model = KAN(width=[int(w) for w in a.width.split(",")], grid=a.grid, k=3, seed=0, auto_save=False)
res = model.fit(dataset, opt=a.opt, steps=a.steps, lr=a.lr, lamb=a.lamb, log=a.log)

train = [(i + 1, float(v)) for i, v in enumerate(res["train_loss"]) if i % a.log == 0]
ev = [(i + 1, float(v)) for i, v in enumerate(res["test_loss"]) if i % a.log == 0]
write_truth(framework="pykan", settings=vars(a), loss_name="train_loss",
            step_unit="optimizer step, 1-based (index in results + 1: the bar's count once the step is done)",
            tolerance=tol_sig(3), record="results['train_loss'] returned by KAN.fit (RMSE), at the logged steps",
            train_loss=train, eval_loss=ev, eval_name="test_loss")
