"""ModelScope: a tiny torch MLP (a ``TorchModel`` built here, no weights downloaded) trained by its
``EpochBasedTrainer`` (``build_trainer(Trainers.default, ...)``) from a ``configuration.json`` written as its docs
write one: ``train.optimizer`` / ``train.lr_scheduler`` / ``train.hooks`` (``TextLoggerHook``, ``IterTimerHook``,
``EvaluationHook``), ``evaluation.metrics`` (its ``loss-metric``, or ``accuracy``), by epoch (``epoch [3][10/16]``)
or by iteration (``iter [40/160]``). ModelScope logs through its own logger on stderr and writes
``<timestamp>.log.json`` in its work dir. Truth: that file (its train records' ``loss``, the mean over each logging
interval, at the global iteration of the record)."""

from __future__ import annotations

import argparse
import glob
import json
import os

from h71_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="SGD")
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--momentum", type=float, default=0.0)
ap.add_argument("--scheduler", default="StepLR", choices=["StepLR", "ExponentialLR", "CosineAnnealingLR"])
ap.add_argument("--gamma", type=float, default=1.0)
ap.add_argument("--warmup", type=int, default=0, help="LinearWarmup iterations (0: none)")
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--n", type=int, default=256)
ap.add_argument("--interval", type=int, default=4, help="TextLoggerHook interval (iterations)")
ap.add_argument("--by-iter", action="store_true", help="TextLoggerHook and the trainer by iteration, not by epoch")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import modelscope  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
from modelscope.metainfo import Metrics, Trainers  # noqa: E402
from modelscope.models.base import TorchModel  # noqa: E402
from modelscope.trainers import build_trainer  # noqa: E402
from modelscope.utils.constant import ModelFile, Tasks  # noqa: E402
from torch import nn  # noqa: E402

rng = np.random.default_rng(0)
n_val = a.n // 4
X = rng.normal(size=(a.n + n_val, 8)).astype("float32")
if a.task == "cls":
    W = rng.normal(size=(8, 3))
    Y = (X @ W + 0.5 * rng.normal(size=(a.n + n_val, 3))).argmax(1)
else:
    w = rng.normal(size=(8,))
    Y = (2 * np.tanh(X @ w / 2) + 0.5 * X[:, 0] + 0.1 * rng.normal(size=a.n + n_val)).astype("float32")


class Rows(torch.utils.data.Dataset):
    def __init__(self, x: np.ndarray, y: np.ndarray):
        self.x, self.y = x, y

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int) -> dict:
        y = torch.tensor(self.y[i], dtype=torch.long if a.task == "cls" else torch.float32)
        return {"feat": torch.from_numpy(self.x[i]), "labels": y}


class TinyMLP(TorchModel):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 3 if a.task == "cls" else 1))

    def forward(self, feat: torch.Tensor, labels: torch.Tensor) -> dict:
        out = self.net(feat)
        if a.task == "cls":
            return {"logits": out, "labels": out.argmax(-1), "loss": nn.functional.cross_entropy(out, labels)}
        return {"logits": out, "loss": nn.functional.mse_loss(out.squeeze(-1), labels)}


work = os.path.abspath("work")
os.makedirs(work, exist_ok=True)
optimizer: dict = {"type": a.optimizer, "lr": a.lr}
if a.momentum:
    optimizer["momentum"] = a.momentum
hooks: list[dict] = [{"type": "TextLoggerHook", "interval": a.interval, "by_epoch": not a.by_iter},
                     {"type": "IterTimerHook"}]
if not a.no_val:
    hooks.append({"type": "EvaluationHook", "interval": 1, "by_epoch": True})
train: dict = {"work_dir": work, "max_epochs": a.epochs,
               "dataloader": {"batch_size_per_gpu": a.batch, "workers_per_gpu": 0, "shuffle": True},
               "optimizer": optimizer, "hooks": hooks}
sched: dict = {"type": a.scheduler}
if a.scheduler == "StepLR":
    sched.update(step_size=2, gamma=a.gamma)
elif a.scheduler == "ExponentialLR":
    sched.update(gamma=a.gamma)
else:
    sched.update(T_max=a.epochs)
if a.warmup:
    sched["options"] = {"warmup": {"type": "LinearWarmup", "warmup_iters": a.warmup}}
train["lr_scheduler"] = sched
cfg = {"framework": "pytorch", "task": Tasks.text_classification if a.task == "cls" else "tabular-regression",
       "train": train,
       "evaluation": {"dataloader": {"batch_size_per_gpu": 32, "workers_per_gpu": 0, "shuffle": False},
                      "metrics": [Metrics.loss_metric] + ([Metrics.accuracy] if a.task == "cls" else [])}}
cfg_file = os.path.join(work, ModelFile.CONFIGURATION)
with open(cfg_file, "w") as f:
    json.dump(cfg, f, indent=2)

trainer = build_trainer(Trainers.default, dict(
    cfg_file=cfg_file, model=TinyMLP(), train_dataset=Rows(X[: a.n], Y[: a.n]),
    eval_dataset=None if a.no_val else Rows(X[a.n:], Y[a.n:]), max_epochs=a.epochs, device="cpu",
    work_dir=work, seed=0))
trainer.train()

json_log = sorted(glob.glob(os.path.join(work, "*.log.json")))[-1]
recs = [json.loads(ln) for ln in open(json_log) if ln.strip()]
ipe = len(trainer.train_dataloader)  # iters_per_epoch is the eval loader's after an evaluation
train_recs = [r for r in recs if r.get("mode") == "train"]
evals = [r for r in recs if r.get("mode") == "eval"]


def global_iter(r: dict) -> int:
    return r["iter"] if a.by_iter else (r["epoch"] - 1) * ipe + r["iter"]


keep(json_log, "log.json")
keep(cfg_file)
keep(json_log[: -len(".json")], "modelscope.log")
write_truth(framework=f"modelscope {modelscope.__version__}", settings=vars(a), loss_name="loss",
            step_unit=("iteration, 1-based across epochs (`iter [40/96]`)" if a.by_iter else
                       "iteration, 1-based across epochs: (E - 1) x steps_per_epoch + I of `epoch [E][I/N]`"),
            tolerance={"rel": 1e-09, "abs": 0.56e-4},
            record="its TextLoggerHook's `<timestamp>.log.json` (train records' `loss`, rounded to 5 decimals; the "
                   "log prints 4)",
            train_loss=[(global_iter(r), r["loss"]) for r in train_recs],
            eval_loss=[(r["epoch"] * ipe, r["evaluation/loss"]) for r in evals] if evals else None,
            eval_name="evaluation/loss (the `loss-metric` on the eval set, after each epoch)" if evals else None,
            steps_per_epoch=ipe)
