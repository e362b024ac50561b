"""neuraloperator: a small 1-D FNO (``neuralop.models.FNO``) trained by its ``neuralop.Trainer(verbose=True)`` on a
synthetic operator (an input function to a smoothed, integrated one on a 64-point grid), with its ``LpLoss`` /
``H1Loss``, an optimizer (Adam, its own ``AdamW``, SGD) and a torch scheduler, as its examples do. The Trainer
prints, on stdout, ``[3] time=0.12, avg_loss=0.1234, train_err=1.2345`` every ``eval_interval`` epochs (``{:.4f}``;
``avg_loss`` is the summed batch losses over the samples, ``train_err`` over the batches) and ``Eval: 32_l2=0.1234,
32_h1=0.2345`` after each evaluation. Truth: what the Trainer itself hands to its logger (``log_training``'s
``avg_loss``, as it would send it to wandb), at its 0-based ``epoch``; eval: ``log_eval``'s metrics."""

from __future__ import annotations

import argparse
import math

import torch
from h50_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--n", type=int, default=128)
ap.add_argument("--lr", type=float, default=5e-3)
ap.add_argument("--optimizer", default="adam", choices=["adam", "adamw", "sgd"])
ap.add_argument("--loss", default="l2", choices=["l2", "h1"])
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma (0: StepLR(step 100, gamma 0.5))")
ap.add_argument("--eval-interval", type=int, default=1)
ap.add_argument("--modes", type=int, default=8)
ap.add_argument("--width", type=int, default=16)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from neuralop import H1Loss, LpLoss, Trainer  # noqa: E402
from neuralop.models import FNO  # noqa: E402
from neuralop.training import AdamW  # noqa: E402

try:
    from importlib.metadata import version
    NOP_VERSION = version("neuraloperator")
except Exception:  # pragma: no cover
    NOP_VERSION = "?"

g = torch.Generator().manual_seed(0)
res = 64
xs = torch.linspace(0, 1, res)


def make(n):
    k = torch.arange(1, 6, dtype=torch.float32)
    c = torch.randn(n, 5, generator=g) / k
    u = (c[:, :, None] * torch.sin(math.pi * k[None, :, None] * xs[None, None, :])).sum(1)
    v = torch.cumsum(u, dim=1) / res + 0.3 * torch.tanh(u)
    return u[:, None, :], v[:, None, :]


class DictSet(torch.utils.data.Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"x": self.x[i], "y": self.y[i]}


xtr, ytr = make(a.n)
xte, yte = make(32)
train_loader = torch.utils.data.DataLoader(DictSet(xtr, ytr), batch_size=a.batch, shuffle=True,
                                           generator=torch.Generator().manual_seed(1))
test_loaders = {32: torch.utils.data.DataLoader(DictSet(xte, yte), batch_size=16)}

model = FNO(n_modes=(a.modes,), in_channels=1, out_channels=1, hidden_channels=a.width, n_layers=2)
if a.optimizer == "adam":
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
elif a.optimizer == "adamw":
    opt = AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
else:
    opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
if a.gamma:
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.gamma)
else:
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=100, gamma=0.5)
l2 = LpLoss(d=1, p=2)
h1 = H1Loss(d=1)
train_loss = l2 if a.loss == "l2" else h1

record: list[tuple[int, float]] = []
evals: list[tuple[int, float]] = []


class RecordingTrainer(Trainer):
    """The Trainer as it is; only what it hands to its own logger is kept."""

    def log_training(self, epoch, time, avg_loss, train_err, avg_lasso_loss=None, lr=None):
        record.append((epoch, float(avg_loss)))
        return super().log_training(epoch, time, avg_loss, train_err, avg_lasso_loss, lr)

    def log_eval(self, epoch, eval_metrics):
        evals.append((epoch, float(eval_metrics[f"32_{a.loss}"])))
        return super().log_eval(epoch, eval_metrics)


trainer = RecordingTrainer(model=model, n_epochs=a.epochs, device="cpu", eval_interval=a.eval_interval, verbose=True)
trainer.train(train_loader=train_loader, test_loaders=test_loaders, optimizer=opt, scheduler=sched,
              regularizer=False, training_loss=train_loss, eval_losses={"h1": h1, "l2": l2})

write_truth(framework=f"neuraloperator {NOP_VERSION}", settings=vars(a), loss_name="avg_loss",
            step_unit="epoch, 0-based (`[N]`)", tolerance=tol_decimals(4),
            record="what neuralop's Trainer hands to its log_training (`avg_loss`, the value it sends to wandb)",
            train_loss=record, eval_loss=evals, eval_name=f"32_{a.loss}")
