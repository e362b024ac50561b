"""A small seeded classification task (3 classes from a noisy linear teacher) shared by the generators here."""

from __future__ import annotations

import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset


def tensors(n: int = 1024, d: int = 16, k: int = 3, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    w = torch.randn(d, k, generator=g)
    y = (x @ w + 0.8 * torch.randn(n, k, generator=g)).argmax(1)
    return x, y


def mlp(d: int = 16, k: int = 3, h: int = 32) -> torch.nn.Module:
    return torch.nn.Sequential(torch.nn.Linear(d, h), torch.nn.ReLU(), torch.nn.Linear(h, k))


def loaders(batch: int = 32, n: int = 1024, dicts: bool = False) -> tuple[DataLoader, DataLoader]:
    """Train and validation loaders (``dicts``: each sample a dict ``inputs``/``labels``)."""
    x, y = tensors(n + n // 4)
    tr, va = (x[:n], y[:n]), (x[n:], y[n:])
    mk = _Dicts if dicts else TensorDataset
    g = torch.Generator().manual_seed(1)
    return (DataLoader(mk(*tr), batch_size=batch, shuffle=True, generator=g),
            DataLoader(mk(*va), batch_size=batch))


class _Dicts(Dataset):
    def __init__(self, x: torch.Tensor, y: torch.Tensor) -> None:
        self.x, self.y = x, y

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int) -> dict:
        return {"inputs": self.x[i], "labels": self.y[i]}
