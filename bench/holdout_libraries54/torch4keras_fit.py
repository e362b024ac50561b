"""torch4keras: a tiny MLP trained Keras-style, as its README does: a ``Trainer`` around the module (or a
``BaseModel`` subclass), ``compile(loss=..., optimizer=..., scheduler=..., metrics=[...])`` and ``fit(dataloader,
epochs=..., callbacks=[...])``. Its own ``KerasProgbar`` prints to stdout: ``2026-12-06 22:30:01 - Start  Epoch:
3/10``, the Keras-like bar (no TTY: each redraw on a line of its own, ``16/16 [==============================] -
0:00 2ms/step - loss: 0.4123 - acc: 0.8125``, 4 decimals, the loss smoothed over the last ``smooth_interval`` steps)
and ``2026-12-06 22:30:01 - Finish Epoch: 3/10 - loss: 0.3987 - acc: 0.8301`` (the epoch's mean); with
``progbar_type='tqdm'`` a tqdm bar (``\\r`` redraws) instead of the Keras one. An ``Evaluator`` subclass adds
``val_loss: 0.4012. best_val_loss: 0.4012`` after each epoch; its ``Logger`` callback writes ``train.t4k.log``.
Truth: the ``History`` that ``fit`` returns (``history.history['loss']`` at ``history.epoch``, 1-based)."""

from __future__ import annotations

import argparse
from importlib.metadata import version
from pathlib import Path

from h54_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--style", default="trainer", choices=["trainer", "basemodel"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=0.003)
ap.add_argument("--optim", default="adam", choices=["adam", "adamw", "sgd"])
ap.add_argument("--growth", type=float, default=1.0, help="ExponentialLR factor at each step (1: no scheduler)")
ap.add_argument("--warmup", type=int, default=0, help="linear warmup then linear decay (LambdaLR), in steps")
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--steps-per-epoch", type=int, default=None)
ap.add_argument("--grad-accum", type=int, default=1)
ap.add_argument("--clip", type=float, default=None)
ap.add_argument("--smooth", type=int, default=100, help="compile(smooth_interval=...)")
ap.add_argument("--bar", default="keras", choices=["keras", "tqdm"])
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--file-log", action="store_true", help="add its Logger callback (train.t4k.log)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402
from torch4keras.callbacks import Evaluator, Logger  # noqa: E402
from torch4keras.model import BaseModel, Trainer  # noqa: E402

torch.set_num_threads(1)
g = torch.Generator().manual_seed(0)
n_val = a.n // 4
x = torch.randn(a.n + n_val, 12, generator=g)
if a.task == "cls":
    w = torch.randn(12, 4, generator=g)
    y = (x @ w + 0.5 * torch.randn(len(x), 4, generator=g)).argmax(1)
    out: int = 4
    criterion: nn.Module = nn.CrossEntropyLoss()
else:
    w = torch.randn(12, 1, generator=g)
    y = torch.sin(x @ w) * 2 + x[:, :1] ** 2 + 0.1 * torch.randn(len(x), 1, generator=g)
    out, criterion = 1, nn.MSELoss()
train_loader = DataLoader(TensorDataset(x[: a.n], y[: a.n]), batch_size=a.batch, shuffle=True,
                          generator=torch.Generator().manual_seed(0))
valid = (x[a.n:], y[a.n:])


def mlp() -> nn.Module:
    return nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, out))


class MyModel(BaseModel):
    def __init__(self) -> None:
        super().__init__()
        self.net = mlp()

    def forward(self, inputs):
        return self.net(inputs)


if a.style == "basemodel":
    model: Trainer = MyModel()
    params = model.parameters()
else:
    net = mlp()
    model, params = Trainer(net), net.parameters()
opt_cls = {"adam": torch.optim.Adam, "adamw": torch.optim.AdamW, "sgd": torch.optim.SGD}[a.optim]
optimizer = opt_cls(params, lr=a.lr, **({"momentum": 0.9} if a.optim == "sgd" else {}))
steps = (a.steps_per_epoch or -(-a.n // a.batch) // a.grad_accum) * a.epochs
scheduler = None
if a.growth != 1.0:
    scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=a.growth)
elif a.warmup:
    def ramp(step: int) -> float:
        return step / a.warmup if step < a.warmup else max(0.0, (steps - step) / max(1, steps - a.warmup))
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, ramp)
model.compile(loss=criterion, optimizer=optimizer, scheduler=scheduler, metrics=["acc"] if a.task == "cls" else None,
              grad_accumulation_steps=a.grad_accum, clip_grad_norm=a.clip, progbar_type=a.bar,
              smooth_interval=a.smooth)


class ValidLoss(Evaluator):
    def evaluate(self):
        pred = model.predict(valid[0])
        return {"val_loss": criterion(pred, valid[1]).item()}


callbacks = [] if a.no_val else [ValidLoss(monitor="val_loss", min_max="min")]
if a.file_log:
    callbacks.append(Logger("train.t4k.log", interval=8))
history = model.fit(train_loader, steps_per_epoch=a.steps_per_epoch, epochs=a.epochs, callbacks=callbacks)

h = history.history
if a.file_log and Path("train.t4k.log").is_file():
    keep("train.t4k.log")
write_truth(framework=f"torch4keras {version('torch4keras')}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`Finish Epoch: 3/10 - loss: ...`)", tolerance=tol_decimals(4),
            record="the `History` returned by `fit` (`history.history['loss']` at `history.epoch`)",
            train_loss=list(zip(history.epoch, h["loss"], strict=True)),
            eval_loss=None if a.no_val else list(zip(history.epoch, h["val_loss"], strict=True)),
            eval_name=None if a.no_val else "val_loss (its Evaluator)")
