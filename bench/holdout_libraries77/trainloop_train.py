"""trainloop: a tiny torch model trained by a ``BaseTrainer`` subclass (its ``build_*`` factories and ``forward``,
as its README does), with its ``ProgressHook`` logging through Python's ``logging`` (set up with ``basicConfig`` as
its users do; stderr): ``=> Starting training ...``, then every ``interval`` steps ``Step 20/200: step 0.0011s data
0.0002s eta 0:00:00 loss 0.6931 lr/group_0 1.00e-02`` (``grad_norm`` with clipping, `` | acc 0.5312`` with records),
``=> Finished training``. Truth: a ``StatsHook`` beside it at the same interval, the library's own aggregation (the
mean of the step losses since the last emit), at ``trainer.step`` (1-based)."""

from __future__ import annotations

import argparse
import logging
import math
from collections.abc import Iterator
from typing import Any

from h77_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "adamw"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--steps", type=int, default=100)
ap.add_argument("--interval", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--hidden", type=int, default=32, help="0: a linear model")
ap.add_argument("--schedule", default="none", choices=["none", "cosine", "growth"])
ap.add_argument("--gamma", type=float, default=1.0, help="the growth schedule's factor per step")
ap.add_argument("--grad-clip", type=float, default=None)
ap.add_argument("--accum", type=int, default=1)
ap.add_argument("--with-records", action="store_true")
ap.add_argument("--no-units", action="store_true")
ap.add_argument("--log-format", default="plain", choices=["plain", "time"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

if a.log_format == "time":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(levelname)s] %(name)s: %(message)s")
else:
    logging.basicConfig(level=logging.INFO)

import torch  # noqa: E402
from torch import nn  # noqa: E402
from trainloop import BaseTrainer, ProgressHook, StatsHook, TrainingStats  # noqa: E402

g = torch.Generator().manual_seed(0)
N = 1024
X = torch.randn(N, 8, generator=g)
if a.task == "reg":
    w = torch.randn(8, 1, generator=g)
    Y = torch.sin(X @ w) * 2 + 0.5 * X[:, :1] ** 2 + 0.1 * torch.randn(N, 1, generator=g)
    out = 1
else:
    W = torch.randn(8, 4, generator=g)
    Y = (X @ W + 0.5 * torch.randn(N, 4, generator=g)).argmax(1)
    out = 4

recorded: list[tuple[int, float]] = []


class Trainer(BaseTrainer):
    def build_data_loader(self) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
        def batches() -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
            while True:
                perm = torch.randperm(N, generator=g)
                for i in range(0, N - a.batch + 1, a.batch):
                    idx = perm[i:i + a.batch]
                    yield X[idx], Y[idx]

        return batches()

    def build_model(self) -> nn.Module:
        if a.hidden == 0:
            return nn.Linear(8, out)
        return nn.Sequential(nn.Linear(8, a.hidden), nn.ReLU(), nn.Linear(a.hidden, a.hidden), nn.ReLU(),
                             nn.Linear(a.hidden, out))

    def build_optimizer(self) -> torch.optim.Optimizer:
        opt = {"adam": torch.optim.Adam, "sgd": torch.optim.SGD, "adamw": torch.optim.AdamW}[a.optimizer]
        return opt(self.model.parameters(), lr=a.lr)

    def build_lr_scheduler(self) -> torch.optim.lr_scheduler.LRScheduler | None:
        if a.schedule == "cosine":
            return torch.optim.lr_scheduler.CosineAnnealingLR(self.optimizer, T_max=self.max_steps)
        if a.schedule == "growth":
            return torch.optim.lr_scheduler.ExponentialLR(self.optimizer, gamma=a.gamma)
        return None

    def build_hooks(self) -> list:
        return [ProgressHook(interval=a.interval, with_records=a.with_records, show_units=not a.no_units),
                StatsHook(record, interval=a.interval)]

    def forward(self, input: Any) -> tuple[torch.Tensor, dict]:
        x, y = input
        pred = self.model(x)
        if a.task == "reg":
            loss = nn.functional.mse_loss(pred, y)
            return loss, {"mae": (pred - y).abs().mean().item()}
        loss = nn.functional.cross_entropy(pred, y)
        return loss, {"acc": (pred.argmax(1) == y).float().mean().item()}


def record(trainer: BaseTrainer, stats: TrainingStats) -> None:
    recorded.append((trainer.step, stats.loss))


trainer = Trainer(max_steps=a.steps, grad_clip=a.grad_clip, gradient_accumulation_steps=a.accum,
                  max_non_finite_grad_retries=0)
try:
    trainer.train()
finally:
    from importlib.metadata import version

    write_truth(framework=f"trainloop {version('trainloop')}", settings=vars(a), loss_name="loss",
                step_unit=f"optimizer step, 1-based (`Step 20/{a.steps}`), every {a.interval}",
                tolerance=tol_decimals(4),
                record="a `StatsHook` beside the `ProgressHook`, same interval (its `TrainingStats.loss`, the mean "
                       "of the step losses since the last emit, at `trainer.step`)",
                train_loss=[(s, v if math.isfinite(v) else "nan") for s, v in recorded])
