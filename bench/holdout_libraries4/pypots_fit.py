"""PyPOTS: an imputation model (``SAITS``, ``BRITS``, ``Transformer``, ``CSDI``-free small ones) ``fit`` on synthetic
multivariate series with missing values, its default logger on the console (``2026-12-05 20:10:11 [INFO]: Epoch
003 - training loss (MAE): 0.5231, validation MSE: 0.4012``) and, with ``saving_path`` (its standard option), its
TensorBoard file of per-step training losses. Truth: per 1-based epoch, the mean of that epoch's per-step
``training/loss`` values in the TensorBoard file PyPOTS writes (what it prints is that mean)."""

from __future__ import annotations

import argparse
import glob

import numpy as np
from h4_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="SAITS", choices=["SAITS", "BRITS", "Transformer", "DLinear"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--gamma", type=float, default=0.0,
                help="pypots ExponentialLR gamma (PyPOTS steps its scheduler every optimizer step)")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from pypots.imputation import BRITS, SAITS, DLinear, Transformer  # noqa: E402
from pypots.optim import Adam  # noqa: E402
from pypots.optim.lr_scheduler import ExponentialLR  # noqa: E402
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

torch.set_num_threads(1)
rng = np.random.default_rng(0)
n, t, f = 320, 24, 5
base = np.sin(np.arange(t)[None, :, None] / 3.0 + rng.uniform(0, 6, size=(n, 1, f))) * rng.uniform(0.5, 2, (n, 1, f))
X = (base + 0.1 * rng.normal(size=(n, t, f))).astype(np.float32)
mask = rng.random(X.shape) < 0.2
X_miss = X.copy()
X_miss[mask] = np.nan
train = {"X": X_miss[:256]}
val_ori = X[256:]
val_miss = X_miss[256:].copy()
val_mask = (rng.random(val_miss.shape) < 0.1) & ~np.isnan(val_miss)
val_in = val_miss.copy()
val_in[val_mask] = np.nan
val = {"X": val_in, "X_ori": val_miss}

sched = ExponentialLR(gamma=a.gamma) if a.gamma else None
common = dict(n_steps=t, n_features=f, batch_size=a.batch, epochs=a.epochs, patience=None,
              optimizer=Adam(lr=a.lr, lr_scheduler=sched), device="cpu", saving_path="runs",
              model_saving_strategy=None)
if a.model == "SAITS":
    model = SAITS(n_layers=1, d_model=32, n_heads=2, d_k=16, d_v=16, d_ffn=32, dropout=0.0, **common)
elif a.model == "BRITS":
    model = BRITS(rnn_hidden_size=32, **common)
elif a.model == "Transformer":
    model = Transformer(n_layers=1, d_model=32, n_heads=2, d_k=16, d_v=16, d_ffn=32, dropout=0.0, **common)
else:
    model = DLinear(moving_avg_window_size=5, individual=False, d_model=32, **common)
model.fit(train, None if a.no_val else val)
model.summary_writer.flush()  # its last events are otherwise still in the writer's queue

import pypots  # noqa: E402

events = sorted(glob.glob("runs/**/events.out.tfevents.*", recursive=True))
acc = EventAccumulator(events[-1], size_guidance={"scalars": 0})
acc.Reload()
steps = acc.Scalars("training/loss")
per_epoch = -(-256 // a.batch)
done = len(steps) // per_epoch  # an epoch cut short by an exception (PyPOTS logs it and ends fit) is not printed
if not a.no_val and done < a.epochs:
    # its validation (not in the TensorBoard file) may have failed after the epoch's steps: which epochs were printed
    # is not known from the record, so such a run is not made
    raise SystemExit("a run with validation that ended early; not used")
means = []
for e in range(done):
    vals = [s.value for s in steps[e * per_epoch:(e + 1) * per_epoch]]
    means.append((e + 1, float(np.mean(vals))))
write_truth(framework=f"pypots {pypots.__version__}", settings=vars(a), loss_name="training loss",
            step_unit="epoch, 1-based (`Epoch 003`)", tolerance=tol_decimals(4),
            record="PyPOTS's TensorBoard file (training/loss per step), averaged per epoch as it prints",
            train_loss=means)
