"""Catalyst 22.x: ``dl.SupervisedRunner().train(...)`` on a synthetic classification set with a ``logdir``: on stdout
its console logger (per epoch ``train (3/10) loss: 0.52 | lr: 0.01 | ...`` and ``valid (3/10) ...``), with
``verbose=True`` also tqdm bars per loader; in the logdir its CSV logger (``csv_logger/train.csv``, ``valid.csv``, one
row per epoch), checkpoints (not kept) and a TensorBoard logger.

Truth: the CSV logger's ``csv_logger/train.csv``, column ``loss`` (the epoch's mean), at its ``step`` (the epoch,
1-based).
"""

from __future__ import annotations

import argparse
import csv

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--lr", type=float, default=0.02)
ap.add_argument("--verbose", action="store_true")
ap.add_argument("--sched", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from catalyst import dl, utils  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

torch.set_num_threads(1)
utils.set_global_seed(0)
g = torch.Generator().manual_seed(0)
X = torch.randn(1500, 20, generator=g)
W = torch.randn(20, 4, generator=g)
y = (X @ W + 0.5 * torch.randn(1500, 4, generator=g)).argmax(1)
loaders = {"train": DataLoader(TensorDataset(X[:1200], y[:1200]), batch_size=64, shuffle=True, generator=g),
           "valid": DataLoader(TensorDataset(X[1200:], y[1200:]), batch_size=100)}
model = torch.nn.Sequential(torch.nn.Linear(20, 64), torch.nn.ReLU(), torch.nn.Linear(64, 4))
opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.3) if a.sched else None
runner = dl.SupervisedRunner(input_key="features", output_key="logits", target_key="targets", loss_key="loss")
runner.train(model=model, criterion=torch.nn.CrossEntropyLoss(), optimizer=opt, scheduler=sched, loaders=loaders,
             num_epochs=a.epochs, logdir="logdir", valid_loader="valid", valid_metric="loss",
             minimize_valid_metric=True, verbose=a.verbose, load_best_on_end=False,
             callbacks=[dl.AccuracyCallback(input_key="logits", target_key="targets", topk=(1,))])
rows = list(csv.DictReader(open("logdir/csv_logger/train.csv")))
keep("logdir/csv_logger/train.csv")
keep("logdir/csv_logger/valid.csv")
write_truth(framework="catalyst", settings=vars(a), label=a.label, should_stop=a.should_stop, loss_name="loss",
            step_unit="epoch, 1-based (the CSV logger's step; the console's 'train (N/E)')",
            tolerance={"rel": 1e-6, "sig": 5, "abs": 5e-6},
            record="the CSV logger's csv_logger/train.csv, column loss",
            train_loss=[(int(r["step"]), float(r["loss"])) for r in rows], steps_per_epoch=-(-1200 // 64))
store_entry("train.csv", "truth.json")
