"""The training syne-tune launches for each trial (its local backend's entry point): a numpy linear regression on a
seeded synthetic table, full-batch gradient descent at the trial's ``--lr`` for ``--epochs`` epochs, reporting its
mean squared error after every epoch with syne-tune's ``Reporter`` (``epoch``, ``mean_loss``)."""

from __future__ import annotations

import argparse

import numpy as np
from syne_tune import Reporter

ap = argparse.ArgumentParser()
ap.add_argument("--lr", type=float, required=True)
ap.add_argument("--epochs", type=int, default=10)
a, _ = ap.parse_known_args()
rng = np.random.default_rng(0)
X = rng.normal(size=(200, 4)) * np.array([1.0, 2.0, 0.5, 1.5])
y = X @ np.array([1.0, -2.0, 0.5, 0.8]) + 1.0 + 0.3 * rng.normal(size=200)
w, b = np.zeros(4), 0.0
report = Reporter()
for epoch in range(1, a.epochs + 1):
    r = X @ w + b - y
    w = w - a.lr * 2 * X.T @ r / len(y)
    b = b - a.lr * 2 * r.mean()
    with np.errstate(all="ignore"):
        loss = float(np.mean((X @ w + b - y) ** 2))
    report(epoch=epoch, mean_loss=loss)
