"""DeepSpeed on CPU (``DS_ACCELERATOR=cpu``, one process without the launcher, gloo): a small MLP on synthetic data
as a one-stage ``deepspeed.pipe.PipelineModule`` trained by ``deepspeed.initialize`` with a JSON-style config
(optimizer ``Adam`` with ``torch_adam`` / ``AdamW`` / ``SGD``, optional scheduler ``WarmupLR`` / ``WarmupDecayLR`` /
``OneCycle``, ``steps_per_print``, ``csv_monitor``) and ``engine.train_batch`` (optional ``engine.eval_batch`` at each
epoch's end, printed by the script: ``epoch 1: validation loss 1.0715``). DeepSpeed's logger is left at its default
(WARNING), so what it prints is on stdout: the pipeline's layout (``stage=0 layers=4``, ...) and every
``steps_per_print`` steps its own line ``steps: 10 loss: 1.0762 iter time (s): 0.002 samples/sec: 20253.777``
(``{:0.4f}``). Truth: DeepSpeed's own ``csv_monitor`` file ``Train_Samples_train_loss.csv`` (the loss of every step,
at ``global_samples``), at the engine's step (samples / batch) for the steps the log prints, and its
``Train_Samples_eval_loss.csv`` for the validation loss; the csv file itself is kept and scored too
(``truth_store.json``, every step, at its own sample numbering)."""

from __future__ import annotations

import argparse
import csv
import os
from pathlib import Path

from h29_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="Adam", choices=["Adam", "AdamW", "SGD"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--momentum", type=float, default=0.0)
ap.add_argument("--scheduler", default=None, choices=[None, "WarmupLR", "WarmupDecayLR", "OneCycle"])
ap.add_argument("--max-lr", type=float, default=None)
ap.add_argument("--warmup", type=int, default=20)
ap.add_argument("--epochs", type=int, default=4)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--act", default="relu", choices=["relu", "tanh", "none"])
ap.add_argument("--clip", type=float, default=None, help="gradient_clipping (DeepSpeed's default: 1.0)")
ap.add_argument("--accum", type=int, default=1)
ap.add_argument("--print-every", type=int, default=10)
ap.add_argument("--val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()

os.environ.setdefault("DS_ACCELERATOR", "cpu")
os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", str(29500 + os.getpid() % 1000))
os.environ.setdefault("RANK", "0")
os.environ.setdefault("LOCAL_RANK", "0")
os.environ.setdefault("WORLD_SIZE", "1")
seed_all(0)

from importlib.metadata import version  # noqa: E402

import deepspeed  # noqa: E402
import torch  # noqa: E402
from deepspeed.pipe import PipelineModule  # noqa: E402
from torch import nn  # noqa: E402


class Squeeze(nn.Module):
    def forward(self, t):
        return t.squeeze(-1) if t.shape[-1] == 1 else t


g = torch.Generator().manual_seed(0)
x = torch.randn(a.n, 16, generator=g)
w = torch.randn(16, 3, generator=g)
if a.task == "cls":
    y = (x @ w + 0.5 * torch.randn(a.n, 3, generator=g)).argmax(1)
    out_dim, loss_fn = 3, nn.CrossEntropyLoss()
else:
    y = (x @ w[:, :1]).squeeze(1) + 0.1 * torch.randn(a.n, generator=g)
    out_dim, loss_fn = 1, nn.MSELoss()
n_val = a.n // 5 if a.val else 0
xt, yt, xv, yv = x[n_val:], y[n_val:], x[:n_val], y[:n_val]
deepspeed.init_distributed(dist_backend="gloo")
ACT = {"relu": nn.ReLU, "tanh": nn.Tanh, "none": nn.Identity}[a.act]
model = PipelineModule(layers=[nn.Linear(16, 32), ACT(), nn.Linear(32, out_dim), Squeeze()], num_stages=1,
                       loss_fn=loss_fn)

opt = {"type": a.optimizer, "params": {"lr": a.lr}}
if a.optimizer in ("Adam", "AdamW"):
    opt["params"]["torch_adam"] = True
elif a.momentum:
    opt["params"]["momentum"] = a.momentum
steps_per_epoch = len(xt) // (a.batch * a.accum)
total = steps_per_epoch * a.epochs
config = {"train_batch_size": a.batch * a.accum, "train_micro_batch_size_per_gpu": a.batch,
          "steps_per_print": a.print_every, "optimizer": opt,
          "csv_monitor": {"enabled": True, "output_path": "ds_logs/", "job_name": "run"}}
if a.clip is not None:
    config["gradient_clipping"] = a.clip
if a.scheduler == "WarmupLR":
    config["scheduler"] = {"type": "WarmupLR", "params": {"warmup_min_lr": 0, "warmup_max_lr": a.max_lr or a.lr,
                                                          "warmup_num_steps": a.warmup}}
elif a.scheduler == "WarmupDecayLR":
    config["scheduler"] = {"type": "WarmupDecayLR", "params": {"warmup_min_lr": 0, "warmup_max_lr": a.max_lr or a.lr,
                                                               "warmup_num_steps": a.warmup, "total_num_steps": total}}
elif a.scheduler == "OneCycle":
    config["scheduler"] = {"type": "OneCycle", "params": {"cycle_min_lr": a.lr, "cycle_max_lr": a.max_lr or 10 * a.lr,
                                                          "cycle_first_step_size": a.warmup}}

engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=config)


def batches(xs, ys, perm):
    for i in range(len(perm) // a.batch):
        idx = perm[i * a.batch:(i + 1) * a.batch]
        yield xs[idx], ys[idx]


for epoch in range(a.epochs):
    it = batches(xt, yt, torch.randperm(len(xt), generator=g))
    for _ in range(steps_per_epoch):
        engine.train_batch(data_iter=it)
    if a.val:
        vl = engine.eval_batch(data_iter=batches(xv, yv, torch.arange(len(xv))), num_micro_batches=len(xv) // a.batch)
        print(f"epoch {epoch + 1}: validation loss {vl.item():.4f}")

files = sorted(Path("ds_logs").rglob("*.csv"))
series: dict[str, dict[int, float]] = {}
for f in files:
    keep(f, f.name)
    with open(f) as fh:
        r = list(csv.reader(fh))
    series[f.name] = {int(float(s)): float(v) for s, v in r[1:]}
rows = series.get("Train_Samples_train_loss.csv", {})
evals = series.get("Train_Samples_eval_loss.csv")
samples = sorted(rows)
fw = f"deepspeed {version('deepspeed')} (torch {version('torch')})"
bs = a.batch * a.accum
write_truth(framework=fw, settings=vars(a), loss_name="loss", step_unit="step, 1-based (the engine's global_steps)",
            tolerance=tol_decimals(4), record="DeepSpeed's csv_monitor Train_Samples_train_loss.csv, at samples/batch",
            train_loss=[(s // bs, rows[s]) for s in samples if (s // bs) % a.print_every == 0],
            steps_per_epoch=steps_per_epoch,
            eval_loss=[(s // bs, v) for s, v in sorted(evals.items())] if evals else None,
            eval_name="validation loss (Train_Samples_eval_loss.csv)" if evals else None)
csv_name = next((f.name for f in files if f.name.endswith("train_loss.csv")), "")
write_truth(framework=fw, settings=vars(a), loss_name="Train/Samples/train_loss",
            step_unit="sample (global_samples, the csv's step column)", tolerance={"rel": 1e-6, "abs": 1e-9},
            record="DeepSpeed's csv_monitor file itself", train_loss=[(s, rows[s]) for s in samples],
            name="truth_store.json", file=csv_name)
