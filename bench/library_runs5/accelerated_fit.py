"""pytorch-accelerated 0.1: its ``Trainer`` fitting a small MLP on a synthetic regression or classification set.

With its default callbacks the trainer prints ``Starting training run``, ``Starting epoch N`` and a tqdm bar per
epoch (``ProgressBarCallback``), and at each epoch's end its metrics, one a line (``LogMetricsCallback``:
``train_loss_epoch: 0.123``, ``eval_loss_epoch: ...``); ``TerminateOnNaNCallback`` ends a run whose loss is not
finite. Its docs show a user's own callback for more: here one printing the running loss every ``--every`` steps
(``on_train_step_end``), or the default bars left out. Truth: ``trainer.run_history``'s ``train_loss_epoch`` at
its epoch (1-based, the trainer's count), or the callback's step losses.
"""

from __future__ import annotations

import argparse

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="regression", choices=["regression", "classification"])
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--optim", default="adam", choices=["adam", "sgd"])
ap.add_argument("--sched", default="none", choices=["none", "growing"])
ap.add_argument("--callbacks", default="default", choices=["default", "nobar", "steps"])
ap.add_argument("--every", type=int, default=10)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from pytorch_accelerated import Trainer  # noqa: E402
from pytorch_accelerated.callbacks import ProgressBarCallback, TrainerCallback  # noqa: E402
from pytorch_accelerated.trainer import DEFAULT_CALLBACKS  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils.data import TensorDataset  # noqa: E402

torch.set_num_threads(1)
g = torch.Generator().manual_seed(0)
n, d = 2048, 16
X = torch.randn(n, d, generator=g)
w = torch.randn(d, 1, generator=g)
if a.task == "regression":
    y = X @ w + 0.3 * torch.randn(n, 1, generator=g)
    loss_func, out = nn.MSELoss(), 1
else:
    y = ((X @ w).squeeze(1) > 0).long() + ((X[:, 0] > 1).long())
    loss_func, out = nn.CrossEntropyLoss(), 3
train, val = TensorDataset(X[:1536], y[:1536]), TensorDataset(X[1536:], y[1536:])
model = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, out))
opt = (torch.optim.Adam(model.parameters(), lr=a.lr) if a.optim == "adam"
       else torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9))

steps: list[list[float]] = []


class PrintLossCallback(TrainerCallback):
    """A user's callback (the docs' pattern): the batch loss every ``--every`` optimizer steps."""

    def __init__(self):
        self.n = 0

    def on_train_step_end(self, trainer, step, batch_output, batch, **kwargs):
        self.n += 1
        if self.n % a.every == 0:
            v = batch_output["loss"].item()
            steps.append([self.n, v])
            trainer.print(f"step {self.n}: loss={v:.6f}")


callbacks = list(DEFAULT_CALLBACKS)
if a.callbacks == "nobar":
    callbacks = [c for c in callbacks if c is not ProgressBarCallback]
elif a.callbacks == "steps":
    callbacks.append(PrintLossCallback)

trainer = Trainer(model=model, loss_func=loss_func, optimizer=opt, callbacks=callbacks)
kw = {}
if a.sched == "growing":
    # a schedule bug: StepLR's gamma written > 1 (3.0 where 0.3 was meant); the trainer steps it every batch, so the
    # rate triples every 24 steps
    kw["create_scheduler_fn"] = lambda optimizer: torch.optim.lr_scheduler.StepLR(optimizer, step_size=24, gamma=3.0)
try:
    trainer.train(train_dataset=train, eval_dataset=val, num_epochs=a.epochs, per_device_batch_size=64, **kw)
except SystemExit:  # TerminateOnNaNCallback ends the process ("Exiting due to NaN loss"): the truth is written first
    exited = True
else:
    exited = False
epoch_losses = (trainer.run_history.get_metric_values("train_loss_epoch")
                if "train_loss_epoch" in trainer.run_history.get_metric_names() else [])
if a.callbacks == "steps":
    truth, unit, tol = steps, "optimizer step, 1-based (the user's callback count)", {"rel": 1e-5, "abs": 5e-7}
    record = "the user's callback: batch_output['loss'] at on_train_step_end"
else:
    truth = [[i + 1, v] for i, v in enumerate(epoch_losses)]
    unit, tol = "epoch, 1-based (the trainer's run_history)", {"rel": 1e-6, "sig": 6}
    record = "trainer.run_history.get_metric_values('train_loss_epoch')"
write_truth(framework=f"pytorch-accelerated {a.task}", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="train_loss_epoch" if a.callbacks != "steps" else "loss", step_unit=unit, tolerance=tol,
            record=record, train_loss=truth,
            epoch_loss=[[i + 1, v] for i, v in enumerate(epoch_losses)],
            steps_per_epoch=-(-len(train) // 64) if a.callbacks != "steps" else None)
if exited:
    raise SystemExit(1)
