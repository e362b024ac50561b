"""deepdow: a tiny portfolio network (``LinearNet``, ``MinimalNet`` or ``KeynesNet``) trained on synthetic
asset returns with deepdow's own loop, ``Run(...).launch(n_epochs)``, as its tutorials do: the train set given again
among the ``val_dataloaders`` (``{'train': ..., 'test': ...}``) so that its ``ValidationCallback`` records the loss
of every epoch in the run's ``History``, and its ``ProgressBarCallback`` (tqdm on stderr, no TTY) prints the batch
running means and, at each epoch's end, ``train_loss=0.01234`` (5 decimals). Optional benchmarks (``OneOverN``,
``InverseVolatility``, printed as a table by its ``BenchmarkCallback``) and extra metrics. Truth: the ``History``
(``run.history.metrics``: the ``loss`` metric on the ``train`` dataloader, the mean over its samples per epoch, the
value the bar prints), at deepdow's epoch numbering (0-based)."""

from __future__ import annotations

import argparse

from h88_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--net", default="linear", choices=["linear", "minimal", "keynes"])
ap.add_argument("--loss", default="std", choices=["std", "mdd", "sharpe", "meanret", "downside"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "rmsprop"])
ap.add_argument("--lr", type=float, default=1e-2)
ap.add_argument("--lr-growth", type=float, default=1.0, help="multiply the rate by this after every epoch")
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n-assets", type=int, default=8)
ap.add_argument("--lookback", type=int, default=20)
ap.add_argument("--no-test", action="store_true", help="no held-out test dataloader, only the train one")
ap.add_argument("--benchmarks", action="store_true")
ap.add_argument("--metrics", action="store_true", help="extra metrics besides the loss")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import torch  # noqa: E402
from deepdow.benchmarks import InverseVolatility, OneOverN  # noqa: E402
from deepdow.callbacks import Callback  # noqa: E402
from deepdow.data import InRAMDataset, RigidDataLoader  # noqa: E402
from deepdow.experiments import Run  # noqa: E402
from deepdow.losses import DownsideRisk, MaximumDrawdown, MeanReturns, SharpeRatio, StandardDeviation  # noqa: E402
from deepdow.nn import KeynesNet, LinearNet, MinimalNet  # noqa: E402

torch.set_num_threads(1)
rng = np.random.default_rng(0)
n_t, horizon = 700, 5
vols = np.linspace(0.01, 0.03, a.n_assets)
drift = np.linspace(0.0008, -0.0002, a.n_assets)
rets = np.zeros((n_t, a.n_assets))
for t in range(1, n_t):  # a little momentum, so there is something to learn from the lookback
    rets[t] = drift + 0.15 * rets[t - 1] + vols * rng.standard_normal(a.n_assets)
n_samples = n_t - a.lookback - horizon
X = np.stack([rets[i:i + a.lookback] for i in range(n_samples)])[:, None].astype("float32")
y = np.stack([rets[i + a.lookback:i + a.lookback + horizon] for i in range(n_samples)])[:, None].astype("float32")
dataset = InRAMDataset(X, y)
split = int(0.75 * n_samples)
train_ix, test_ix = list(range(split)), list(range(split + a.lookback, n_samples))
dl_train = RigidDataLoader(dataset, indices=train_ix, batch_size=a.batch)
val = {"train": RigidDataLoader(dataset, indices=train_ix, batch_size=a.batch)}
if not a.no_test:
    val["test"] = RigidDataLoader(dataset, indices=test_ix, batch_size=a.batch)

network: torch.nn.Module
if a.net == "linear":
    network = LinearNet(1, a.lookback, a.n_assets, p=0.2)
elif a.net == "minimal":
    network = MinimalNet(a.n_assets)
else:
    network = KeynesNet(1, hidden_size=8, transform_type="Conv", n_groups=2)
losses = {"std": StandardDeviation(), "mdd": MaximumDrawdown(), "sharpe": SharpeRatio(), "meanret": MeanReturns(),
          "downside": DownsideRisk()}
loss = losses[a.loss]
opt_cls = {"adam": torch.optim.Adam, "sgd": torch.optim.SGD, "rmsprop": torch.optim.RMSprop}[a.optimizer]
optimizer = opt_cls(network.parameters(), lr=a.lr)


class LRGrowth(Callback):
    """Multiply the learning rate by ``--lr-growth`` after every epoch (a torch scheduler stepped per epoch)."""

    def __init__(self) -> None:
        self.sched = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=a.lr_growth)

    def on_epoch_end(self, metadata: dict) -> None:
        self.sched.step()


run = Run(network, loss, dl_train, val_dataloaders=val,
          metrics={"sharpe": SharpeRatio(), "mdd": MaximumDrawdown()} if a.metrics else None,
          benchmarks={"1overN": OneOverN(), "invvol": InverseVolatility()} if a.benchmarks else None,
          optimizer=optimizer, callbacks=[LRGrowth()] if a.lr_growth != 1.0 else None)
history = run.launch(a.epochs)

df = history.metrics
net = df[df["model"] == "network"]
per_epoch = net.groupby(["dataloader", "metric", "epoch"])["value"].mean()
train = per_epoch.loc[("train", "loss")]
test = per_epoch.loc[("test", "loss")] if not a.no_test else None
write_truth(framework="deepdow 0.2.3", settings=vars(a), loss_name=f"loss ({type(loss).__name__})",
            step_unit="epoch, 0-based (tqdm's `Epoch 0`)", tolerance=tol_decimals(5),
            record="the run's `History` (`run.history.metrics`: metric `loss` on dataloader `train`, mean per epoch)",
            train_loss=list(train.items()),
            eval_loss=list(test.items()) if test is not None else None,
            eval_name="test_loss" if test is not None else None)
