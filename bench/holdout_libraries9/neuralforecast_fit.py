"""neuralforecast: a model of its own (``MLP``, ``NHITS``, ``LSTM``) fitted with ``NeuralForecast(models=[...],
freq="h").fit(df)`` on a few synthetic hourly series, as its quick start does, with its defaults: PyTorch Lightning's
messages and progress bar on stderr (``Epoch 3:  50%|█████     | 1/2 [00:00<00:00, 15.22it/s, v_num=0,
train_loss_step=2.500, train_loss_epoch=3.160]``, redrawn with ``\\r``; with ``--val-size``, ``valid_loss`` at each
validation), ``Trainer.fit stopped: max_steps=N reached.`` or, on a NaN loss, its own guard's exception (``Loss is
NaN, training stopped.``: the traceback printed, exit 1); its default logger's ``lightning_logs`` (TensorBoard
events, not kept). Truth: the model's own record ``train_trajectories`` (``(global_step, train loss)``, one per step,
the step 0-based across epochs), every step printed as ``train_loss_step`` (3 significant digits: ``98.70``,
``3.86e+27``, ``inf.0``); ``valid_trajectories`` the eval series."""

from __future__ import annotations

import argparse
import gc
import logging
import math
import sys
import traceback

import numpy as np
import pandas as pd
from h9_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="MLP", choices=["MLP", "NHITS", "LSTM"])
ap.add_argument("--series", type=int, default=4)
ap.add_argument("--batch", type=int, default=2)
ap.add_argument("--steps", type=int, default=40)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--loss", default="MAE", choices=["MAE", "MSE"])
ap.add_argument("--gamma", type=float, default=0.0, help="lr_scheduler ExponentialLR(gamma), stepped every step")
ap.add_argument("--val-size", type=int, default=0)
ap.add_argument("--val-check", type=int, default=10)
ap.add_argument("--scaler", default="identity")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import neuralforecast  # noqa: E402
import torch  # noqa: E402
from neuralforecast import NeuralForecast  # noqa: E402
from neuralforecast.losses.pytorch import MAE, MSE  # noqa: E402
from neuralforecast.models import LSTM, MLP, NHITS  # noqa: E402

rng = np.random.default_rng(0)
frames = []
for uid in range(a.series):
    t = np.arange(300)
    y = np.sin(2 * np.pi * t / 24 + uid) * (2 + uid) + 0.05 * t + rng.normal(0, 0.3, 300)
    frames.append(pd.DataFrame({"unique_id": f"s{uid}", "ds": pd.date_range("2024-01-01", periods=300, freq="h"),
                                "y": y}))
df = pd.concat(frames, ignore_index=True)

kw: dict = dict(h=12, input_size=48, max_steps=a.steps, learning_rate=a.lr, batch_size=a.batch, random_seed=0,
                loss=MAE() if a.loss == "MAE" else MSE(), scaler_type=a.scaler, val_check_steps=a.val_check)
if a.gamma:
    kw.update(lr_scheduler=torch.optim.lr_scheduler.ExponentialLR, lr_scheduler_kwargs={"gamma": a.gamma})
model = {"MLP": MLP, "NHITS": NHITS, "LSTM": LSTM}[a.model](**kw)
nf = NeuralForecast(models=[model], freq="h")
failed = False
try:
    nf.fit(df, val_size=a.val_size)
except Exception:  # its NaN guard ("Loss is NaN, training stopped."): the traceback as Python prints it, then exit 1
    traceback.print_exc()
    failed = True

# the instance Lightning trained holds the record (the fitted copy, or the one whose fit raised)
fitted = max([*nf.models, model, *[o for o in gc.get_objects() if isinstance(o, type(model))]],
             key=lambda m: len(getattr(m, "train_trajectories", [])))
logging.shutdown()


def val(v: float) -> float | str:
    return v if math.isfinite(v) else ("nan" if math.isnan(v) else "inf")


write_truth(framework=f"neuralforecast {neuralforecast.__version__}", settings=vars(a),
            loss_name=f"train_loss_step ({a.loss})",
            step_unit="global step, 0-based, across epochs (the bar's `Epoch E: ... i/N` counts steps of epoch E)",
            tolerance=tol_sig(3), record="the fitted model's `train_trajectories` (global_step, train loss)",
            train_loss=[(int(s), val(float(v))) for s, v in fitted.train_trajectories],
            eval_loss=[(int(s), val(float(v))) for s, v in fitted.valid_trajectories] or None,
            eval_name="valid_loss" if fitted.valid_trajectories else None,
            steps_per_epoch=math.ceil(a.series / a.batch))
sys.exit(1 if failed else 0)
