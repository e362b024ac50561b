"""A loss printed as the epoch's running mean, restarting at each epoch (flair's ``epoch 1 - iter 3/13 - loss 0.746``,
a tqdm postfix of the epoch's average so far, a per-batch bar's ``loss:``), judged as what the run did between
prints.

The j-th print of an epoch is the mean of the epoch's first j intervals, so its change from the print before is
(the new interval's mean - the mean so far) / j: changes that shrink as 1/j through each epoch and jump back up at
each restart. Read as a plain series, an epoch's first prints (a mean of one or two batches, the noisiest) set the
best level, and the smoothing of the later ones makes the noise estimate a fraction of the batches' noise: a healthy
run's restart reads as a sustained rise many noise units high. Where the reader knows the epochs (a counter ``n/N``
that restarts each epoch: ``steps_per_epoch`` in the run's config), a train loss whose changes fall as 1/j through
each epoch (the likelihood ratio against changes of one size) and jump back up at its restarts is turned back into
the mean of each interval between prints, ``j m_j - (j - 1) m_(j-1)``: the values a per-batch logger would have
printed, with their honest noise. When the print's precision cannot carry that (too few decimals for the epoch's
length), the epochs' last prints (their complete means) stand for it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

MIN_PERIOD = 4  # prints per epoch: fewer leave no shape to recognise
MIN_EVIDENCE = 3.0  # nats by which "change j of an epoch has scale s / j" beats "changes of one size" (Laplace
# scales, each fitted)...
RESTART_RATIO = 3.0  # ...and the restarts' changes, on median, this many times those of the epochs' second halves
PRECISION_SHARE = 0.05  # de-averaging multiplies the print's rounding by up to 2j - 1: above this share of the loss's
# level, the epochs' last prints are judged instead


def _decimals(v: np.ndarray, most: int = 12) -> int:
    """The decimals the values were printed with (the fewest that give every value back)."""
    scale = np.maximum(np.abs(v), 1e-300)
    for d in range(most + 1):
        if np.all(np.abs(np.round(v, d) - v) <= 1e-9 * scale):
            return d
    return most


def positions(steps: np.ndarray, steps_per_epoch: int) -> np.ndarray:
    """Each point's place in its epoch (1 for the epoch's first print), epochs being ``steps_per_epoch`` steps long
    from step 0."""
    epoch = (np.asarray(steps, dtype=np.int64) - 1) // max(1, int(steps_per_epoch))
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
    restarts = jj == 1
    if not restarts.any() or int(np.max(j)) < MIN_PERIOD:
        return False
    a = np.abs(np.diff(v)) + max(0.5 * 10.0 ** -_decimals(v), 1e-12 * float(np.max(np.abs(v)) or 1.0))
    evidence = float(np.log(jj).sum() + len(a) * (np.log(a.mean()) - np.log((a * jj).mean())))
    late = a[2 * jj > np.max(j)]
    return evidence >= MIN_EVIDENCE and len(late) > 0 and float(np.median(a[restarts])) >= RESTART_RATIO * float(
        np.median(late))


def undone(series: pd.Series, steps_per_epoch: int | None) -> tuple[pd.Series, str] | None:
    """The series a restarting running mean stands for (the mean of each interval between prints, or the epochs'
    complete means when the print is too coarse for that) and a note saying so; None when ``series`` is no such
    running mean (or its epochs are not known)."""
    if not steps_per_epoch or steps_per_epoch < MIN_PERIOD:
        return None
    s = series.dropna()
    if len(s) != len(series):
        return None  # a non-finite value: what the run printed is the evidence, as it is
    v = s.to_numpy(dtype=np.float64)
    j = positions(s.index.to_numpy(), steps_per_epoch)
    if not is_running_mean(v, j):
        return None
    q = 10.0 ** -_decimals(v)
    level = float(np.median(np.abs(v))) or 1.0
    per = int(np.max(j))
    if (2 * per - 1) * q / 2 > PRECISION_SHARE * level:
        ends = np.concatenate((j[1:] == 1, [False]))  # complete epochs: the print before a restart
        keep = ends
        out = pd.Series(v[keep], index=s.index[keep], dtype=np.float64)
        how = "its epochs' complete means (the last print of each epoch)"
    else:
        prev = np.concatenate(([np.nan], v[:-1]))
        x = np.where(j >= 2, j * v - (j - 1) * prev, v)
        x[0] = v[0]  # a series cut inside an epoch: its first print's batches are not known apart
        out = pd.Series(x, index=s.index, dtype=np.float64)
        how = "the mean of each interval between prints"
    note = (f"{series.name or 'the loss'} is printed as the epoch's running mean, restarting every epoch of "
            f"{steps_per_epoch} steps: judged as {how}")
    return out, note
