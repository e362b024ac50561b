"""trackio (local): a small torch MLP trained in a plain loop, tracked as trackio's quick start does
(``trackio.init(project=..., name=..., config=...)``, ``trackio.log({...})``, ``trackio.finish()``), its metrics in its
local SQLite database (``TRACKIO_DIR``, here ``./trackio``: ``<project>.db``, kept). trackio prints its own ``*``
lines (the project, where the metrics go, how to see the dashboard, the run's name, ``Run finished``). Two ways of
logging, as users do:
- ``--per batch``: ``trackio.log({"train_loss": ...})`` every batch (trackio's own step, 0-based, counted per call),
  the user printing ``[epoch 1/5] step 20: train_loss=1.23456`` every ``--print-every`` steps;
- ``--per epoch``: the epoch's mean batch loss, ``trackio.log({...}, step=epoch)`` (1-based), the user printing a
  Keras-like ``Epoch 3/20 - loss: 0.5123 - val_loss: 0.4987``.
Truth: the ``train_loss`` values of the run's metrics in trackio's database (read back with trackio's own
``SQLiteStorage.get_logs``) at their ``step``, at the steps the log prints."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("TRACKIO_DIR", str(Path("trackio").resolve()))

import torch  # noqa: E402
from h31_truth import keep, optimizer, seed_all, tol_decimals, torch_task, write_truth  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=5)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam", "momentum", "rmsprop"])
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma, stepped every epoch")
ap.add_argument("--per", default="batch", choices=["batch", "epoch"])
ap.add_argument("--print-every", type=int, default=10)
ap.add_argument("--val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
if a.val and a.per == "batch":
    ap.error("--val with --per epoch only (a call without step= would move trackio's step counter)")
seed_all(0)

import trackio  # noqa: E402

train_loader, val_loader, model, loss_fn = torch_task(a.task, a.n, a.batch)
opt = optimizer(a.optimizer, model.parameters(), a.lr)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.gamma) if a.gamma else None

name = f"{a.task}-{a.optimizer}-lr{a.lr}"
trackio.init(project="tiny-mlp", name=name, config=vars(a))
step = 0
for epoch in range(1, a.epochs + 1):
    model.train()
    total = 0.0
    for x, t in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(x), t)
        loss.backward()
        opt.step()
        total += loss.item()
        if a.per == "batch":
            trackio.log({"train_loss": loss.item(), "epoch": epoch})
            if step % a.print_every == 0:
                print(f"[epoch {epoch}/{a.epochs}] step {step}: train_loss={loss.item():.5f}")
        step += 1
    line = ""
    metrics: dict[str, float] = {}
    if a.per == "epoch":
        metrics["train_loss"] = total / len(train_loader)
        line = f"Epoch {epoch}/{a.epochs} - loss: {metrics['train_loss']:.4f}"
    if a.val:
        model.eval()
        with torch.no_grad():
            vl = sum(loss_fn(model(x), t).item() * len(x) for x, t in val_loader) / len(val_loader.dataset)
        metrics["val_loss"] = vl
        line += f" - val_loss: {vl:.4f}"
    if metrics:
        trackio.log(metrics, step=epoch)
        print(line)
    if sched:
        sched.step()
trackio.finish()

from trackio.sqlite_storage import SQLiteStorage  # noqa: E402

logs = SQLiteStorage.get_logs("tiny-mlp", name)
train = [(r["step"], r["train_loss"]) for r in logs if "train_loss" in r]
val = [(r["step"], r["val_loss"]) for r in logs if "val_loss" in r]
if a.per == "batch":
    train = [(s, v) for s, v in train if s % a.print_every == 0]
keep("trackio")
write_truth(framework=f"trackio {trackio.__version__}", settings=vars(a), loss_name="train_loss",
            step_unit=("trackio's step, 0-based, one per `trackio.log` call (the printed `step`)" if a.per == "batch"
                       else "epoch, 1-based (`trackio.log(..., step=epoch)`, the printed `Epoch N/M`)"),
            tolerance=tol_decimals(5 if a.per == "batch" else 4),
            record="the run's metrics in trackio's local database trackio/tiny-mlp.db (`train_loss` at its step)",
            train_loss=train, eval_loss=val if a.val else None, eval_name="val_loss" if a.val else None,
            **({"steps_per_epoch": len(train_loader)} if a.per == "batch" else {}))
