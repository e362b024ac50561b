"""neuromancer: a ``Problem`` of one ``Node`` (a ``blocks.MLP``) fitted to synthetic data with its ``Trainer``, as its
tutorials do (``DictDataset``, ``variable``, ``PenaltyLoss``, ``Problem``, ``Trainer(...).train()``). Without a logger
the Trainer prints ``epoch: 3  train_loss: 0.04260946065187454`` every ``epoch_verbose`` epochs
(the epoch's mean loss, at full precision); with its ``LossLogger`` (``--logger``) the logger prints
``epoch: 10\tmean_train_loss: 0.12345\tmean_dev_loss: 0.13456\teltime:  0.04321`` every ``verbosity`` epochs.
Truth: without a logger, the ``mean_train_loss`` the Trainer hands its ``Callback.begin_epoch`` (a callback of the
library's own, recording it); with one, ``LossLogger.get_losses()['train']`` at the epochs it prints. Epochs are
0-based. The logger's saved models (``best_model*.pth``) are not kept."""

from __future__ import annotations

import argparse

import torch
from h23_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=30)
ap.add_argument("--verbose", type=int, default=1, help="epoch_verbose (no logger) / verbosity (logger)")
ap.add_argument("--logger", action="store_true")
ap.add_argument("--dev", action="store_true")
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "adamw"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--hidden", type=int, default=32)
ap.add_argument("--patience", type=int, default=1000)
ap.add_argument("--clip", type=float, default=100.0, help="the Trainer's gradient-norm clip")
ap.add_argument("--momentum", type=float, default=0.0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

from neuromancer.callbacks import Callback  # noqa: E402
from neuromancer.constraint import variable  # noqa: E402
from neuromancer.dataset import DictDataset  # noqa: E402
from neuromancer.loggers import LossLogger  # noqa: E402
from neuromancer.loss import PenaltyLoss  # noqa: E402
from neuromancer.modules import blocks  # noqa: E402
from neuromancer.problem import Problem  # noqa: E402
from neuromancer.system import Node  # noqa: E402
from neuromancer.trainer import Trainer  # noqa: E402

g = torch.Generator().manual_seed(0)


def data(n: int, name: str) -> DictDataset:
    x = torch.rand(n, 3, generator=g) * 4 - 2
    y = torch.sin(x[:, :1]) * x[:, 1:2] + 0.5 * x[:, 2:3] ** 2 + 0.05 * torch.randn(n, 1, generator=g)
    return DictDataset({"x": x, "y": y}, name=name)


train = data(a.n, "train")
train_loader = torch.utils.data.DataLoader(train, batch_size=a.batch, collate_fn=train.collate_fn, shuffle=True,
                                           generator=torch.Generator().manual_seed(1))
dev_loader = None
if a.dev:
    dev = data(a.n // 4, "dev")
    dev_loader = torch.utils.data.DataLoader(dev, batch_size=a.batch, collate_fn=dev.collate_fn)

net = blocks.MLP(3, 1, bias=True, linear_map=torch.nn.Linear, nonlin=torch.nn.ReLU, hsizes=[a.hidden, a.hidden])
node = Node(net, ["x"], ["yhat"], name="regressor")
yhat, y = variable("yhat"), variable("y")
objective = (yhat == y) ^ 2
objective.name = "fit"
problem = Problem([node], PenaltyLoss([objective], []))
opt = {"adam": torch.optim.Adam, "sgd": torch.optim.SGD, "adamw": torch.optim.AdamW}[a.optimizer]
optimizer = opt(problem.parameters(), lr=a.lr, **({"momentum": a.momentum} if a.optimizer == "sgd" else {}))


class Record(Callback):
    """The epoch's mean train loss the Trainer hands its callbacks."""

    def __init__(self):
        super().__init__()
        self.series = []

    def begin_epoch(self, trainer, output):
        self.series.append((trainer_epoch[0], output["mean_train_loss"].item()))
        trainer_epoch[0] += 1


trainer_epoch = [0]
record = Record()
logger = LossLogger(savedir="neuromancer_run", verbosity=a.verbose,
                    stdout=("mean_train_loss", "mean_dev_loss")) if a.logger else None
trainer = Trainer(problem, train_loader, dev_loader, optimizer=optimizer, logger=logger, callback=record,
                  epochs=a.epochs, epoch_verbose=a.verbose, patience=a.patience, clip=a.clip,
                  eval_metric="dev_loss" if a.dev else "train_loss", train_metric="train_loss",
                  dev_metric="dev_loss")
trainer.train()

common = dict(framework=f"neuromancer {version('neuromancer')}", settings=vars(a), step_unit="epoch, 0-based")
if logger is not None:
    losses = logger.get_losses()
    steps = list(range(0, a.epochs, a.verbose))
    write_truth(**common, loss_name="mean_train_loss", tolerance=tol_decimals(5),
                record="its `LossLogger.get_losses()['train']` (the `mean_train_loss` values it prints)",
                train_loss=list(zip(steps, losses["train"], strict=True)),
                **({"eval_loss": list(zip(steps, losses["dev"], strict=True)), "eval_name": "mean_dev_loss"}
                   if a.dev else {}))
else:
    shown = [(s, v) for s, v in record.series if s % a.verbose == 0]
    write_truth(**common, loss_name="train_loss", tolerance={"rel": 1e-7, "abs": 0.0},
                record="the `mean_train_loss` its Trainer hands `Callback.begin_epoch` (printed at full "
                       "precision)",
                train_loss=shown)
