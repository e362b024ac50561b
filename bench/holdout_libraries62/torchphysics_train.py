"""torchphysics: a PINN for the Poisson problem ``-Δu = 2π² sin(πx) sin(πy)`` on the unit square (``u = 0`` on its
boundary), built as its tutorials do (``tp.spaces``, ``tp.domains.Parallelogram``, random samplers, ``tp.models.FCN``,
``PINNCondition``s, ``tp.OptimizerSetting``, ``tp.solver.Solver``) and trained by a PyTorch Lightning ``Trainer`` with
``max_steps`` (torchphysics trains one epoch of ``max_steps`` steps). The console is Lightning's: its model summary and
its tqdm bar on stderr (no TTY: one ``\\r`` update a refresh) whose postfix holds ``train/loss=0.123`` (torchphysics
logs it with ``prog_bar=True``; tqdm's 3 significant digits). Optional: a validation condition (the error against the
exact solution, ``val/...`` in the bar), an lr scheduler (``ExponentialLR`` stepped every step), Adam / SGD / LBFGS,
the bar's refresh rate and ``log_every_n_steps``. Truth: Lightning's default logger (no TensorBoard installed:
``CSVLogger``), ``lightning_logs/version_0/metrics.csv``, the ``train/loss`` column at its ``step`` (0-based)."""

from __future__ import annotations

import argparse
import csv
import math
import os

from h62_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--steps", type=int, default=300)
ap.add_argument("--lr", type=float, default=0.005)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "lbfgs"])
ap.add_argument("--gamma", type=float, default=None, help="ExponentialLR gamma, stepped every step")
ap.add_argument("--n-inner", type=int, default=200)
ap.add_argument("--n-bound", type=int, default=80)
ap.add_argument("--hidden", type=int, nargs="+", default=[20, 20])
ap.add_argument("--line-search", action="store_true", help="LBFGS with line_search_fn='strong_wolfe'")
ap.add_argument("--val", action="store_true")
ap.add_argument("--log-every", type=int, default=10)
ap.add_argument("--refresh", type=int, default=1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pytorch_lightning as pl  # noqa: E402
import torch  # noqa: E402
import torchphysics as tp  # noqa: E402
from pytorch_lightning.callbacks import TQDMProgressBar  # noqa: E402

torch.manual_seed(0)
torch.set_num_threads(1)

X = tp.spaces.R2("x")
U = tp.spaces.R1("u")
square = tp.domains.Parallelogram(X, [0, 0], [1, 0], [0, 1])
model = tp.models.FCN(input_space=X, output_space=U, hidden=tuple(a.hidden))


def pde_residual(u, x):
    xs, ys = x[:, :1], x[:, 1:]
    f = 2 * math.pi ** 2 * torch.sin(math.pi * xs) * torch.sin(math.pi * ys)
    return tp.utils.laplacian(u, x) + f


def boundary_residual(u):
    return u


inner = tp.samplers.RandomUniformSampler(square, n_points=a.n_inner)
bound = tp.samplers.RandomUniformSampler(square.boundary, n_points=a.n_bound)
conds = [tp.conditions.PINNCondition(module=model, sampler=inner, residual_fn=pde_residual, name="pde"),
         tp.conditions.PINNCondition(module=model, sampler=bound, residual_fn=boundary_residual, name="boundary",
                                     weight=10)]
val = []
if a.val:
    def error(u, x):
        return u - torch.sin(math.pi * x[:, :1]) * torch.sin(math.pi * x[:, 1:])

    grid = tp.samplers.GridSampler(square, n_points=400)
    val = [tp.conditions.PINNCondition(module=model, sampler=grid, residual_fn=error, name="l2_error")]

opt_cls = {"adam": torch.optim.Adam, "sgd": torch.optim.SGD, "lbfgs": torch.optim.LBFGS}[a.optimizer]
opt_args: dict = {}
if a.optimizer == "lbfgs":
    opt_args = {"max_iter": 4, "history_size": 20} | ({"line_search_fn": "strong_wolfe"} if a.line_search else {})
sched = {} if a.gamma is None else {"scheduler_class": torch.optim.lr_scheduler.ExponentialLR,
                                    "scheduler_args": {"gamma": a.gamma}}
setting = tp.OptimizerSetting(optimizer_class=opt_cls, lr=a.lr, optimizer_args=opt_args, **sched)
solver = tp.solver.Solver(train_conditions=conds, val_conditions=val, optimizer_setting=setting)

trainer = pl.Trainer(accelerator="cpu", devices=1, max_steps=a.steps, benchmark=True, enable_checkpointing=False,
                     log_every_n_steps=a.log_every, callbacks=[TQDMProgressBar(refresh_rate=a.refresh)],
                     **({"val_check_interval": a.steps // 4, "check_val_every_n_epoch": None} if a.val else {}))
trainer.fit(solver)

csv_path = os.path.join(trainer.logger.log_dir, "metrics.csv")
train, evals = [], []
with open(csv_path) as f:
    for row in csv.DictReader(f):
        if row.get("train/loss"):
            train.append((int(row["step"]), float(row["train/loss"])))
        if row.get("val/l2_error"):
            evals.append((int(row["step"]), float(row["val/l2_error"])))
keep(csv_path)
write_truth(framework=f"torchphysics {tp.__version__}", settings=vars(a), loss_name="train/loss",
            step_unit="optimizer step, 0-based (Lightning's CSVLogger `step`; the bar counts batches 1-based)",
            tolerance=tol_sig(3),
            record="Lightning's CSVLogger file lightning_logs/version_0/metrics.csv (`train/loss`)",
            train_loss=train, eval_loss=evals or None, eval_name="val/l2_error" if evals else None)
