"""pytorch-forecasting: a model of its own (``NBeats``, ``DeepAR``, ``RecurrentNetwork``) built with
``Model.from_dataset(TimeSeriesDataSet(...))`` on a few synthetic series and trained with a Lightning ``Trainer``, as
its tutorials do (``trainer.fit(model, train_dataloaders=..., val_dataloaders=...)``, ``gradient_clip_val`` when
given), with Lightning's ``CSVLogger`` (``log_every_n_steps`` as given): the model summary and Lightning's progress
bar on stderr (``Epoch 2:  40%|████      | 4/10 [00:00<00:00, 21.3it/s, v_num=0, train_loss_step=0.512,
val_loss=0.498, train_loss_epoch=0.530]``, redrawn with ``\\r``), ``Trainer.fit stopped: max_epochs=N reached.``
Truth: the logger's ``metrics.csv`` (``train_loss_step`` at its ``step``, the global step 0-based across epochs; kept),
only at the steps it holds (every ``log_every_n_steps``), each printed on the bar (3 significant digits); ``val_loss``
at the epochs' ends the eval series."""

from __future__ import annotations

import argparse
import csv
import math

import numpy as np
import pandas as pd
from h9_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="NBeats", choices=["NBeats", "DeepAR", "RecurrentNetwork"])
ap.add_argument("--series", type=int, default=6)
ap.add_argument("--batch", type=int, default=64)
ap.add_argument("--epochs", type=int, default=5)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--clip", type=float, default=0.0)
ap.add_argument("--every", type=int, default=1, help="the Trainer's log_every_n_steps")
ap.add_argument("--limit", type=int, default=10, help="limit_train_batches")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import lightning.pytorch as pl  # noqa: E402
import pytorch_forecasting  # noqa: E402
from lightning.pytorch.loggers import CSVLogger  # noqa: E402
from pytorch_forecasting import DeepAR, NBeats, RecurrentNetwork, TimeSeriesDataSet  # noqa: E402

pl.seed_everything(0)
rng = np.random.default_rng(0)
n_t = 200
frames = []
for g in range(a.series):
    t = np.arange(n_t)
    y = 10 + np.sin(2 * np.pi * t / 24 + g) * (2 + g) + 0.02 * t + rng.normal(0, 0.3, n_t)
    frames.append(pd.DataFrame({"series": str(g), "time_idx": t, "value": y.astype("float32")}))
data = pd.concat(frames, ignore_index=True)
enc, pred = 48, 12
cutoff = n_t - pred
kw: dict = dict(time_idx="time_idx", target="value", group_ids=["series"], max_encoder_length=enc,
                max_prediction_length=pred)
if a.model == "NBeats":
    kw.update(time_varying_unknown_reals=["value"], min_encoder_length=enc)
else:
    kw.update(time_varying_unknown_reals=["value"], static_categoricals=["series"])
training = TimeSeriesDataSet(data[data.time_idx < cutoff], **kw)
validation = TimeSeriesDataSet.from_dataset(training, data, min_prediction_idx=cutoff)
train_dl = training.to_dataloader(train=True, batch_size=a.batch, num_workers=0)
val_dl = validation.to_dataloader(train=False, batch_size=a.batch, num_workers=0)

if a.model == "NBeats":
    model = NBeats.from_dataset(training, learning_rate=a.lr, widths=[32, 256], backcast_loss_ratio=0.1)
elif a.model == "DeepAR":
    model = DeepAR.from_dataset(training, learning_rate=a.lr, hidden_size=16, rnn_layers=1)
else:
    model = RecurrentNetwork.from_dataset(training, learning_rate=a.lr, hidden_size=16, rnn_layers=1)

logger = CSVLogger("logs", name="ptf")
trainer = pl.Trainer(max_epochs=a.epochs, accelerator="cpu", gradient_clip_val=a.clip or None, logger=logger,
                     log_every_n_steps=a.every, limit_train_batches=a.limit, enable_checkpointing=False)
trainer.fit(model, train_dataloaders=train_dl, val_dataloaders=None if a.no_val else val_dl)

metrics = f"{logger.log_dir}/metrics.csv"
rows = list(csv.DictReader(open(metrics)))
keep(metrics)


def val(v: str) -> float | str:
    f = float(v)
    return f if math.isfinite(f) else ("nan" if math.isnan(f) else "inf")


write_truth(framework=f"pytorch-forecasting {pytorch_forecasting.__version__}", settings=vars(a),
            loss_name=f"train_loss_step ({type(model.loss).__name__})",
            step_unit="global step, 0-based, across epochs (the bar's `Epoch E: ... i/N` counts steps of epoch E)",
            tolerance=tol_sig(3), record="Lightning's CSVLogger `metrics.csv` (`train_loss_step` at its `step`)",
            train_loss=[(int(r["step"]), val(r["train_loss_step"])) for r in rows if r.get("train_loss_step")],
            eval_loss=[(int(r["step"]), val(r["val_loss"])) for r in rows if r.get("val_loss")] or None,
            eval_name=None if a.no_val else "val_loss", steps_per_epoch=int(trainer.num_training_batches))
