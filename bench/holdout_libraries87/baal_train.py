"""baal: a tiny torch MLP (dropout layers, as baal's MC-dropout wants) wrapped by ``baal.ModelWrapper`` with a
``TrainingArgs`` (optimizer, criterion, batch size, epochs) and trained the ways its docs show:
``train_and_test_on_datasets`` (each of its ``epoch`` rounds calls ``train_on_dataset``, itself ``epoch`` epochs
long, then ``test_on_dataset``; optional early stopping by ``patience``), a user's loop of ``train_on_dataset`` with
``epoch=1`` (and ``test_on_dataset``, a torch scheduler stepped each epoch), or an ``ActiveLearningExperiment`` (MC
dropout by ``patch_module``, BALD, labelling ``query_size`` items a round). baal prints its own structlog lines on
stdout (``[pid-MainThread] [baal.modelwrapper:train_on_dataset:99] 2026-...Z [info     ] Training complete
train_loss=0.6188437938690186``, ANSI colours, Python's ``repr`` of the float); no epoch number is printed. Truth:
baal's own record, the training history ``train_and_test_on_datasets`` / ``ActiveLearningExperiment.start``
returns (``train_loss`` a round) or the per-epoch history each ``train_on_dataset`` returns, at the n-th
``Training complete`` line (1-based)."""

from __future__ import annotations

import argparse
from importlib.metadata import version

from h87_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--mode", default="tt", choices=["tt", "loop", "al"])
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam"])
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--gamma", type=float, default=1.0, help="loop mode: ExponentialLR factor an epoch")
ap.add_argument("--epochs", type=int, default=6, help="TrainingArgs.epoch (tt, al) or the loop's epochs")
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=240)
ap.add_argument("--no-test", action="store_true", help="loop mode: no test_on_dataset")
ap.add_argument("--patience", type=int, default=None)
ap.add_argument("--rounds", type=int, default=7, help="al mode: labelling rounds")
ap.add_argument("--query", type=int, default=20)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from baal.modelwrapper import ModelWrapper, TrainingArgs  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils.data import TensorDataset  # noqa: E402

g = torch.Generator().manual_seed(0)
n_test = a.n // 4
X = torch.randn(a.n + n_test, 10, generator=g)
if a.task == "cls":
    W = torch.randn(10, 3, generator=g)
    y = (X @ W + 0.5 * torch.randn(a.n + n_test, 3, generator=g)).argmax(1)
    out = 3
    criterion: nn.Module = nn.CrossEntropyLoss()
else:
    w = torch.randn(10, 1, generator=g)
    y = torch.sin(X @ w) * 3 + X[:, :1] ** 2 + 0.1 * torch.randn(a.n + n_test, 1, generator=g)
    out = 1
    criterion = nn.MSELoss()
train_ds, test_ds = TensorDataset(X[: a.n], y[: a.n]), TensorDataset(X[a.n:], y[a.n:])
model: nn.Module = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 64), nn.ReLU(),
                                 nn.Dropout(0.2), nn.Linear(64, out))
if a.mode == "al":
    from baal.bayesian.dropout import patch_module
    model = patch_module(model)
opt: torch.optim.Optimizer
if a.optimizer == "adam":
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
else:
    opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
args = TrainingArgs(optimizer=opt, criterion=criterion, batch_size=a.batch, epoch=1 if a.mode == "loop" else a.epochs,
                    use_cuda=False, workers=0)
wrapper = ModelWrapper(model, args)
train: list[float] = []
test: list[float] = []
if a.mode == "tt":
    hist = wrapper.train_and_test_on_datasets(train_ds, test_ds, patience=a.patience)
    train = [h["train_loss"] for h in hist]
    test = [h["test_loss"] for h in hist if "test_loss" in h]
elif a.mode == "loop":
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.gamma)
    for _epoch in range(a.epochs):
        train += wrapper.train_on_dataset(train_ds)
        if not a.no_test:
            test.append(wrapper.test_on_dataset(test_ds))
        sched.step()
else:
    from baal import ActiveLearningDataset
    from baal.active.heuristics import BALD
    from baal.active.stopping_criteria import LabellingBudgetStoppingCriterion
    from baal.experiments.base import ActiveLearningExperiment

    al_ds = ActiveLearningDataset(train_ds, random_state=0)
    al_ds.label_randomly(a.query * 2)
    experiment = ActiveLearningExperiment(
        trainer=wrapper, al_dataset=al_ds, eval_dataset=test_ds, heuristic=BALD(), query_size=a.query,
        iterations=8, criterion=LabellingBudgetStoppingCriterion(al_ds, labelling_budget=a.query * (a.rounds - 1)))
    records = experiment.start()
    train = [r["train_loss"] for r in records]
    test = [r["test_loss"] for r in records]

write_truth(framework=f"baal {version('baal')}",
            settings=vars(a), loss_name="train_loss",
            step_unit="the n-th `Training complete` line (1-based): an epoch (loop), a round of `epoch` epochs "
                      "(train_and_test_on_datasets) or a labelling round (active learning)",
            tolerance=tol_sig(8),
            record="baal's own training history: the list of `get_metrics()` dicts train_and_test_on_datasets / "
                   "ActiveLearningExperiment.start returns (`train_loss`), or the per-epoch list each "
                   "train_on_dataset returns",
            train_loss=list(enumerate(train, 1)),
            eval_loss=list(enumerate(test, 1)) if test else None, eval_name="test_loss" if test else None)
