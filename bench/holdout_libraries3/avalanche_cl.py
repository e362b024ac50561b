"""Avalanche (continual learning): a ``Naive`` strategy trained on the experiences of a synthetic
class-incremental benchmark, with an ``EvaluationPlugin`` of epoch/minibatch loss and accuracy and the loggers a
user picks: ``InteractiveLogger`` (stdout: ``Epoch 3 ended.`` then ``\\tLoss_Epoch/train_phase/train_stream/Task000
= 0.4312``, a tqdm bar per epoch), ``TextLogger`` (the same records, no bar) and ``CSVLogger``
(``training_results.csv``: training_exp, epoch, training_accuracy, val_accuracy, training_loss, val_loss).
Truth: the ``Loss_Epoch/train_phase/train_stream/Task000`` values from the evaluation plugin's
``get_all_metrics()`` (the record every logger prints from), one per training epoch; steps: the epochs counted over
the experiences, 0-based (experience x epochs + the printed per-experience epoch)."""

from __future__ import annotations

import argparse
import os

import torch
from h3_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--experiences", type=int, default=1)
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--opt", default="sgd")
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma per epoch (LRSchedulerPlugin)")
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--logger", default="interactive", choices=["interactive", "text", "csv+interactive"])
ap.add_argument("--minibatch", action="store_true", help="also the minibatch loss metric")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from avalanche.benchmarks.scenarios.supervised import class_incremental_benchmark  # noqa: E402
from avalanche.benchmarks.utils import as_classification_dataset  # noqa: E402
from avalanche.evaluation.metrics import accuracy_metrics, loss_metrics  # noqa: E402
from avalanche.logging import CSVLogger, InteractiveLogger, TextLogger  # noqa: E402
from avalanche.training.plugins import EvaluationPlugin, LRSchedulerPlugin  # noqa: E402
from avalanche.training.supervised import Naive  # noqa: E402
from torch.utils.data import TensorDataset  # noqa: E402

n_cls, d = 4, 16
centers = torch.randn(n_cls, d) * 1.5


def make(n):
    y = torch.randint(0, n_cls, (n,))
    x = centers[y] + torch.randn(n, d)
    ds = TensorDataset(x, y)
    ds.targets = y.tolist()
    return as_classification_dataset(ds)


bm = class_incremental_benchmark({"train": make(1200), "test": make(400)}, num_experiences=a.experiences,
                                 class_order=list(range(n_cls)))
model = torch.nn.Sequential(torch.nn.Linear(d, 32), torch.nn.ReLU(), torch.nn.Linear(32, n_cls))
opt = (torch.optim.SGD if a.opt == "sgd" else torch.optim.Adam)(model.parameters(), lr=a.lr)
loggers = {"interactive": [InteractiveLogger()], "text": [TextLogger()],
           "csv+interactive": [InteractiveLogger(), CSVLogger("csvlogs")]}[a.logger]
evaluator = EvaluationPlugin(loss_metrics(epoch=True, experience=True, minibatch=a.minibatch),
                             accuracy_metrics(epoch=True, experience=True), loggers=loggers)
strategy = Naive(model=model, optimizer=opt, criterion=torch.nn.CrossEntropyLoss(), train_mb_size=a.batch,
                 train_epochs=a.epochs, eval_mb_size=128, evaluator=evaluator, device="cpu",
                 plugins=[LRSchedulerPlugin(torch.optim.lr_scheduler.ExponentialLR(opt, a.gamma))] if a.gamma else None)
for i, exp in enumerate(bm.train_stream):
    strategy.train(exp)
    strategy.eval(bm.test_stream[: i + 1])

metrics = evaluator.get_all_metrics()
key = next(k for k in metrics if k.startswith("Loss_Epoch/train_phase/train_stream"))
_, vals = metrics[key]
train = list(enumerate(vals))
if os.path.isdir("csvlogs"):
    keep("csvlogs")
write_truth(framework="avalanche-lib", settings=vars(a), loss_name=key,
            step_unit="training epoch over the experiences, 0-based (experience x epochs + the printed 'Epoch N')",
            tolerance=tol_decimals(4), record=f"EvaluationPlugin.get_all_metrics()['{key}']",
            train_loss=train, epochs_per_experience=a.epochs)
