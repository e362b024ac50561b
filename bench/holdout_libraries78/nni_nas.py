"""NNI (Neural Network Intelligence): a one-shot neural architecture search over a tiny model space (two cells, each
a ``LayerChoice`` of small blocks) on synthetic tabular data (no download), as its NAS tutorials run one:
``NasExperiment(model_space, evaluator, strategy).run()`` with NNI's ``Classification`` or ``Regression`` evaluator
(a Lightning module NNI builds, logging ``train_loss`` to the progress bar) and a one-shot strategy (``DARTS``,
``GumbelDARTS``, ``RandomOneShot``, ``Proxyless``). NNI prints its own colored log lines
(``[2026-12-07 10:59:25] Strategy is found to be a one-shot strategy...``), Lightning its model summary and the
tqdm bar on stderr (``Epoch 3:  50%|...| 4/8 [...] v_num=0, train_loss=0.987, train_acc=0.594]``, 3 significant
digits).
Truth: Lightning's TensorBoard event file (``lightning_logs/version_0/events.out.tfevents.*``, its default logger
when TensorBoard is installed), read back with TensorBoard's ``EventAccumulator``: ``train_loss`` at its step (the
batch counted across epochs, 0-based), every ``log_every_n_steps``."""

from __future__ import annotations

import argparse
from pathlib import Path

from h78_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--strategy", default="darts", choices=["darts", "gumbel", "random", "proxyless"])
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "adamw", "sgd"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--weight-decay", type=float, default=0.0)
ap.add_argument("--epochs", type=int, default=5)
ap.add_argument("--batch", type=int, default=64)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--log-every", type=int, default=1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import torch  # noqa: E402
from nni.nas.evaluator.pytorch import Classification, DataLoader, Regression  # noqa: E402
from nni.nas.experiment import NasExperiment  # noqa: E402
from nni.nas.nn.pytorch import LayerChoice, ModelSpace  # noqa: E402
from nni.nas.strategy import DARTS, GumbelDARTS, Proxyless, RandomOneShot  # noqa: E402
from torch import nn  # noqa: E402

torch.set_num_threads(1)
rng = np.random.default_rng(0)
n_all = a.n + a.n // 4
X = rng.normal(size=(n_all, 10)).astype("float32")
if a.task == "cls":
    W = rng.normal(size=(10, 3))
    y = torch.tensor((X @ W + 0.5 * rng.normal(size=(n_all, 3))).argmax(1))
    out = 3
else:
    w = rng.normal(size=(10, 1))
    target = np.tanh(X @ w / 3) * 3 + 0.5 * X[:, :1] ** 2 + 0.1 * rng.normal(size=(n_all, 1))
    y = torch.tensor(target.astype("float32"))
    out = 1
Xt = torch.tensor(X)
train = torch.utils.data.TensorDataset(Xt[: a.n], y[: a.n])
val = torch.utils.data.TensorDataset(Xt[a.n:], y[a.n:])


class TinySpace(ModelSpace):
    """Two cells, each a choice of block; then a linear head."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Linear(10, 32)
        self.cell1 = LayerChoice([nn.Sequential(nn.Linear(32, 32), nn.ReLU()),
                                  nn.Sequential(nn.Linear(32, 32), nn.Tanh()),
                                  nn.Identity()], label="cell1")
        self.cell2 = LayerChoice([nn.Sequential(nn.Linear(32, 32), nn.ReLU()),
                                  nn.Sequential(nn.Linear(32, 32), nn.Sigmoid()),
                                  nn.Identity()], label="cell2")
        self.head = nn.Linear(32, out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.cell2(self.cell1(torch.relu(self.stem(x)))))


optim = {"adam": torch.optim.Adam, "adamw": torch.optim.AdamW, "sgd": torch.optim.SGD}[a.optimizer]
# one-shot strategies want both (the validation batches drive the architecture's weights)
loaders = {"train_dataloaders": DataLoader(train, batch_size=a.batch, shuffle=True),
           "val_dataloaders": DataLoader(val, batch_size=a.batch)}
common = {"learning_rate": a.lr, "weight_decay": a.weight_decay, "optimizer": optim, "max_epochs": a.epochs,
          "log_every_n_steps": a.log_every, **loaders}
evaluator = (Classification(num_classes=3, **common) if a.task == "cls" else Regression(**common))
strategy = {"darts": DARTS, "gumbel": GumbelDARTS, "random": RandomOneShot, "proxyless": Proxyless}[a.strategy]()
exp = NasExperiment(TinySpace(), evaluator, strategy)
exp.config.experiment_working_directory = str(Path("nni-experiments").resolve())
exp.run()
print(exp.export_top_models(formatter="dict"))

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

events = sorted(Path("lightning_logs/version_0").glob("events.out.tfevents.*"))
acc = EventAccumulator(str(events[0]))
acc.Reload()
rows = [(e.step, e.value) for e in acc.Scalars("train_loss")]
keep(events[0], "events.out.tfevents")
for log in Path("nni-experiments").glob("*/log/experiment.log"):
    keep(log)
import nni  # noqa: E402

write_truth(framework=f"nni {nni.__version__}", settings=vars(a), loss_name="train_loss",
            step_unit="Lightning's logging step: the batch counted across epochs, 0-based (the bar shows "
                      "`Epoch 2: ... 3/8`, the batch 1-based within its epoch)",
            tolerance=tol_sig(3),
            record="Lightning's TensorBoard event file (`lightning_logs/version_0/events.out.tfevents.*`, the default "
                   "logger: `train_loss` scalars at their step, read back with TensorBoard's `EventAccumulator`)",
            train_loss=rows,
            steps_per_epoch=-(-a.n // a.batch))
