"""deep-trainer: a tiny torch MLP trained by its ``PytorchTrainer`` as its README does (``trainer.train(epochs,
train_loader, criterion, val_loader)``), with its optional metrics (``Accuracy`` / ``Error`` in a
``MetricsHandler``), an optional scheduler stepped every training step (``StepLR``/``OneCycleLR``) and its default
TensorBoard logger next to an in-memory ``DictLogger`` (a ``MultiLogger``). deep-trainer prints ``Epoch 3/10``, a tqdm
bar on stdout (no TTY: ``\\r`` updates, ``Training --- Loss:  0.4031``) and per epoch ``Avg Train Metrics --- Loss:
0.4031`` (4 significant digits), then ``Avg Eval Metrics  --- ...`` with validation. Truth: its own record,
``A_train_aggregate/Loss`` as the ``DictLogger`` holds it (logged at the end of each epoch; the step here is the
epoch, 1-based, as ``Epoch 3/10`` prints it; the logger's own step is that epoch's last training step)."""

from __future__ import annotations

import argparse
import glob
from importlib.metadata import version

from h95_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "adamw", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--hidden", type=int, default=32)
ap.add_argument("--schedule", default="none", choices=["none", "step", "onecycle"])
ap.add_argument("--gamma", type=float, default=0.5, help="StepLR's factor each epoch")
ap.add_argument("--metrics", action="store_true", help="a MetricsHandler with Accuracy/Error (cls)")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--epoch-size", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from deep_trainer import PytorchTrainer, metric  # noqa: E402
from deep_trainer import logging as dt_logging  # noqa: E402

g = torch.Generator().manual_seed(0)
n_val = a.n // 4
X = torch.randn(a.n + n_val, 8, generator=g)
if a.task == "reg":
    w = torch.randn(8, 1, generator=g)
    y = torch.sin(X @ w) * 2 + 0.5 * X[:, :1] ** 2 + 0.1 * torch.randn(a.n + n_val, 1, generator=g)
    out = 1
    criterion: torch.nn.Module = torch.nn.MSELoss()
else:
    W = torch.randn(8, 4, generator=g)
    y = (X @ W + 0.5 * torch.randn(a.n + n_val, 4, generator=g)).argmax(1)
    out = 4
    criterion = torch.nn.CrossEntropyLoss()
train = torch.utils.data.TensorDataset(X[: a.n], y[: a.n])
val = torch.utils.data.TensorDataset(X[a.n:], y[a.n:])
train_loader = torch.utils.data.DataLoader(train, batch_size=a.batch, shuffle=True, generator=g)
val_loader = torch.utils.data.DataLoader(val, batch_size=256)
model = torch.nn.Sequential(torch.nn.Linear(8, a.hidden), torch.nn.ReLU(), torch.nn.Linear(a.hidden, a.hidden),
                            torch.nn.ReLU(), torch.nn.Linear(a.hidden, out))
opts = {"adam": torch.optim.Adam, "sgd": torch.optim.SGD, "adamw": torch.optim.AdamW, "rmsprop": torch.optim.RMSprop}
optimizer = opts[a.optimizer](model.parameters(), lr=a.lr)
steps_per_epoch = a.epoch_size or len(train_loader)
scheduler: torch.optim.lr_scheduler.LRScheduler | None = None
if a.schedule == "step":  # stepped every training step: the rate times gamma each epoch
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=steps_per_epoch, gamma=a.gamma)
elif a.schedule == "onecycle":
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=a.lr, total_steps=steps_per_epoch * a.epochs)
handler = None
if a.metrics and a.task == "cls":
    handler = metric.MetricsHandler([metric.Accuracy(), metric.Error()])
memory = dt_logging.DictLogger()
logger = dt_logging.MultiLogger([dt_logging.TensorBoardLogger("experiments/logs"), memory])
trainer = PytorchTrainer(model, optimizer, scheduler=scheduler, metrics_handler=handler, device=torch.device("cpu"),
                         logger=logger, output_dir="experiments", save_mode="never")
trainer.train(a.epochs, train_loader, criterion, val_loader=None if a.no_val else val_loader,
              epoch_size=a.epoch_size)

steps, vals = memory.logs["A_train_aggregate/Loss"]
per_epoch = {s: i for i, s in enumerate(steps, 1)}
ev = memory.logs.get("B_val/Loss")
for f in glob.glob("experiments/logs/events.out.tfevents.*"):
    keep(f)
write_truth(framework=f"deep-trainer {version('deep-trainer')}", settings=vars(a), loss_name="Loss",
            step_unit="epoch, 1-based (`Epoch 3/8`; the logger's own step is that epoch's last training step)",
            tolerance=tol_sig(4),
            record="its `DictLogger` (`A_train_aggregate/Loss`, logged at each epoch's end), beside its TensorBoard "
                   "events",
            train_loss=[(per_epoch[s], v) for s, v in zip(steps, vals, strict=True)],
            eval_loss=None if ev is None else [(per_epoch[s], v) for s, v in zip(*ev, strict=True)],
            eval_name=None if ev is None else "B_val/Loss",
            logger_steps=list(steps))
