"""torchfitter: a tiny torch MLP trained by ``torchfitter.trainer.Trainer.fit(train_loader, val_loader, epochs)``
(accelerate underneath) with its own callbacks as its README shows: ``LoggerCallback(update_step, precision)`` (the
library's logger: ``Epoch 3/20 | Train loss: 4.51e-01 | Validation loss 5.42e-01 | Time/epoch: 1.08e-02 s`` on
stderr, at epoch 1 and every ``update_step`` epochs), ``RichProgressBar(display_step, log_lr)`` (a rich bar per shown
epoch on stdout and a ``loss -> Train: 5.10e-01 | Validation: 5.68e-01`` line on the logger), optionally
``EarlyStopping``, ``LearningRateScheduler`` around a torch scheduler and torchmetrics metrics. Truth: the history
``fit`` returns (``epoch_history['loss']['train']``, the epoch's mean batch loss) at the epochs the callbacks print
(1-based)."""

from __future__ import annotations

import argparse

from h83_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "rmsprop", "adamw"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--logger-step", type=int, default=1, help="LoggerCallback(update_step); 0: no LoggerCallback")
ap.add_argument("--bar-step", type=int, default=0, help="RichProgressBar(display_step); 0: no progress bar")
ap.add_argument("--log-lr", action="store_true", help="RichProgressBar(log_lr=True)")
ap.add_argument("--precision", type=int, default=2)
ap.add_argument("--gamma", type=float, default=0.0, help="LearningRateScheduler(ExponentialLR(gamma)); 0: none")
ap.add_argument("--plateau", action="store_true", help="LearningRateScheduler(ReduceLROnPlateau) on the val loss")
ap.add_argument("--early-stop", type=int, default=0, help="EarlyStopping(patience); 0: none")
ap.add_argument("--metric", action="store_true", help="a torchmetrics metric beside the loss")
ap.add_argument("--clip", action="store_true", help="gradient_clipping='norm'")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
import torchfitter  # noqa: E402
import torchmetrics  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402
from torchfitter.callbacks import EarlyStopping, LearningRateScheduler, LoggerCallback, RichProgressBar  # noqa: E402
from torchfitter.trainer import Trainer  # noqa: E402

g = torch.Generator().manual_seed(0)
n_val = a.n // 4
X = torch.randn(a.n + n_val, 8, generator=g)
W = torch.randn(8, 3, generator=g)
metrics: list[torchmetrics.Metric] = []
criterion: nn.Module
if a.task == "reg":
    y = torch.sin(X @ W[:, :1]) * 2 + X[:, 1:2] ** 2 + 0.1 * torch.randn(a.n + n_val, 1, generator=g)
    out, criterion = 1, nn.MSELoss()
    if a.metric:
        metrics.append(torchmetrics.MeanAbsoluteError())
else:
    y = (X @ W + 0.5 * torch.randn(a.n + n_val, 3, generator=g)).argmax(1)
    out, criterion = 3, nn.CrossEntropyLoss()
    if a.metric:
        metrics.append(torchmetrics.Accuracy(task="multiclass", num_classes=3))
train = DataLoader(TensorDataset(X[: a.n], y[: a.n]), batch_size=a.batch, shuffle=True, generator=g)
val = DataLoader(TensorDataset(X[a.n:], y[a.n:]), batch_size=64)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, out))
optimizers = {"adam": torch.optim.Adam, "sgd": torch.optim.SGD, "rmsprop": torch.optim.RMSprop,
              "adamw": torch.optim.AdamW}
optimizer = optimizers[a.optimizer](model.parameters(), lr=a.lr)

callbacks: list = []
if a.logger_step:
    callbacks.append(LoggerCallback(update_step=a.logger_step, precision=a.precision))
if a.bar_step:
    callbacks.append(RichProgressBar(display_step=a.bar_step, log_lr=a.log_lr, precision=a.precision))
if a.gamma:
    sched = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=a.gamma)
    callbacks.append(LearningRateScheduler(scheduler=sched, metric=None))
if a.plateau:
    plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=2)
    callbacks.append(LearningRateScheduler(scheduler=plateau, on_train=False))
if a.early_stop:
    callbacks.append(EarlyStopping(patience=a.early_stop, load_best=True))
trainer = Trainer(model=model, criterion=criterion, optimizer=optimizer, callbacks=callbacks,
                  metrics=metrics or None, gradient_clipping="norm" if a.clip else None,
                  gradient_clipping_kwargs={"max_norm": 1.0} if a.clip else None)
history = trainer.fit(train, val, epochs=a.epochs)

hist = history["epoch_history"]["loss"]


def shown(epoch: int) -> bool:
    """Whether a callback printed the epoch's losses (each prints at epoch 1 and every ``step`` epochs)."""
    return any(s and (epoch % s == 0 or epoch == 1) for s in (a.logger_step, a.bar_step))


write_truth(framework=f"torchfitter {torchfitter.__version__}", settings=vars(a), loss_name="Train loss",
            step_unit="epoch, 1-based (`Epoch 3/20`)", tolerance=tol_sig(a.precision + 1),
            record="the history `Trainer.fit` returns (`epoch_history['loss']['train']`), at the epochs printed",
            train_loss=[(e, v) for e, v in enumerate(hist["train"], 1) if shown(e)],
            eval_loss=[(e, v) for e, v in enumerate(hist["validation"], 1) if shown(e)],
            eval_name="Validation loss")
