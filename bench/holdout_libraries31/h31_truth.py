"""Shared by the thirty-first held-out library generators: the sixth set's truth helpers (bench/holdout_libraries6/
h6_truth.py, itself the third set's: the truth file each run writes, the files it keeps), used as they are, and the
small synthetic data and torch model the trackers' runs train (no download).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "holdout_libraries6"))

from h6_truth import dest, keep, seed_all, tol_decimals, tol_sig, write_truth  # noqa: E402

__all__ = ["dest", "keep", "seed_all", "tol_decimals", "tol_sig", "write_truth", "torch_task"]


def torch_task(task: str, n: int, batch: int, width: int = 32):
    """A seeded synthetic task: (train loader, validation loader, model, loss function). ``cls``: 4 classes from a
    noisy linear map of 8 features (cross entropy); ``reg``: a smooth non-linear target (mean squared error)."""
    import torch

    g = torch.Generator().manual_seed(0)
    n_val = n // 4
    X = torch.randn(n + n_val, 8, generator=g)
    if task == "cls":
        W = torch.randn(8, 4, generator=g)
        y = (X @ W + 0.5 * torch.randn(n + n_val, 4, generator=g)).argmax(1)
        loss_fn, out_dim = torch.nn.functional.cross_entropy, 4
    else:
        w = torch.randn(8, 1, generator=g)
        y = torch.sin(X @ w) * 3 + X[:, :1] ** 2 + 0.1 * torch.randn(n + n_val, 1, generator=g)
        loss_fn, out_dim = torch.nn.functional.mse_loss, 1
    train = torch.utils.data.TensorDataset(X[:n], y[:n])
    val = torch.utils.data.TensorDataset(X[n:], y[n:])
    train_loader = torch.utils.data.DataLoader(train, batch_size=batch, shuffle=True,
                                               generator=torch.Generator().manual_seed(1))
    val_loader = torch.utils.data.DataLoader(val, batch_size=64)
    model = torch.nn.Sequential(torch.nn.Linear(8, width), torch.nn.ReLU(), torch.nn.Linear(width, out_dim))
    return train_loader, val_loader, model, loss_fn


def optimizer(name: str, params, lr: float):
    import torch

    if name == "adam":
        return torch.optim.Adam(params, lr=lr)
    if name == "rmsprop":
        return torch.optim.RMSprop(params, lr=lr)
    return torch.optim.SGD(params, lr=lr, momentum=0.9 if name == "momentum" else 0.0)
