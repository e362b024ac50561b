"""DeepCTR-Torch: a CTR model's ``fit`` (its Keras-like print: ``Epoch 3/10`` then
``0s - loss:  0.6625 - binary_crossentropy:  0.6623 - auc:  0.8306 - val_binary_crossentropy: ...``; with
``verbose=1`` also a tqdm bar per epoch). Truth: the ``History`` ``fit`` returns (``history['loss']`` per epoch)."""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
import torch
from h3_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="DeepFM", choices=["DeepFM", "WDL", "xDeepFM", "DCN"])
ap.add_argument("--task", default="binary", choices=["binary", "regression"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=256)
ap.add_argument("--opt", default="adam")
ap.add_argument("--lr", type=float, default=0.0)
ap.add_argument("--verbose", type=int, default=2)
ap.add_argument("--val", type=float, default=0.2)
ap.add_argument("--n", type=int, default=4000)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from deepctr_torch import models  # noqa: E402
from deepctr_torch.inputs import DenseFeat, SparseFeat, get_feature_names  # noqa: E402

rng = np.random.default_rng(0)
df = pd.DataFrame({f"c{i}": rng.integers(0, 20, a.n) for i in range(5)})
for i in range(3):
    df[f"d{i}"] = rng.normal(size=a.n)
z = (df.c0 % 3 == 0) * 1.5 - (df.c1 > 10) + df.d0 + 0.5 * df.d1 * (df.c2 % 2)
if a.task == "binary":
    y = (z + rng.normal(size=a.n) > 0.3).astype(float).values
    loss, metrics = "binary_crossentropy", ["binary_crossentropy", "auc"]
else:
    y = (3 * z + 5 + rng.normal(size=a.n)).values.astype(float)
    loss, metrics = "mse", ["mse"]
feats = [SparseFeat(f"c{i}", 20, embedding_dim=4) for i in range(5)] + [DenseFeat(f"d{i}", 1) for i in range(3)]
x = {name: df[name].values for name in get_feature_names(feats)}
kw = {"dnn_hidden_units": (32, 16)}
if a.model == "xDeepFM":
    kw["cin_layer_size"] = (16, 16)
model = getattr(models, a.model)(feats, feats, task=a.task, device="cpu", seed=0, **kw)
if a.lr:
    opt = (torch.optim.Adam if a.opt == "adam" else torch.optim.SGD)(model.parameters(), lr=a.lr)
else:
    opt = a.opt
model.compile(opt, loss, metrics=metrics)
h = model.fit(x, y, batch_size=a.batch, epochs=a.epochs, verbose=a.verbose, validation_split=a.val)

train = [(i + 1, v) for i, v in enumerate(h.history["loss"])]
vk = f"val_{metrics[0]}"
ev = [(i + 1, v) for i, v in enumerate(h.history[vk])] if vk in h.history else None
write_truth(framework="deepctr-torch", settings=vars(a), loss_name="loss", step_unit="epoch, 1-based (Epoch N/E)",
            tolerance=tol_decimals(4), record="History.history['loss'] returned by model.fit",
            train_loss=train, eval_loss=ev, eval_name=vk if ev else None)
