"""PINA (pina-mathlab): a physics-informed network (its ``PhysicsInformedSingleModelSolver``, the PINN, with a small
``FeedForward``) on PINA's own ``Poisson2DSquareProblem`` (its problem zoo), its domain sampled on a grid by
``discretise_domain``, trained by PINA's ``Trainer`` (a Lightning trainer) as its tutorials do. Its console:
Lightning's notices, then the progress bar (stderr, no TTY: ``\\r`` updates) whose postfix holds the losses PINA
logs, 3 significant digits (``boundary_loss=2.030, D_loss=7.310, train_loss=9.330``; ``val_loss`` with a validation
split; ``train_loss_step``/``train_loss_epoch`` when ``log_every_n_steps`` > 0). Lightning's default logger (a
CSVLogger: no TensorBoard installed) writes ``lightning_logs/version_0/metrics.csv``. Truth: that file's epoch
``train_loss`` (``train_loss_epoch``) at its ``epoch`` (0-based); the file is kept."""

from __future__ import annotations

import argparse
import csv
import math
import os
from pathlib import Path

from h69_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=300)
ap.add_argument("--lr", type=float, default=0.003)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "rmsprop", "adamw"])
ap.add_argument("--n", type=int, default=12, help="grid points a side")
ap.add_argument("--width", type=int, default=16)
ap.add_argument("--layers", type=int, default=2)
ap.add_argument("--batch", type=int, default=None)
ap.add_argument("--val", type=float, default=0.0)
ap.add_argument("--gamma", type=float, default=None, help="ExponentialLR's factor each epoch")
ap.add_argument("--log-every", type=int, default=0, help="Trainer's log_every_n_steps (0: epoch values only)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import torch  # noqa: E402
from pina import Trainer  # noqa: E402
from pina.model import FeedForward  # noqa: E402
from pina.optim import TorchOptimizer, TorchScheduler  # noqa: E402
from pina.problem.zoo import Poisson2DSquareProblem  # noqa: E402
from pina.solver import PhysicsInformedSingleModelSolver as PINN  # noqa: E402

torch.manual_seed(0)
problem = Poisson2DSquareProblem()
problem.discretise_domain(n=a.n, mode="grid", domains=None)
model = FeedForward(input_dimensions=len(problem.input_variables), output_dimensions=len(problem.output_variables),
                    inner_size=a.width, n_layers=a.layers)
opt_cls = {"adam": torch.optim.Adam, "sgd": torch.optim.SGD, "rmsprop": torch.optim.RMSprop,
           "adamw": torch.optim.AdamW}[a.optimizer]
sched = TorchScheduler(torch.optim.lr_scheduler.ExponentialLR, gamma=a.gamma) if a.gamma else None
solver = PINN(problem=problem, model=model, optimizer=TorchOptimizer(opt_cls, lr=a.lr), scheduler=sched)
trainer = Trainer(solver=solver, max_epochs=a.epochs, accelerator="cpu", batch_size=a.batch,
                  train_size=1.0 - a.val, val_size=a.val, test_size=0.0, log_every_n_steps=a.log_every)
trainer.train()

logdir = Path(trainer.logger.log_dir) if trainer.logger is not None else Path(os.getcwd())
with open(logdir / "metrics.csv") as f:
    rows = list(csv.DictReader(f))
key = "train_loss_epoch" if a.log_every > 0 else "train_loss"


def series(name: str) -> list[tuple[int, float]]:
    out = [(int(r["epoch"]), float(r[name])) for r in rows if r.get(name, "") not in ("", None)]
    return [(s, v if math.isfinite(v) else float("nan")) for s, v in out]


keep(logdir / "metrics.csv")
val_key = "val_loss_epoch" if a.log_every > 0 else "val_loss"
val = series(val_key) if rows and val_key in rows[0] else None
write_truth(framework=f"pina-mathlab {version('pina-mathlab')}", settings=vars(a), loss_name=key,
            step_unit="epoch, 0-based (Lightning's `Epoch 3:` in the progress bar, `epoch` in metrics.csv)",
            tolerance=tol_sig(3), record=f"Lightning's CSVLogger metrics.csv, PINA's `{key}` at `epoch`",
            train_loss=series(key), eval_loss=val, eval_name=val_key if val else None)
