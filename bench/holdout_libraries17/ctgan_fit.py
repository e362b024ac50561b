"""ctgan (SDV's CTGAN library): a ``TVAE`` or a ``CTGAN`` synthesizer fitted on a small synthetic mixed table
(two continuous columns, a categorical one) with ``verbose=True``, as its README shows. Its progress is a tqdm bar
over the epochs on stderr whose description is set after every epoch: ``\\rLoss: +10.85:   0%|          | 0/10
[00:00<?, ?it/s]`` (TVAE) or ``\\rGen. (+01.23) | Discrim. (-00.45):  30%|...`` (CTGAN): ``_format_score``, 2
decimals, sign, clipped to +-99.99; ``+00.00`` before the first epoch. Truth: the synthesizer's own ``loss_values``
DataFrame: TVAE's (one row per batch: ``Epoch``, ``Batch``, ``Loss``), its last batch of each epoch (the value the
description shows), CTGAN's (one row per epoch: ``Generator Loss``, ``Discriminator Loss``), at ``Epoch`` (0-based)."""

from __future__ import annotations

import argparse

import numpy as np
from h17_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="tvae", choices=["tvae", "ctgan"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=100)
ap.add_argument("--dim", type=int, default=32, help="width of the hidden layers")
ap.add_argument("--embedding", type=int, default=16)
ap.add_argument("--loss-factor", type=float, default=2.0)
ap.add_argument("--lr", type=float, default=2e-4, help="CTGAN: generator and discriminator learning rate")
ap.add_argument("--n", type=int, default=400)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import ctgan  # noqa: E402
import pandas as pd  # noqa: E402
from ctgan import CTGAN, TVAE  # noqa: E402

rng = np.random.default_rng(0)
cat = rng.choice(["x", "y", "z"], size=a.n, p=[0.5, 0.3, 0.2])
df = pd.DataFrame({"a": rng.normal(size=a.n) + (cat == "y") * 2.0, "b": rng.gamma(2.0, size=a.n), "c": cat})
if a.model == "tvae":
    m = TVAE(embedding_dim=a.embedding, compress_dims=(a.dim, a.dim), decompress_dims=(a.dim, a.dim),
             batch_size=a.batch, epochs=a.epochs, loss_factor=a.loss_factor, verbose=True, enable_gpu=False)
    m.fit(df, ["c"])
    lv = m.loss_values.groupby("Epoch").tail(1)
    pts = [(int(e), float(v)) for e, v in zip(lv["Epoch"], lv["Loss"], strict=True)]
    extra = {}
    name, rec = "Loss", "the TVAE's `loss_values` DataFrame (per batch), the last batch of each epoch"
else:
    m = CTGAN(embedding_dim=a.embedding, generator_dim=(a.dim, a.dim), discriminator_dim=(a.dim, a.dim),
              generator_lr=a.lr, discriminator_lr=a.lr, batch_size=a.batch, epochs=a.epochs, verbose=True,
              enable_gpu=False)
    m.fit(df, ["c"])
    lv = m.loss_values
    pts = [(int(e), float(v)) for e, v in zip(lv["Epoch"], lv["Generator Loss"], strict=True)]
    dis = zip(lv["Epoch"], lv["Discriminator Loss"], strict=True)
    extra = {"discriminator_loss": [[int(e), float(v)] for e, v in dis]}
    name, rec = "Gen.", "the CTGAN's `loss_values` DataFrame (one row per epoch: `Generator Loss`)"

write_truth(framework=f"ctgan {ctgan.__version__}", settings=vars(a), loss_name=name,
            step_unit="epoch, 0-based (the record's `Epoch`; the bar's count lags)", tolerance=tol_decimals(2),
            record=rec, train_loss=pts, **extra)
