"""pytorchtrainer: a tiny torch MLP trained by its ``create_default_trainer`` as its README does, with its callbacks:
``CsvWriter`` after every iteration (its own ``log/train_<time>.csv``, ``;``-separated: ``epoch;iteration;train loss``
and, as its README adds, the last validation loss, or the rate without validation),
optionally ``ValidationCallback`` with a ``TorchLoss`` metric after every epoch and shown in the bar
(``add_progressbar_metric``), a running ``MetricCallback`` (``Accuracy`` / ``MeanAbsoluteError``), ``EarlyStopping``
on the validation loss, and a learning-rate schedule stepped by a post-epoch ``Callback``. pytorchtrainer prints the
model, then its own bar on stdout, rewritten with ``\\r`` every iteration (``epoch 2/8 |█████-----| 40.0% 4/10 | 0.00
s/it | 0:00:00 remaining | train loss 0.4031``, 4 decimals) and a newline when an epoch ends, and ``train time 0.52``.
Truth: its ``CsvWriter`` file (``train loss`` at every iteration), the step counted across epochs, 1-based: epoch
``e`` (1-based) and the bar's iteration ``i`` of ``n`` give ``(e - 1) * n + i`` (the file's own ``iteration`` column
is the bar's plus one)."""

from __future__ import annotations

import argparse
import csv
import glob
from importlib.metadata import version

from h95_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="sgd", choices=["adam", "sgd", "rmsprop", "adagrad"])
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--momentum", type=float, default=0.0)
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=256)
ap.add_argument("--hidden", type=int, default=32)
ap.add_argument("--gamma", type=float, default=1.0, help="the rate times gamma after each epoch (1: none)")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--metric", action="store_true", help="a running MetricCallback shown in the bar")
ap.add_argument("--patience", type=int, default=0, help="EarlyStopping on the validation loss (0: none)")
ap.add_argument("--scale", type=float, default=1.0, help="the targets' scale (reg)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pytorchtrainer as ptt  # noqa: E402
import torch  # noqa: E402
from pytorchtrainer.callback import Callback, CsvWriter, MetricCallback, ValidationCallback  # noqa: E402
from pytorchtrainer.metric import Accuracy, MeanAbsoluteError, TorchLoss  # noqa: E402
from pytorchtrainer.stop_condition import EarlyStopping, NoStopping  # noqa: E402

g = torch.Generator().manual_seed(0)
n_val = a.n // 4
X = torch.randn(a.n + n_val, 6, generator=g)
if a.task == "reg":
    w = torch.randn(6, 1, generator=g)
    y = a.scale * (torch.tanh(X @ w) + 0.3 * X[:, 1:2] * X[:, 2:3] + 0.1 * torch.randn(a.n + n_val, 1, generator=g))
    out = 1
    criterion: torch.nn.Module = torch.nn.MSELoss()
else:
    W = torch.randn(6, 3, generator=g)
    y = (X @ W + 0.5 * torch.randn(a.n + n_val, 3, generator=g)).argmax(1)
    out = 3
    criterion = torch.nn.CrossEntropyLoss()
train_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[: a.n], y[: a.n]), batch_size=a.batch,
                                           shuffle=True, generator=g)
val_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[a.n:], y[a.n:]), batch_size=128)
model = torch.nn.Sequential(torch.nn.Linear(6, a.hidden), torch.nn.ReLU(), torch.nn.Linear(a.hidden, out))
if a.optimizer == "sgd":
    optimizer: torch.optim.Optimizer = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=a.momentum)
else:
    optimizer = {"adam": torch.optim.Adam, "rmsprop": torch.optim.RMSprop,
                 "adagrad": torch.optim.Adagrad}[a.optimizer](model.parameters(), lr=a.lr)

trainer = ptt.create_default_trainer(model, optimizer, criterion, device=torch.device("cpu"), verbose=1)
shown: list = []
fmt: list[str] = []
if not a.no_val:
    validation = ValidationCallback(val_loader, TorchLoss(criterion))
    trainer.register_post_epoch_callback(validation, frequency=1)
    shown.append(validation)
    fmt.append("val loss %.4f")
if a.metric:
    running = MetricCallback(Accuracy(prediction_transform=lambda p: p.argmax(1)) if a.task == "cls"
                             else MeanAbsoluteError())
    trainer.register_post_iteration_callback(running, frequency=1)
    shown.append(running)
    fmt.append("accuracy %.4f" if a.task == "cls" else "mae %.4f")
if shown:
    trainer.add_progressbar_metric(" | ".join(fmt), shown)


class MultiplyRate(Callback):
    """The rate times ``gamma`` after each epoch (a user's schedule as a post-epoch callback)."""

    def __init__(self, gamma: float):
        super().__init__()
        self.scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=gamma)

    def __call__(self, trainer: ptt.ModuleTrainer) -> None:
        self.scheduler.step()


if a.gamma != 1.0:
    trainer.register_post_epoch_callback(MultiplyRate(a.gamma), frequency=1)
if a.no_val:  # the extra column the README's example adds: the validation loss, or else the rate
    extra, extra_data = ["lr"], lambda state: [optimizer.param_groups[0]["lr"]]
else:
    extra, extra_data = [shown[0].state_attribute_name], lambda state: [state.get(shown[0].state_attribute_name)]
# its own name: ``evaluate`` opens a default ``CsvWriter`` (``log/log_<time>.cvs``), which in the same second would
# truncate a writer left at the default name
writer = CsvWriter(save_directory="log", filename="train.csv", extra_header=extra, extra_data_function=extra_data)
trainer.register_post_iteration_callback(writer, frequency=1)
stop = (EarlyStopping(patience=a.patience, metric=lambda state: state.last_validation_loss)
        if a.patience and not a.no_val else NoStopping())
trainer.train(train_loader, max_epochs=a.epochs, stop_condition=stop)

n_it = len(train_loader)
with open(writer.log_file_path) as f:
    rows = list(csv.DictReader(f, delimiter=";"))
for own in glob.glob("log/train_*.csv"):
    keep(own)
write_truth(framework=f"pytorchtrainer {version('pytorchtrainer')}", settings=vars(a), loss_name="train loss",
            step_unit=f"iteration, 1-based, counted across epochs ({n_it} an epoch: `epoch 2/{a.epochs} ... "
                      f"3/{n_it}` is step {n_it + 3})",
            tolerance=tol_decimals(4),
            record="its `CsvWriter` file (`log/train_<time>.csv`, `train loss` after every iteration; its `epoch` "
                   "column 1-based, its `iteration` the bar's plus one)",
            train_loss=[((int(r["epoch"]) - 1) * n_it + int(r["iteration"]) - 1, r["train loss"]) for r in rows],
            iterations_per_epoch=n_it)
