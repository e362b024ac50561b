"""A loss printed as the epoch's running mean, restarting at each epoch (flair's ``epoch 1 - iter 3/13 - loss 0.746``,
a tqdm postfix of the epoch's average so far: d3rlpy's), judged by its epochs' complete means.

The j-th print of an epoch is the mean of the epoch's first j intervals, so its change from the print before is
(the new interval's mean - the mean so far) / j: changes that shrink as 1/j through each epoch and jump back up at
each restart. Read as a plain series, an epoch's first prints (a mean of one or two batches, the noisiest) set the
best level, and the smoothing of the later ones makes the noise estimate a fraction of the batches' noise: a healthy
run's restart reads as a sustained rise many noise units high. Where the reader knows the epochs (a counter ``n/N``
that restarts each epoch: ``steps_per_epoch`` in the run's config), a train loss whose changes fall as 1/j through
each epoch (the likelihood ratio against changes of one size, over the epoch and without its restart) and jump back
up at its restarts is judged by each complete epoch's last print: the epoch's mean, what the library's own epoch
summary says (flair's ``EPOCH 1 done: loss 0.7413``). Before its first restart nothing tells it from a per-batch
loss: it is judged as printed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

MIN_PERIOD = 4  # prints per epoch: fewer leave no shape to recognise
MIN_EVIDENCE = 3.0  # nats by which "change j of an epoch has scale s / j" beats "changes of one size" (Laplace
# scales, each fitted)...
MIN_EVIDENCE_WITHIN = 0.5  # ...and within each epoch, its restart left out
RESTART_RATIO = 3.0  # ...and the restarts' changes, on median, this many times those of the epochs' second halves


def _decimals(v: np.ndarray, most: int = 12) -> int:
    """The decimals the values were printed with (the fewest that give every value back)."""
    scale = np.maximum(np.abs(v), 1e-300)
    for d in range(most + 1):
        if np.all(np.abs(np.round(v, d) - v) <= 1e-9 * scale):
            return d
    return most


def positions(steps: np.ndarray, steps_per_epoch: int) -> np.ndarray | None:
    """Each point's place in its epoch (1 for the epoch's first print), epochs being ``steps_per_epoch`` steps long
    and counted from the series' first step's (a counter from 0 or 1); None for a series that does not start in its
    first epoch (its epochs' bounds are not known)."""
    st = np.asarray(steps, dtype=np.int64)
    if not len(st) or st[0] >= steps_per_epoch or st[0] < 0:
        return None
    epoch = (st - st[0]) // steps_per_epoch
    first = np.concatenate(([True], epoch[1:] != epoch[:-1]))
    start = np.maximum.accumulate(np.where(first, np.arange(len(epoch)), 0))
    return np.arange(len(epoch)) - start + 1


def is_running_mean(values: np.ndarray, j: np.ndarray) -> bool:
    """Whether ``values`` (finite, in step order), printed at places ``j`` in their epochs, have a restarting running
    mean's shape: changes that fall as 1/j through each epoch, and big ones at its restarts."""
    v = np.asarray(values, dtype=np.float64)
    if len(v) < 2 * MIN_PERIOD or not np.all(np.isfinite(v)):
        return False
    jj = j[1:]
    restarts = (jj == 1) & (j[:-1] >= MIN_PERIOD)  # an epoch of several prints, then the next one's first
    if not restarts.any():
        return False
    a = np.abs(np.diff(v)) + max(0.5 * 10.0 ** -_decimals(v), 1e-12 * float(np.max(np.abs(v)) or 1.0))
    late = a[2 * jj > np.max(j)]
    if not len(late) or float(np.median(a[restarts])) < RESTART_RATIO * float(np.median(late)):
        return False
    within = ~restarts  # the fall through each epoch, apart from its restart (a jump at each epoch's start is no mean)
    return _evidence(a, jj) >= MIN_EVIDENCE and _evidence(a[within], jj[within]) >= MIN_EVIDENCE_WITHIN


def _evidence(a: np.ndarray, j: np.ndarray) -> float:
    """Nats by which changes ``a`` at places ``j`` fit "scale s / j" better than "one scale" (Laplace, fitted)."""
    return float(np.log(j).sum() + len(a) * (np.log(a.mean()) - np.log((a * j).mean()))) if len(a) else 0.0


def undone(series: pd.Series, steps_per_epoch: int | None, name: str = "the loss") -> tuple[pd.Series, str] | None:
    """The series a restarting running mean stands for (its epochs' complete means: each epoch's last print, at its
    step) and a note saying so; None when ``series`` is no such running mean (or its epochs are not known)."""
    if not steps_per_epoch or steps_per_epoch < MIN_PERIOD:
        return None
    s = series.dropna()
    if len(s) != len(series):
        return None  # a non-finite value: what the run printed is the evidence, as it is
    v = s.to_numpy(dtype=np.float64)
    j = positions(s.index.to_numpy(), steps_per_epoch)
    if j is None or not is_running_mean(v, j):
        return None
    # the print before a restart: its epoch's complete mean; the newest print too once its epoch has as many prints
    # as the complete ones (the run's last epoch, finished)
    ends = np.concatenate((j[1:] == 1, [bool(j[-1] >= np.max(j[:-1][j[1:] == 1]))]))
    out = pd.Series(v[ends], index=s.index[ends], dtype=np.float64)
    note = (f"{name} is printed as the epoch's running mean, restarting every epoch of "
            f"{steps_per_epoch} steps: judged by its epochs' complete means (each epoch's last print)")
    return out, note
