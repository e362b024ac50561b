"""lpd: a small torch MLP trained by lpd's ``Trainer`` (its README's way: ``LossOptimizerHandler``, ``StatsPrint``,
``SchedulerStep``, ``Tensorboard`` callbacks) on synthetic classification (cross entropy, with lpd's
``CategoricalAccuracyWithLogits`` metric) or regression (MSE) data, ``trainer.train(epochs, verbose=...)``: verbose 1
shows its tqdm bar on stderr (``[Train epoch 3/10]: ... loss=0.693``), 2 prints one line an epoch (``[Train epoch
3/10], loss=0.6931471824645996``), and ``StatsPrint`` prints its box-drawn block at each epoch's end (``curr:``,
``prev:``, ``best:`` of the train and validation loss, full float or rounded to ``round_values_on_print_to``).
Truth: the ``Train loss`` scalars its ``Tensorboard`` callback writes at each epoch's end (the mean of the epoch's
batch losses), read back with TensorBoard's ``EventAccumulator``."""

from __future__ import annotations

import argparse
import glob
from importlib.metadata import version

from h92_truth import seed_all, tol_decimals, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "adamw", "rmsprop"])
ap.add_argument("--lr", type=float, default=1e-2)
ap.add_argument("--gamma", type=float, default=None, help="ExponentialLR's gamma (SchedulerStep at each epoch end)")
ap.add_argument("--verbose", type=int, default=1, choices=[0, 1, 2])
ap.add_argument("--no-statsprint", action="store_true")
ap.add_argument("--round", type=int, default=None, help="StatsPrint's round_values_on_print_to")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--summary", action="store_true", help="trainer.summary() first")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from lpd.callbacks import LossOptimizerHandler, SchedulerStep, StatsPrint, Tensorboard  # noqa: E402
from lpd.enums import Phase, State  # noqa: E402
from lpd.metrics import CategoricalAccuracyWithLogits  # noqa: E402
from lpd.trainer import Trainer  # noqa: E402
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

g = torch.Generator().manual_seed(0)
n_val = a.n // 4
X = torch.randn(a.n + n_val, 10, generator=g)
if a.task == "cls":
    W = torch.randn(10, 3, generator=g)
    y = (X @ W + 0.5 * torch.randn(a.n + n_val, 3, generator=g)).argmax(1)
    out, loss_fn = 3, torch.nn.CrossEntropyLoss()
    metrics = [CategoricalAccuracyWithLogits(name="acc")]
else:
    w = torch.randn(10, 1, generator=g)
    y = torch.sin(X @ w) * 3 + X[:, :1] ** 2 + 0.1 * torch.randn(a.n + n_val, 1, generator=g)
    out, loss_fn = 1, torch.nn.MSELoss()
    metrics = []
model = torch.nn.Sequential(torch.nn.Linear(10, 32), torch.nn.ReLU(), torch.nn.Linear(32, out))
opt_cls = {"adam": torch.optim.Adam, "sgd": torch.optim.SGD, "adamw": torch.optim.AdamW,
           "rmsprop": torch.optim.RMSprop}[a.optimizer]
optimizer = opt_cls(model.parameters(), lr=a.lr, **({"momentum": 0.9} if a.optimizer == "sgd" else {}))
scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, a.gamma) if a.gamma else None
train_dl = DataLoader(TensorDataset(X[: a.n], y[: a.n]), batch_size=a.batch, shuffle=True, generator=g)
val_dl = None if a.no_val else DataLoader(TensorDataset(X[a.n:], y[a.n:]), batch_size=a.batch)

callbacks: list = [LossOptimizerHandler()]
if scheduler is not None:
    callbacks.append(SchedulerStep(apply_on_phase=Phase.EPOCH_END, apply_on_states=State.EXTERNAL))
callbacks.append(Tensorboard(summary_writer_dir="tensorboard"))
if not a.no_statsprint:
    callbacks.append(StatsPrint(round_values_on_print_to=a.round))

trainer = Trainer(model=model, device=torch.device("cpu"), loss_func=loss_fn, optimizer=optimizer,
                  scheduler=scheduler, metrics=metrics, train_data_loader=train_dl, val_data_loader=val_dl,
                  train_steps=len(train_dl), val_steps=0 if val_dl is None else len(val_dl), callbacks=callbacks,
                  name=f"mlp_{a.task}")
if a.summary:
    trainer.summary()
trainer.train(a.epochs, verbose=a.verbose)
for w in trainer._summary_writers.values():
    w.close()

acc = EventAccumulator(glob.glob("tensorboard/**/events.out.tfevents.*", recursive=True)[0])
acc.Reload()
train = [(e.step, e.value) for e in acc.Scalars("Train loss")]
val = [(e.step, e.value) for e in acc.Scalars("Val loss")] if val_dl is not None else None
tol: dict = {"rel": 1e-6}  # the full float (verbose 2's line, StatsPrint unrounded)
if a.verbose != 2 and not a.no_statsprint and a.round:
    # StatsPrint's round_values_on_print_to: torch.round on the float32 loss, so the printed value is the float32
    # nearest the rounded one (`7.068272` for 7.0682726): the decimals, or 2 float32 ulps where they are finer
    tol = {"rel": 2.4e-07, "abs": tol_decimals(a.round)["abs"]}
elif a.verbose != 2 and a.no_statsprint:
    tol = tol_sig(3)  # tqdm's postfix, `{:.3g}`
write_truth(framework=f"lpd {version('lpd-nodeps')}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`[Train epoch 3/10]`, `Epoch: 3`)", tolerance=tol,
            record="the `Train loss` scalars its `Tensorboard` callback writes at each epoch's end (the epoch's mean "
                   "batch loss), read back with TensorBoard's `EventAccumulator`",
            train_loss=train, eval_loss=val, eval_name="Val loss" if val is not None else None)
