"""MMEngine: a ``Runner`` training a tiny model, by epoch (``EpochBasedTrainLoop``) or by iteration.

MMEngine logs through its ``LoggerHook`` every ``--interval`` iterations: ``Epoch(train)  [1][ 10/32]  lr:
1.0000e-02  eta: 0:00:05  time: 0.0051  data_time: 0.0010  memory: ...  loss: 1.0423`` (``Iter(train) [ 10/300]``
by iteration), the loss a mean over the interval, and writes the same values with the global step to its local
visualisation backend (``<work_dir>/<timestamp>/vis_data/scalars.json``, kept as ``scalars.json``, a second entry).
The truth is that file's ``loss`` at its ``step`` (the global iteration, 1-based)."""

from __future__ import annotations

import argparse
import glob
import json

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--loop", default="epoch", choices=["epoch", "iter"])
ap.add_argument("--epochs", type=int, default=4)
ap.add_argument("--iters", type=int, default=300)
ap.add_argument("--interval", type=int, default=10)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--opt", default="SGD")
ap.add_argument("--bs", type=int, default=32)
ap.add_argument("--val", action="store_true")
ap.add_argument("--scheduler", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch.nn.functional as F  # noqa: E402
from _data import loaders, mlp  # noqa: E402
from mmengine.evaluator import BaseMetric  # noqa: E402
from mmengine.model import BaseModel  # noqa: E402
from mmengine.runner import Runner  # noqa: E402


class Net(BaseModel):
    def __init__(self) -> None:
        super().__init__()
        self.net = mlp()

    def forward(self, inputs, labels, mode="tensor"):
        x = self.net(inputs)
        if mode == "loss":
            return {"loss": F.cross_entropy(x, labels)}
        if mode == "predict":
            return x, labels
        return x


class Accuracy(BaseMetric):
    def process(self, data_batch, data_samples):
        score, gt = data_samples
        self.results.append({"batch_size": len(gt), "correct": (score.argmax(dim=1) == gt).sum().item()})

    def compute_metrics(self, results):
        total = sum(r["correct"] for r in results)
        return {"accuracy": 100 * total / sum(r["batch_size"] for r in results)}


tr, va = loaders(a.bs, dicts=True)
opt = {"type": a.opt, "lr": a.lr} | ({"momentum": 0.9} if a.opt == "SGD" else {})
if a.loop == "epoch":
    train_cfg = {"by_epoch": True, "max_epochs": a.epochs, "val_interval": 1}
    log_processor = {"by_epoch": True}
else:
    train_cfg = {"by_epoch": False, "max_iters": a.iters, "val_interval": a.iters // 3}
    log_processor = {"by_epoch": False}
kw = {}
if a.val:
    kw = {"val_dataloader": va, "val_cfg": {}, "val_evaluator": {"type": Accuracy}}
if a.scheduler:
    kw["param_scheduler"] = [{"type": "LinearLR", "start_factor": 0.1, "by_epoch": False, "begin": 0, "end": 50},
                             {"type": "CosineAnnealingLR", "by_epoch": False, "begin": 50, "T_max": 500}]
runner = Runner(model=Net(), work_dir="work_dir", train_dataloader=tr, optim_wrapper={"optimizer": opt},
                train_cfg=train_cfg, default_hooks={"logger": {"type": "LoggerHook", "interval": a.interval},
                                                    "checkpoint": {"type": "CheckpointHook", "interval": 10**6}},
                log_processor=log_processor, randomness={"seed": 0}, **kw)
runner.train()

path = sorted(glob.glob("work_dir/*/vis_data/scalars.json"))[-1]
rows = [json.loads(ln) for ln in open(path) if ln.strip()]
pts = [(r["step"], r["loss"]) for r in rows if "loss" in r]
write_truth(framework="mmengine", settings=vars(a), label=a.label, should_stop=a.should_stop, loss_name="loss",
            step_unit="global iteration, 1-based (by epoch: (epoch-1)*iters_per_epoch + i of '[e][ i/n]')",
            tolerance={"rel": 1e-9, "abs": 5.1e-5}, record="vis_data/scalars.json (LocalVisBackend)",
            train_loss=pts)
keep(path, "scalars.json")
store_entry("scalars.json", "truth.json")
