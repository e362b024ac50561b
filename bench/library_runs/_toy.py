"""A small seeded regression task and training loop for the tracker generators (MLflow, DVCLive, TensorBoard):
each calls ``train(log)`` with its own logging call; ``log(step, loss)`` gets the global step (1-based)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import torch


def toy_args(p: argparse.ArgumentParser) -> None:
    """The loop's arguments, as each tracker generator takes them (``--print``: it also prints each logged loss)."""
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--every", type=int, default=1)
    p.add_argument("--print", action="store_true", help="also print every logged loss")
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--growth", type=float, default=1.0)


def train(log: Callable[[int, float], None], *, epochs: int, lr: float, seed: int = 0, every: int = 1,
          batch: int = 32, growth: float = 1.0) -> None:
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    X = torch.randn(640, 8)
    y = X @ torch.randn(8, 1) + 0.3 * torch.cos(2 * X[:, :1]) + 0.05 * torch.randn(640, 1)
    model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    step = 0
    for _ in range(epochs):
        perm = torch.randperm(len(X))
        for i in range(0, len(X), batch):
            idx = perm[i:i + batch]
            loss = torch.nn.functional.mse_loss(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            for g in opt.param_groups:
                g["lr"] *= growth
            if step % every == 0:
                log(step, loss.item())
