"""swanlab (offline mode): a small torch MLP trained in a plain loop, tracked as swanlab's quick start does
(``swanlab.init(project=..., experiment_name=..., config=..., mode="offline")``, ``swanlab.log({...}, step=step)``
each step, ``swanlab.finish()``), the loss printed by the user's own ``print`` every ``--print-every`` steps (and the
validation loss at epoch ends with ``--val``). swanlab prints its own ``swanlab:`` lines and writes its run folder
``swanlog/run-<date>-<id>/`` (the ``run-<id>.swanlab`` record, ``files/config.yaml``,
``files/swanlab-metadata.json``, ``debug/debug.log``), all kept but its ``requirements.txt`` and its
``swanlog/.gitignore`` (``*``). Truth: the ``train/loss`` scalars of the run's own record (``run-<id>.swanlab``,
read back with swanlab's ``DataStoreReader``) at their ``step`` (the global step, 1-based, across epochs), at the
steps the log prints."""

from __future__ import annotations

import argparse
from pathlib import Path

import torch
from h31_truth import dest, keep, optimizer, seed_all, tol_decimals, torch_task, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=5)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam", "momentum", "rmsprop"])
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma, stepped every epoch")
ap.add_argument("--print-every", type=int, default=10)
ap.add_argument("--val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import swanlab  # noqa: E402

train_loader, val_loader, model, loss_fn = torch_task(a.task, a.n, a.batch)
opt = optimizer(a.optimizer, model.parameters(), a.lr)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.gamma) if a.gamma else None

run = swanlab.init(project="tiny-mlp", experiment_name=f"{a.task}-{a.optimizer}", config=vars(a), mode="offline")
step = 0
for epoch in range(1, a.epochs + 1):
    model.train()
    for x, t in train_loader:
        step += 1
        opt.zero_grad()
        loss = loss_fn(model(x), t)
        loss.backward()
        opt.step()
        swanlab.log({"train/loss": loss.item(), "train/lr": opt.param_groups[0]["lr"]}, step=step)
        if step % a.print_every == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
    if a.val:
        model.eval()
        with torch.no_grad():
            vl = sum(loss_fn(model(x), t).item() * len(x) for x, t in val_loader) / len(val_loader.dataset)
        swanlab.log({"val/loss": vl}, step=step)
        print(f"epoch {epoch} val_loss {vl:.4f}")
    if sched:
        sched.step()
swanlab.finish()

from swanlab.proto.swanlab.record.v1.record_pb2 import Record  # noqa: E402
from swanlab.sdk.internal.core_python.store import DataStoreReader  # noqa: E402

run_dir = next(Path("swanlog").glob("run-*"))
reader = DataStoreReader()
reader.open(next(run_dir.glob("run-*.swanlab")))
series: dict[str, list] = {}
for data in reader:
    rec = Record()
    rec.ParseFromString(data)
    if rec.WhichOneof("record_type") == "scalar":
        series.setdefault(rec.scalar.key, []).append((rec.scalar.step, rec.scalar.value.number))
reader.close()
(run_dir / "files" / "requirements.txt").unlink(missing_ok=True)
keep("swanlog")
d = dest()
if d is not None:  # swanlab's swanlog/.gitignore ("*") would hide the kept folder from git
    (d / "swanlog" / ".gitignore").unlink(missing_ok=True)
printed = [(s, v) for s, v in series.get("train/loss", []) if s % a.print_every == 0]
write_truth(framework=f"swanlab {swanlab.__version__}", settings=vars(a), loss_name="train/loss",
            step_unit="global step, 1-based, across epochs (the user's `step` in `swanlab.log(..., step=step)`)",
            tolerance=tol_decimals(4),
            record="the run's own record swanlog/run-*/run-<id>.swanlab (`train/loss` scalars at their step)",
            train_loss=printed,
            eval_loss=series.get("val/loss") if a.val else None, eval_name="val/loss" if a.val else None,
            steps_per_epoch=len(train_loader))
