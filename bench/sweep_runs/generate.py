"""Train real hyper-parameter sweeps on CPU and write each run's curves (the sweep bench's data).

Four tasks, one sweep each, 16 configurations per sweep (a seeded random search): the learning rate on a log
grid from 1e-4 to 3 (one value per run, shuffled), and per run an optimizer (SGD, SGD with momentum, Adam,
AdamW), a batch size, a width and a learning-rate schedule (constant, cosine to zero, warm-up then linear decay,
step decay). Every run has the same length; a run whose loss turns non-finite keeps logging NaN (as a real run
whose parameters became NaN does) until the end.

Each run is written as ``examples/sweeps/<sweep>/<run>.jsonl``: one record per logged step,
``{"step": s, "train_loss": x}`` plus ``"eval_loss": y`` on evaluation steps (NaN written as ``NaN``, as
Python's json does); ``examples/sweeps/<sweep>/sweep.json`` holds the configurations and the settings.

Run once, on one thread, niced::

    nice -n 10 ~/venvs/sweep/bin/python bench/sweep_runs/generate.py --out examples/sweeps

Needs torch (the ``bench`` extra: ``torch==2.13.0`` CPU wheel).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

STEPS = 800
LOG_EVERY = 10
EVAL_EVERY = 25
RUNS_PER_SWEEP = 16
LR_GRID = np.logspace(-4, math.log10(3.0), RUNS_PER_SWEEP)
OPTIMIZERS = ("sgd", "momentum", "adam", "adamw")
SCHEDULES = ("constant", "cosine", "warmup_linear", "step")
BATCHES = (16, 64, 256)
WIDTHS = (16, 64, 256)


# ---------------------------------------------------------------- tasks: data, model, loss

class Task:
    """A task: a fixed train set and eval set, a model of a given width, and its loss."""

    name = ""

    def __init__(self, seed: int) -> None:
        self.gen = torch.Generator().manual_seed(seed)

    def batch(self, size: int, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        idx = torch.randint(0, self.x_train.shape[0], (size,), generator=gen)
        return self.x_train[idx], self.y_train[idx]

    x_train: torch.Tensor
    y_train: torch.Tensor
    x_eval: torch.Tensor
    y_eval: torch.Tensor

    def model(self, width: int) -> nn.Module:
        raise NotImplementedError

    def loss(self, out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError


class MlpClassification(Task):
    """10-class classification of points from a mixture of Gaussians in 20 dimensions with label noise."""

    name = "mlp_cls"

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        g = self.gen
        centers = torch.randn(30, 20, generator=g) * 1.6
        labels = torch.arange(30) % 10
        n = 12000
        which = torch.randint(0, 30, (n,), generator=g)
        x = centers[which] + torch.randn(n, 20, generator=g)
        y = labels[which]
        flip = torch.rand(n, generator=g) < 0.1
        y = torch.where(flip, torch.randint(0, 10, (n,), generator=g), y)
        self.x_train, self.y_train = x[:10000], y[:10000]
        self.x_eval, self.y_eval = x[10000:], y[10000:]

    def model(self, width: int) -> nn.Module:
        return nn.Sequential(nn.Linear(20, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 10))

    def loss(self, out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return nn.functional.cross_entropy(out, y)


class Regression(Task):
    """Regression of a smooth nonlinear function of 8 inputs with noise (mean squared error)."""

    name = "regression"

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        g = self.gen
        n = 12000
        x = torch.randn(n, 8, generator=g)
        w = torch.randn(8, 4, generator=g)
        h = torch.sin(x @ w)
        y = (h.sum(1, keepdim=True) + 0.5 * x[:, :1] * x[:, 1:2]) * 3.0 + 0.3 * torch.randn(n, 1, generator=g)
        self.x_train, self.y_train = x[:10000], y[:10000]
        self.x_eval, self.y_eval = x[10000:], y[10000:]

    def model(self, width: int) -> nn.Module:
        return nn.Sequential(nn.Linear(8, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(), nn.Linear(width, 1))

    def loss(self, out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return nn.functional.mse_loss(out, y)


def _text() -> str:
    """Local English-ish text: Python's own library sources' docstrings and comments (deterministic per install)."""
    import email
    import inspect
    import json as js
    import logging
    import textwrap

    parts = [inspect.getsource(m) for m in (textwrap, logging, js.decoder, email.message, inspect)]
    return "".join(parts)[:400_000]


class CharLM(Task):
    """Next-character prediction from the previous 24 characters (an embedding + MLP language model)."""

    name = "charlm"
    context = 24

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        text = _text()
        vocab = sorted(set(text))
        self.vocab = len(vocab)
        ids = torch.tensor([vocab.index(c) for c in text], dtype=torch.long)
        windows = ids.unfold(0, self.context + 1, 3)
        perm = torch.randperm(windows.shape[0], generator=self.gen)
        windows = windows[perm]
        n_eval = 3000
        self.x_train, self.y_train = windows[n_eval:, :-1], windows[n_eval:, -1]
        self.x_eval, self.y_eval = windows[:n_eval, :-1], windows[:n_eval, -1]

    def model(self, width: int) -> nn.Module:
        return nn.Sequential(nn.Embedding(self.vocab, 16), nn.Flatten(), nn.Linear(16 * self.context, width),
                             nn.ReLU(), nn.Linear(width, self.vocab))

    def loss(self, out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return nn.functional.cross_entropy(out, y)


class Autoencoder(Task):
    """Reconstruction (MSE) of 32-dimensional points near a 4-dimensional curved manifold, through a bottleneck."""

    name = "autoencoder"

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        g = self.gen
        n = 12000
        z = torch.randn(n, 4, generator=g)
        a = torch.randn(4, 32, generator=g)
        b = torch.randn(4, 32, generator=g)
        x = torch.tanh(z @ a) + 0.5 * torch.sin(z @ b) + 0.05 * torch.randn(n, 32, generator=g)
        self.x_train, self.y_train = x[:10000], x[:10000]
        self.x_eval, self.y_eval = x[10000:], x[10000:]

    def model(self, width: int) -> nn.Module:
        return nn.Sequential(nn.Linear(32, width), nn.ReLU(), nn.Linear(width, 4), nn.Linear(4, width), nn.ReLU(),
                             nn.Linear(width, 32))

    def loss(self, out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return nn.functional.mse_loss(out, y)


TASKS: dict[str, type[Task]] = {t.name: t for t in (MlpClassification, Regression, CharLM, Autoencoder)}


# ---------------------------------------------------------------- one run

def lr_at(step: int, base: float, schedule: str) -> float:
    if schedule == "cosine":
        return base * 0.5 * (1 + math.cos(math.pi * step / STEPS))
    if schedule == "warmup_linear":
        warm = STEPS // 10
        return base * (step + 1) / warm if step < warm else base * max(0.0, (STEPS - step) / (STEPS - warm))
    if schedule == "step":
        return base * (0.1 ** (step // (STEPS // 3)))
    return base


def make_optimizer(name: str, params: Any, lr: float) -> torch.optim.Optimizer:
    if name == "sgd":
        return torch.optim.SGD(params, lr=lr)
    if name == "momentum":
        return torch.optim.SGD(params, lr=lr, momentum=0.9)
    if name == "adam":
        return torch.optim.Adam(params, lr=lr)
    return torch.optim.AdamW(params, lr=lr, weight_decay=0.05)


def evaluate(task: Task, model: nn.Module) -> float:
    model.eval()
    with torch.no_grad():
        value = float(task.loss(model(task.x_eval), task.y_eval))
    model.train()
    return value


def train(task: Task, cfg: dict[str, Any], out: Path) -> dict[str, Any]:
    torch.manual_seed(cfg["seed"])
    gen = torch.Generator().manual_seed(cfg["seed"])
    model = task.model(cfg["width"])
    opt = make_optimizer(cfg["optimizer"], model.parameters(), cfg["lr"])
    records: list[dict[str, Any]] = []
    dead = False
    window: list[float] = []
    for step in range(1, STEPS + 1):
        if not dead:
            for group in opt.param_groups:
                group["lr"] = lr_at(step - 1, cfg["lr"], cfg["schedule"])
            x, y = task.batch(cfg["batch"], gen)
            loss = task.loss(model(x), y)
            value = float(loss.detach())
            if not math.isfinite(value) or value > 1e6:
                dead = True  # the parameters are gone: a real run logs NaN from here on
            else:
                opt.zero_grad()
                loss.backward()
                opt.step()
                window.append(value)
        if step % LOG_EVERY == 0:
            rec: dict[str, Any] = {"step": step,
                                   "train_loss": float("nan") if dead else float(np.mean(window or [math.nan]))}
            window = []
            if step % EVAL_EVERY == 0 or step == STEPS:
                ev = float("nan") if dead else evaluate(task, model)
                rec["eval_loss"] = ev if math.isfinite(ev) else float("nan")
            records.append(rec)
    with out.open("w") as f:
        for rec in records:
            f.write(json.dumps({k: (round(v, 6) if isinstance(v, float) and math.isfinite(v) else v)
                                for k, v in rec.items()}) + "\n")
    finals = [r["eval_loss"] for r in records if "eval_loss" in r]
    return {"final_eval": finals[-1]}


def configs(sweep: str, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(f"{sweep}-{seed}")
    lrs = list(LR_GRID)
    rng.shuffle(lrs)
    out = []
    for i, lr in enumerate(lrs):
        out.append({"run": f"{sweep}-{i:02d}", "lr": float(f"{lr:.3g}"), "optimizer": rng.choice(OPTIMIZERS),
                    "schedule": rng.choice(SCHEDULES), "batch": rng.choice(BATCHES), "width": rng.choice(WIDTHS),
                    "seed": 1000 + i})
    return out


def run_sweep(name: str, seed: int, out: Path) -> None:
    task = TASKS[name](seed=seed)
    sweep = f"{name}-s{seed}"
    folder = out / sweep
    folder.mkdir(parents=True, exist_ok=True)
    runs = []
    for cfg in configs(sweep, seed):
        t0 = time.monotonic()
        result = train(task, cfg, folder / f"{cfg['run']}.jsonl")
        runs.append({**cfg, **result})
        print(f"{cfg['run']}: {cfg} final eval {result['final_eval']:.4g} ({time.monotonic() - t0:.1f} s)", flush=True)
    meta = {"sweep": sweep, "task": name, "seed": seed, "doc": TASKS[name].__doc__, "steps": STEPS,
            "log_every": LOG_EVERY, "eval_every": EVAL_EVERY, "objective": "eval_loss", "direction": "minimize",
            "runs": runs}
    (folder / "sweep.json").write_text(json.dumps(meta, indent=1) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="examples/sweeps")
    ap.add_argument("--tasks", nargs="*", default=list(TASKS))
    ap.add_argument("--seeds", nargs="*", type=int, default=[1, 2], help="one sweep per task and seed")
    a = ap.parse_args()
    torch.set_num_threads(1)
    for name in a.tasks:
        for seed in a.seeds:
            run_sweep(name, seed, Path(a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
