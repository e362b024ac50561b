"""The small trainings the searches of the thirtieth held-out set tune: a numpy linear or logistic regression on a
seeded synthetic table, trained by full-batch gradient descent with momentum for a number of epochs; the objective
is its final training loss (mean squared error, or log loss written as users write it, ``-mean(y log p + ...)``).
A learning rate far too high makes the loss overflow to ``inf`` / ``nan``."""

from __future__ import annotations

import numpy as np

_RNG = np.random.default_rng(0)
_X = _RNG.normal(size=(256, 6)) * np.array([1.0, 3.0, 0.5, 2.0, 1.5, 4.0])
_W = np.array([1.5, -2.0, 0.7, 1.0, -0.4, 0.3])
_Y_REG = _X @ _W + 3.0 + _RNG.normal(scale=0.5, size=256)
_Y_CLS = (_X @ _W + _RNG.normal(scale=1.0, size=256) > 0).astype(float)


def train(lr: float, epochs: int, momentum: float = 0.0, task: str = "reg") -> float:
    """The final training loss of ``epochs`` full-batch steps at ``lr``."""
    X = _X
    y = _Y_REG if task == "reg" else _Y_CLS
    w = np.zeros(X.shape[1])
    b = 0.0
    vw = np.zeros_like(w)
    vb = 0.0
    loss = float("nan")
    with np.errstate(all="ignore"):
        for _ in range(max(1, int(epochs))):
            z = X @ w + b
            if task == "reg":
                r = z - y
                loss = float(np.mean(r * r))
                gw, gb = 2 * X.T @ r / len(y), 2 * float(np.mean(r))
            else:
                p = 1.0 / (1.0 + np.exp(-z))
                loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
                gw, gb = X.T @ (p - y) / len(y), float(np.mean(p - y))
            vw = momentum * vw + gw
            vb = momentum * vb + gb
            w = w - lr * vw
            b = b - lr * vb
    return loss
