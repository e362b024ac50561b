"""snorkel: its ``LabelModel`` fitted on a synthetic label matrix (``m`` labeling functions voting on ``n`` points with
their own coverage and accuracy, ``-1`` abstains), logging on as its tutorials do (``logging.basicConfig(level=
logging.INFO)``). Its logger on stderr: ``INFO:root:[10 epochs]: TRAIN:[loss=0.045]`` every ``log_freq`` epochs (3
decimals; the mean of the losses since the last line), between its own tqdm bar (``\\r``-redrawn, ``unit="epoch"``)
when ``progress_bar`` is on. Truth: the metrics ``LabelModel._execute_logging`` returns at the epochs it logs
(``train/loss``), at the epoch as its line counts it (0-based: ``[0 epochs]`` is the first)."""

from __future__ import annotations

import argparse
import logging
import traceback

import numpy as np
from h16_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=100)
ap.add_argument("--log-freq", type=int, default=10)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam", "adamax"])
ap.add_argument("--l2", type=float, default=0.0)
ap.add_argument("--scheduler", default="constant", choices=["constant", "linear", "exponential", "step"])
ap.add_argument("--gamma", type=float, default=0.9, help="the exponential scheduler's gamma")
ap.add_argument("--cardinality", type=int, default=2)
ap.add_argument("--lfs", type=int, default=8)
ap.add_argument("--n", type=int, default=1000)
ap.add_argument("--no-progress", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
logging.basicConfig(level=logging.INFO)

import snorkel  # noqa: E402
from snorkel.labeling.model import LabelModel  # noqa: E402

rng = np.random.default_rng(0)
y = rng.integers(0, a.cardinality, size=a.n)
L = np.full((a.n, a.lfs), -1)
for j in range(a.lfs):
    cov, acc = rng.uniform(0.3, 0.8), rng.uniform(0.6, 0.9)
    hit = rng.random(a.n) < cov
    right = rng.random(a.n) < acc
    wrong = (y + rng.integers(1, a.cardinality, size=a.n)) % a.cardinality
    L[hit, j] = np.where(right[hit], y[hit], wrong[hit])

record: list = []
_exec = LabelModel._execute_logging


def execute_logging(self, loss):
    metrics = _exec(self, loss)
    if self.logger.unit_count % self.logger.log_freq == 0:
        record.append((self.logger.unit_count, float(metrics["train/loss"])))
    return metrics


LabelModel._execute_logging = execute_logging
model = LabelModel(cardinality=a.cardinality, verbose=True)
kw = {"lr_scheduler_config": {"exponential_config": {"gamma": a.gamma}}} if a.scheduler == "exponential" else {}
try:
    model.fit(L, n_epochs=a.epochs, log_freq=a.log_freq, lr=a.lr, optimizer=a.optimizer, l2=a.l2,
              lr_scheduler=a.scheduler, seed=0, progress_bar=not a.no_progress, **kw)
    print(f"label model accuracy: {model.score(L, y, tie_break_policy='random')['accuracy']:.3f}")
except Exception:
    traceback.print_exc()

write_truth(framework=f"snorkel {snorkel.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 0-based (`[N epochs]`)", tolerance=tol_decimals(3),
            record="the metrics `LabelModel._execute_logging` returns at the epochs it logs (`train/loss`)",
            train_loss=record)
