"""labml: a tiny torch MLP trained in a plain loop tracked the way labml's examples track one: inside
``experiment.record(name=..., exp_conf=..., writers={'screen', 'file'})``, epochs through ``monit.loop`` (or a plain
``range`` ended by ``tracker.new_line()``), batches through ``monit.iterate('Train', ...)`` (or ``monit.mix`` of a
train and a valid pass), losses given to ``tracker.add`` / ``tracker.save`` (per batch, or averaged over the epoch
and saved once at its end) and labml's screen writer printing them (its console output: ``\\r`` redraws, ANSI
colours, values as ``{:8,.Nf}`` with N from the value's running magnitude). Its own run folder
(``logs/<name>/<uuid>/``: ``log.jsonl``, ``run.yaml``, ``configs.yaml``, ``indicators.yaml``) is kept. Truth: the
``loss.train`` values labml's file writer stored in ``log.jsonl`` (the mean of the values saved at each global step,
what the screen prints), at labml's global step."""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import threading
from pathlib import Path

from h87_truth import dest, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "adamw"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--gamma", type=float, default=1.0, help="ExponentialLR factor a epoch (1: constant)")
ap.add_argument("--cosine", action="store_true", help="CosineAnnealingLR over the epochs")
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=256)
ap.add_argument("--save", default="batch", choices=["batch", "epoch"], help="tracker.save per batch or per epoch")
ap.add_argument("--loop", default="monit", choices=["monit", "plain", "mix"])
ap.add_argument("--val", action="store_true")
ap.add_argument("--step-by", default="batch", choices=["batch", "sample"], help="tracker.add_global_step by")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import labml  # noqa: E402
import torch  # noqa: E402
from labml import experiment, logger, monit, tracker  # noqa: E402
from torch import nn  # noqa: E402

g = torch.Generator().manual_seed(0)
n_val = a.n // 4
X = torch.randn(a.n + n_val, 10, generator=g)
if a.task == "reg":
    w = torch.randn(10, 1, generator=g)
    y = torch.sin(X @ w) * 3 + X[:, :1] ** 2 + 0.1 * torch.randn(a.n + n_val, 1, generator=g)
    out: int = 1
    loss_fn: nn.Module = nn.MSELoss()
else:
    W = torch.randn(10, 3, generator=g)
    y = (X @ W + 0.5 * torch.randn(a.n + n_val, 3, generator=g)).argmax(1)
    out = 3
    loss_fn = nn.CrossEntropyLoss()
Xtr, ytr, Xva, yva = X[: a.n], y[: a.n], X[a.n:], y[a.n:]
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, out))
opt: torch.optim.Optimizer
if a.optimizer == "adam":
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
elif a.optimizer == "adamw":
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.01)
else:
    opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
sched: torch.optim.lr_scheduler.LRScheduler
if a.cosine:
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=a.epochs)
else:
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.gamma)
n_batches = math.ceil(a.n / a.batch)


def batches(xs: torch.Tensor, ys: torch.Tensor, shuffle: bool) -> list[tuple[torch.Tensor, torch.Tensor]]:
    idx = torch.randperm(len(xs), generator=g) if shuffle else torch.arange(len(xs))
    return [(xs[idx[i:i + a.batch]], ys[idx[i:i + a.batch]]) for i in range(0, len(xs), a.batch)]


def train_batch(xb: torch.Tensor, yb: torch.Tensor) -> None:
    model.train()
    loss = loss_fn(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    tracker.add_global_step(len(xb) if a.step_by == "sample" else 1)
    if a.save == "batch":
        tracker.save({"loss.train": loss})
    else:
        tracker.add({"loss.train": loss})
    if a.task == "cls" and a.save == "epoch":
        tracker.add({"accuracy.train": (model(xb).argmax(1) == yb).float().mean()})


def valid() -> None:
    model.eval()
    with torch.no_grad():
        for xb, yb in monit.iterate("Valid", batches(Xva, yva, False)):
            tracker.add({"loss.valid": loss_fn(model(xb), yb)})


def train_epoch() -> None:
    for xb, yb in monit.iterate("Train", batches(Xtr, ytr, True)):
        train_batch(xb, yb)


def valid_batch(xb: torch.Tensor, yb: torch.Tensor) -> None:
    model.eval()
    with torch.no_grad():
        tracker.add({"loss.valid": loss_fn(model(xb), yb)})


conf = {"optimizer": a.optimizer, "lr": a.lr, "gamma": a.gamma, "batch_size": a.batch, "epochs": a.epochs}
with experiment.record(name=f"mlp_{a.task}", exp_conf=conf, writers={"screen", "file"},
                       lab_conf={"path": os.getcwd()}):
    logger.log(f"Training a {a.task} MLP on {a.n} samples, {n_batches} batches an epoch")
    for _epoch in (monit.loop(a.epochs) if a.loop != "plain" else range(a.epochs)):
        if a.loop == "mix":
            parts = [("Train", batches(Xtr, ytr, True))] + ([("Valid", batches(Xva, yva, False))] if a.val else [])
            for name, (xb, yb) in monit.mix(*parts):
                (train_batch if name == "Train" else valid_batch)(xb, yb)
        else:
            train_epoch()
            if a.val:
                valid()
        if a.save == "epoch" or a.val:
            tracker.save()
        sched.step()
        tracker.new_line()

# labml's file writer writes log.jsonl from a thread of its own: wait for it to finish
for thread in threading.enumerate():
    if thread is not threading.main_thread() and not thread.daemon:
        thread.join(timeout=60)
# labml's own run folder: logs/<name>/<uuid>/ under the lab path (the working directory here)
runs = sorted(Path("logs").glob("*/*/log.jsonl"))
series: dict[int, list[float]] = {}
for path in runs:
    for line in path.read_text().splitlines():
        packet = json.loads(line)
        for step, values in packet["track"].get("loss.train", []):
            series.setdefault(int(step), []).extend(float(v) for v in values)
train = [(s, sum(v) / len(v)) for s, v in sorted(series.items())]
d = dest()
if d is not None and runs:
    run_dir = runs[0].parent
    for name in ("log.jsonl", "run.yaml", "configs.yaml", "indicators.yaml"):
        if (run_dir / name).is_file():
            shutil.copy2(run_dir / name, d / name)
write_truth(framework=f"labml {labml.__version__}", settings=vars(a), loss_name="loss.train",
            step_unit="labml's global step (the number left of the line, `      12:`), after the batch or epoch saved",
            tolerance={**tol_sig(4), "abs": 0.51e-6},
            record="labml's file writer, `log.jsonl` in its run folder (`track` -> `loss.train`: the mean of the "
                   "values saved at each global step)",
            train_loss=train)
