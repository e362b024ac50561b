"""Poutyne: ``Model.fit_generator`` with its default progress printing (``Epoch: 1/8 Train steps: 32 ...
loss: 1.05 acc: 47.3 val_loss: ...``, redrawn with ``\\r`` per step), a ``CSVLogger`` (kept as ``log.csv``,
a second entry), optionally per batch (``batch_granularity``). The truth is the ``fit`` history (the epoch's
mean loss, 1-based ``epoch``), or per batch the CSV's rows at the global batch."""

from __future__ import annotations

import argparse
import csv

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--opt", default="sgd")
ap.add_argument("--bs", type=int, default=32)
ap.add_argument("--batch-granularity", action="store_true")
ap.add_argument("--no-valid", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from _data import loaders, mlp  # noqa: E402
from poutyne import CSVLogger, Model  # noqa: E402

tr, va = loaders(a.bs)
net = mlp()
opt = torch.optim.SGD(net.parameters(), lr=a.lr) if a.opt == "sgd" else torch.optim.Adam(net.parameters(), lr=a.lr)
model = Model(net, opt, "cross_entropy", batch_metrics=["accuracy"])
hist = model.fit_generator(tr, None if a.no_valid else va, epochs=a.epochs,
                           callbacks=[CSVLogger("log.csv", batch_granularity=a.batch_granularity)])
if a.batch_granularity:
    with open("log.csv") as f:
        rows = list(csv.DictReader(f))
    # batch rows carry no epoch (the epoch's own row follows them): the global batch is their running count
    pts = [(i + 1, float(r["loss"])) for i, r in enumerate(r for r in rows if r["batch"])]
    unit, rec = "global batch, 1-based ((epoch-1)*steps + the printed Step)", "CSVLogger(batch_granularity=True)'s rows"
else:
    pts = [(h["epoch"], h["loss"]) for h in hist]
    unit, rec = "epoch, 1-based ('Epoch: e/E')", "the history model.fit_generator returns"
write_truth(framework="poutyne", settings=vars(a), label=a.label, should_stop=a.should_stop, loss_name="loss",
            step_unit=unit, tolerance={"rel": 1e-9, "abs": 5.1e-5}, record=rec, train_loss=pts,
            eval_loss=None if a.no_valid or a.batch_granularity else [(h["epoch"], h["val_loss"]) for h in hist],
            steps_per_epoch=None if a.batch_granularity else len(tr))
keep("log.csv")
if not a.batch_granularity:
    store_entry("log.csv", "truth.json")
