"""RecTools: its transformer recommenders (``SASRecModel``, ``BERT4RecModel``) fitted with ``model.fit(dataset)`` on a
tiny generated interactions table (users walking a ring of items, with noise), with ``verbose=1`` as its guides do:
RecTools builds its own PyTorch Lightning ``Trainer`` (progress bar, model summary, ``logger=True``) or, with
``--custom-trainer``, takes one from ``get_trainer_func`` as its guide on custom trainers shows (here a Trainer with a
``CSVLogger`` and, with ``--lr-growth``, Lightning's ``LearningRateMonitor`` and a ``LambdaLR``-like callback growing
the rate each epoch). Lightning's progress bar (tqdm on stderr, no TTY: ``\\r`` redraws) shows ``train_loss=3.660``
(and ``val_loss``) at each epoch's end: tqdm's 3 significant digits, padded with zeros (``67.40``, ``1.74e+3``).
Truth: the ``metrics.csv`` of Lightning's CSVLogger (``train_loss`` at ``epoch``, 0-based, as the bar's
``Epoch 3``)."""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

from h66_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="sasrec", choices=["sasrec", "bert4rec"])
ap.add_argument("--loss", default="softmax", choices=["softmax", "BCE", "gBCE", "sampled_softmax"])
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--lr", type=float, default=0.003)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--factors", type=int, default=16)
ap.add_argument("--blocks", type=int, default=1)
ap.add_argument("--users", type=int, default=200)
ap.add_argument("--val", action="store_true", help="leave-one-out validation (get_val_mask_func)")
ap.add_argument("--custom-trainer", action="store_true", help="a Trainer of one's own (get_trainer_func)")
ap.add_argument("--lr-growth", type=float, default=1.0, help="with --custom-trainer: multiply the rate each epoch")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import rectools  # noqa: E402
from pytorch_lightning import Callback, Trainer  # noqa: E402
from pytorch_lightning.loggers import CSVLogger  # noqa: E402
from rectools.dataset import Dataset  # noqa: E402
from rectools.models import BERT4RecModel, SASRecModel  # noqa: E402
from rectools.models.nn.transformers.utils import leave_one_out_mask  # noqa: E402

rng = np.random.default_rng(0)
rows = []
for u in range(a.users):
    n, start, step = int(rng.integers(5, 15)), int(rng.integers(0, 60)), int(rng.integers(1, 4))
    for k in range(n):
        item = (start + k * step + int(rng.integers(0, 2))) % 60
        rows.append((f"u{u}", f"i{item}", 1.0, pd.Timestamp("2024-01-01") + pd.Timedelta(hours=k * 5 + u)))
interactions = pd.DataFrame(rows, columns=["user_id", "item_id", "weight", "datetime"])
dataset = Dataset.construct(interactions)


class GrowLR(Callback):
    """Multiply every optimizer's rate by ``gamma`` at each epoch's end (an exponential schedule gone wrong)."""

    def __init__(self, gamma: float) -> None:
        self.gamma = gamma

    def on_train_epoch_end(self, trainer: Trainer, pl_module: object) -> None:
        for opt in trainer.optimizers:
            for g in opt.param_groups:
                g["lr"] *= self.gamma


def get_trainer() -> Trainer:
    callbacks = [GrowLR(a.lr_growth)] if a.lr_growth != 1.0 else []
    return Trainer(max_epochs=a.epochs, min_epochs=a.epochs, deterministic=True, enable_checkpointing=False,
                   devices=1, accelerator="cpu", logger=CSVLogger("logs", name="rectools"), callbacks=callbacks)


kw: dict = dict(n_factors=a.factors, n_blocks=a.blocks, n_heads=2, session_max_len=10, loss=a.loss, lr=a.lr,
                batch_size=a.batch, epochs=a.epochs, verbose=1, deterministic=True)
if a.loss != "softmax":
    kw["n_negatives"] = 4
if a.val:
    kw["get_val_mask_func"] = leave_one_out_mask
if a.custom_trainer:
    kw["get_trainer_func"] = get_trainer
model = (SASRecModel if a.model == "sasrec" else BERT4RecModel)(**kw)
model.fit(dataset)

trainer = model.fit_trainer
assert trainer is not None and trainer.logger is not None and trainer.log_dir is not None
log_dir = Path(trainer.log_dir)
with open(log_dir / "metrics.csv") as f:
    rows_csv = list(csv.DictReader(f))
train = [(int(r["epoch"]), float(r["train_loss"])) for r in rows_csv if r.get("train_loss")]
val = [(int(r["epoch"]), float(r["val_loss"])) for r in rows_csv if r.get("val_loss")]
for own in ("metrics.csv", "hparams.yaml"):
    if (log_dir / own).is_file():
        keep(log_dir / own)
write_truth(framework=f"rectools {rectools.__version__}", settings=vars(a), loss_name="train_loss",
            step_unit="epoch, 0-based (Lightning's bar `Epoch 3: 100%`)", tolerance=tol_sig(3),
            record="the `metrics.csv` of Lightning's CSVLogger (`train_loss` at `epoch`)",
            train_loss=train, eval_loss=val or None, eval_name="val_loss" if val else None)
