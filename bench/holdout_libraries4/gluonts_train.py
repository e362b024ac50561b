"""GluonTS (PyTorch models): an estimator's ``train`` on a synthetic hourly series without validation data, its
Lightning trainer as GluonTS sets it up: the ``ModelCheckpoint`` on ``train_loss`` that GluonTS adds prints, each
epoch, ``Epoch 3, global step 80: 'train_loss' reached -0.05511 (best -0.05511), saving model to ...`` when the
epoch's loss is a new best and ``Epoch 4, global step 100: 'train_loss' was not in top 1`` when not; the rich
progress bar prints only its final state into a file. Truth: ``train_loss`` per epoch (the epoch mean GluonTS logs)
from the TensorBoard file Lightning's default logger writes, at the epochs whose line prints it (0-based)."""

from __future__ import annotations

import argparse
import glob

import numpy as np
from h4_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="DeepAR", choices=["DeepAR", "SimpleFeedForward", "DLinear"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batches", type=int, default=20, help="num_batches_per_epoch")
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pandas as pd  # noqa: E402
import torch  # noqa: E402
from gluonts.dataset.pandas import PandasDataset  # noqa: E402
from gluonts.torch import DeepAREstimator, DLinearEstimator, SimpleFeedForwardEstimator  # noqa: E402
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

torch.set_num_threads(1)
rng = np.random.default_rng(0)
t = np.arange(800)
y = np.sin(t / 12) + 0.5 * np.sin(t / 40) + 0.001 * t + 0.1 * rng.normal(size=t.size)
df = pd.DataFrame({"target": y.astype(np.float32)}, index=pd.period_range("2020-01-01", periods=t.size, freq="h"))
ds = PandasDataset(df, target="target")
kw = dict(prediction_length=12, num_batches_per_epoch=a.batches, lr=a.lr,
          trainer_kwargs={"max_epochs": a.epochs, "accelerator": "cpu"})
if a.model == "DeepAR":
    est = DeepAREstimator(freq="h", num_layers=1, hidden_size=16, **kw)
elif a.model == "SimpleFeedForward":
    est = SimpleFeedForwardEstimator(hidden_dimensions=[32, 32], **kw)
else:
    est = DLinearEstimator(hidden_dimension=16, **kw)
est.train(ds)

import gluonts  # noqa: E402

acc = EventAccumulator(sorted(glob.glob("lightning_logs/version_*/events.out.tfevents.*"))[-1],
                       size_guidance={"scalars": 0})
acc.Reload()
epochs = {int(s.step): int(s.value) for s in acc.Scalars("epoch")}
series = [(epochs.get(int(s.step), int(s.step) // a.batches - 1), s.value) for s in acc.Scalars("train_loss")]
printed, best = [], float("inf")
# ModelCheckpoint(monitor="train_loss", mode="min", save_top_k=1) prints a value when it is a new best
for e, v in series:
    if v < best:
        printed.append((e, v))
        best = v
write_truth(framework=f"gluonts {gluonts.__version__}", settings=vars(a), loss_name="train_loss",
            step_unit="epoch, 0-based (`Epoch N, global step S`)", tolerance=tol_decimals(5),
            record="train_loss per epoch in Lightning's TensorBoard file, at the epochs ModelCheckpoint prints",
            train_loss=printed, all_epochs=[[e, float(v)] for e, v in series], steps_per_epoch=a.batches)
