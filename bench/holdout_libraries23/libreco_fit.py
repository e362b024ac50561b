"""LibRecommender: a torch model of its (``LightGCN``, ``NGCF``) trained on synthetic implicit feedback as its
quick start does (``DatasetPure.build_trainset`` / ``build_evalset``, ``model.fit(train, neg_sampling=True,
verbose=2, eval_data=..., metrics=...)``). With ``verbose=2`` it prints, per epoch, tqdm's ``train`` bar (stderr), then
on stdout ``Epoch 1 elapsed: 0.412s``, ``\\t \\x1b[32mtrain_loss: 0.6931\\x1b[0m`` (the epoch's mean batch loss,
``round(mean, 4)``), with eval data its evaluation bar and metric lines (``\\t eval log_loss: 0.6543``, ``\\t eval
precision@10: 0.0312``, ...) and a row of ``=``. Truth: it keeps no record of its losses, so the batch losses its
trainer computes (its ``_compute_loss``, wrapped here to keep each value) are averaged over each epoch's ``Epoch N``
timing block (its ``time_block``, wrapped to mark the epoch's end) as it averages them. Epochs are 1-based."""

from __future__ import annotations

import argparse
import contextlib
import statistics

import numpy as np
import pandas as pd
from h23_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="lightgcn", choices=["lightgcn", "ngcf"])
ap.add_argument("--loss", default="bpr", choices=["bpr", "cross_entropy", "max_margin", "focal"])
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--lr", type=float, default=0.001)
ap.add_argument("--lr-decay", action="store_true")
ap.add_argument("--batch", type=int, default=256)
ap.add_argument("--embed", type=int, default=16)
ap.add_argument("--layers", type=int, default=2)
ap.add_argument("--eval", action="store_true")
ap.add_argument("--users", type=int, default=200)
ap.add_argument("--items", type=int, default=150)
ap.add_argument("--n", type=int, default=6000)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

from libreco.algorithms import NGCF, LightGCN  # noqa: E402
from libreco.data import DatasetPure  # noqa: E402
from libreco.training import torch_trainer  # noqa: E402
from libreco.training.torch_trainer import TorchTrainer  # noqa: E402

rng = np.random.default_rng(0)
# users and items with a latent taste each: a user picks items near its taste
ut, it = rng.normal(size=(a.users, 4)), rng.normal(size=(a.items, 4))
users = rng.integers(0, a.users, a.n)
scores = ut[users] @ it.T + rng.gumbel(size=(a.n, a.items)) * 2
items = scores.argmax(1)
df = pd.DataFrame({"user": users, "item": items, "label": 1, "time": np.arange(a.n)}).drop_duplicates(["user", "item"])
df = df.sample(frac=1.0, random_state=0)
cut = int(len(df) * 0.85)
train_data, data_info = DatasetPure.build_trainset(df.iloc[:cut])
eval_data = DatasetPure.build_evalset(df.iloc[cut:]) if a.eval else None

cls = LightGCN if a.model == "lightgcn" else NGCF
kw = {"n_layers": a.layers} if a.model == "lightgcn" else {"hidden_units": [a.embed] * a.layers}
model = cls("ranking", data_info, loss_type=a.loss, embed_size=a.embed, n_epochs=a.epochs, lr=a.lr,
            lr_decay=a.lr_decay, batch_size=a.batch, device="cpu", **kw)

batch_losses: list[float] = []


compute = TorchTrainer._compute_loss  # the trainer is made in fit: wrap its class's method


def recorded(self, data):
    loss = compute(self, data)
    batch_losses.append(loss.detach().cpu().item())
    return loss


TorchTrainer._compute_loss = recorded
block = torch_trainer.time_block
ends: list[int] = []  # the number of batch losses at the end of each epoch's "Epoch N" block


@contextlib.contextmanager
def epoch_block(name, verbose=1):
    with block(name, verbose):
        yield
    ends.append(len(batch_losses))


torch_trainer.time_block = epoch_block
model.fit(train_data, neg_sampling=True, verbose=2, shuffle=True, eval_data=eval_data,
          metrics=["loss", "precision", "recall", "ndcg"] if a.eval else None, k=10)
starts = [0, *ends[:-1]]
epoch_means = [statistics.mean(batch_losses[b:e]) for b, e in zip(starts, ends, strict=True)]

write_truth(framework=f"LibRecommender {version('LibRecommender')}", settings=vars(a), loss_name="train_loss",
            step_unit="epoch, 1-based (`Epoch N elapsed`)", tolerance=tol_decimals(4),
            record="the trainer's batch losses (its `_compute_loss`, wrapped to keep them), averaged per epoch as "
                   "it averages them before `round(mean, 4)`",
            train_loss=[(e + 1, v) for e, v in enumerate(epoch_means)], steps_per_epoch=ends[0])
