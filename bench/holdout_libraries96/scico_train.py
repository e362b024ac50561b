"""SCICO (scico.flax): a tiny DnCNN / ConvBNNet denoiser trained with its own trainer, ``BasicFlaxTrainer`` with
``log: True`` (the configuration keys of scico's examples), on small synthetic images of disks with Gaussian noise
made here. The trainer prints its data and network summaries, then its iteration-statistics table (one row every
``log_every_steps`` steps: `Epoch  Time  Train_LR  Train_Loss  Train_SNR  Eval_Loss  Eval_SNR`). Truth: the
``IterationStats`` object the trainer returns (``history(transpose=True).Train_Loss`` at its ``Epoch``, 0-based)."""

from __future__ import annotations

import argparse

from h96_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="dncnn", choices=["dncnn", "convbn"])
ap.add_argument("--opt", default="ADAM", choices=["ADAM", "ADAMW", "SGD"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--schedule", default="cnst", choices=["cnst", "exp", "cosine"])
ap.add_argument("--decay", type=float, default=0.5, help="lr_decay_rate of the exponential schedule")
ap.add_argument("--warmup", type=int, default=0)
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--batch", type=int, default=8)
ap.add_argument("--n", type=int, default=64)
ap.add_argument("--log-every-epochs", type=int, default=1)
ap.add_argument("--depth", type=int, default=3)
ap.add_argument("--filters", type=int, default=8)
ap.add_argument("--noise", type=float, default=0.1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import scico  # noqa: E402
from scico import flax as sflax  # noqa: E402
from scico.flax.train import learning_rate as lrs  # noqa: E402

rng = np.random.default_rng(0)


def disks(n: int) -> dict:
    """``n`` 16x16 images of three soft disks each, and their noisy copies."""
    clean = np.zeros((n, 16, 16, 1), np.float32)
    yy, xx = np.mgrid[:16, :16]
    for i in range(n):
        for _ in range(3):
            cy, cx, r = rng.uniform(3, 13), rng.uniform(3, 13), rng.uniform(2, 5)
            clean[i, ..., 0] += ((yy - cy) ** 2 + (xx - cx) ** 2 < r * r) * rng.uniform(0.3, 1.0)
    noisy = clean + rng.normal(0, a.noise, clean.shape).astype(np.float32)
    return {"image": noisy, "label": clean}


train, test = disks(a.n), disks(16)
if a.model == "dncnn":
    model = sflax.DnCNNNet(depth=a.depth, channels=1, num_filters=a.filters)
else:
    model = sflax.ConvBNNet(depth=a.depth, channels=1, num_filters=a.filters)
schedules = {"cnst": lrs.create_cnst_lr_schedule, "exp": lrs.create_exp_lr_schedule,
             "cosine": lrs.create_cosine_lr_schedule}
steps_per_epoch = a.n // a.batch
config = {"seed": 0, "opt_type": a.opt, "momentum": 0.9, "batch_size": a.batch, "num_epochs": a.epochs,
          "base_learning_rate": a.lr, "lr_decay_rate": a.decay, "warmup_epochs": a.warmup,
          "lr_schedule": schedules[a.schedule], "steps_per_eval": 2,
          "log_every_steps": steps_per_epoch * a.log_every_epochs, "log": True}
trainer = sflax.BasicFlaxTrainer(config, model, train, test)
variables, stats = trainer.train()
hist = stats.history(transpose=True)
write_truth(framework=f"scico {scico.__version__}", settings=vars(a), loss_name="Train_Loss",
            step_unit="epoch, 0-based (the table's `Epoch` column)", tolerance=tol_decimals(6),
            record="the `IterationStats` object `BasicFlaxTrainer.train()` returns (`history(transpose=True)`: "
                   "`Train_Loss` at `Epoch`)",
            train_loss=[(int(e), float(v)) for e, v in zip(hist.Epoch, hist.Train_Loss, strict=True)],
            eval_loss=[(int(e), float(v)) for e, v in zip(hist.Epoch, hist.Eval_Loss, strict=True)],
            eval_name="Eval_Loss")
