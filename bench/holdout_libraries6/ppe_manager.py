"""pytorch-pfn-extras: a small torch MLP trained in a plain loop under ``ppe.training.ExtensionsManager``, as its
MNIST example does: ``with manager.run_iteration(): ... ppe.reporting.report({"train/loss": loss.item()})``, with
its extensions ``LogReport`` (its ``log`` file, JSON, in the manager's ``out`` folder), ``PrintReport`` (a table on
stdout, block-buffered: a header ``epoch       iteration   train/loss  lr ...`` then one row per report, values as
``{:<10g}``, 6 significant digits), optionally ``ProgressBar`` (stdout, with ANSI cursor moves), ``observe_lr``,
``LRScheduler`` around a torch scheduler and ``Evaluator`` (``val/loss``). Truth: the LogReport's ``log`` file
(``train/loss``, the mean of the reported values over each report interval), at its ``iteration`` (the manager's
iteration count, 1-based, across epochs)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch
from h6_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam", "momentum"])
ap.add_argument("--trigger", default="1,epoch", help="LogReport's trigger, e.g. 1,epoch or 10,iteration")
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma via the LRScheduler extension")
ap.add_argument("--progress", action="store_true", help="add the ProgressBar extension")
ap.add_argument("--val", action="store_true", help="add an Evaluator (val/loss)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pytorch_pfn_extras as ppe  # noqa: E402
import pytorch_pfn_extras.training.extensions as extensions  # noqa: E402

g = torch.Generator().manual_seed(0)
n_val = a.n // 4
X = torch.randn(a.n + n_val, 8, generator=g)
if a.task == "cls":
    W = torch.randn(8, 4, generator=g)
    y = (X @ W + 0.5 * torch.randn(a.n + n_val, 4, generator=g)).argmax(1)
    loss_fn = torch.nn.functional.cross_entropy
    out_dim = 4
else:
    w = torch.randn(8, 1, generator=g)
    y = torch.sin(X @ w) * 3 + X[:, :1] ** 2 + 0.1 * torch.randn(a.n + n_val, 1, generator=g)
    loss_fn = torch.nn.functional.mse_loss
    out_dim = 1
train = torch.utils.data.TensorDataset(X[: a.n], y[: a.n])
val = torch.utils.data.TensorDataset(X[a.n:], y[a.n:])
train_loader = torch.utils.data.DataLoader(train, batch_size=a.batch, shuffle=True,
                                           generator=torch.Generator().manual_seed(1))
val_loader = torch.utils.data.DataLoader(val, batch_size=64)

model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, out_dim))
if a.optimizer == "adam":
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
else:
    opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9 if a.optimizer == "momentum" else 0.0)

n, unit = a.trigger.split(",")
trigger = (int(n), unit)
exts = [extensions.LogReport(trigger=trigger), extensions.observe_lr(optimizer=opt)]
entries = ["epoch", "iteration", "train/loss", "lr"]
if a.val:
    def eval_func(x, t):
        ppe.reporting.report({"val/loss": loss_fn(model(x), t).item()})
    exts.append(extensions.Evaluator(val_loader, model, eval_func=eval_func))
    entries.append("val/loss")
entries.append("elapsed_time")
exts.append(extensions.PrintReport(entries))
if a.progress:
    exts.append(extensions.ProgressBar(update_interval=5))
if a.gamma:
    exts.append(extensions.LRScheduler(torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.gamma),
                                       trigger=(1, "epoch")))

manager = ppe.training.ExtensionsManager(model, opt, a.epochs, iters_per_epoch=len(train_loader), extensions=exts,
                                         out_dir="result")
while not manager.stop_trigger:
    for x, t in train_loader:
        with manager.run_iteration():
            model.train()
            opt.zero_grad()
            loss = loss_fn(model(x), t)
            ppe.reporting.report({"train/loss": loss.item()})
            loss.backward()
            opt.step()

log_file = Path("result/log")
log = json.loads(log_file.read_text())
keep(log_file)
write_truth(framework=f"pytorch-pfn-extras {ppe.__version__}", settings=vars(a), loss_name="train/loss",
            step_unit="iteration, 1-based, across epochs (the `iteration` column)", tolerance=tol_sig(6),
            record="the LogReport's `log` file (`train/loss` at its `iteration`)",
            train_loss=[(r["iteration"], r["train/loss"]) for r in log if "train/loss" in r],
            eval_loss=[(r["iteration"], r["val/loss"]) for r in log if "val/loss" in r] if a.val else None,
            eval_name="val/loss" if a.val else None, steps_per_epoch=len(train_loader))
