"""Spikes: points far above the rolling median, in robust z-scores (median/MAD).

The seed's rule of thumb is a jump of more than 10x the normal variance; a
spike that comes back down is a note, repeated or growing spikes are a
warning, and one at the very end that has not come back yet asks for a sooner
look. (Robust z-scores: Iglewicz & Hoaglin 1993; W&B alerts use |z| > 3.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..findings import OK, WARN, Finding, nums, times
from .curve import diff_noise
from .params import Params, bound
from .view import RunView

WINDOW_POINTS = 2000  # spikes are looked for among the newest points only
_EPS = 1e-12  # relative floor of the noise scale (an exactly flat curve must not divide by zero)


@dataclass(frozen=True)
class SpikesParams(Params):
    z_spike: float = bound(10.0, 0.0, above=True)  # a point this many robust noise units above the rolling median
    window: int = bound(25, 2)  # the rolling median's length, in logs
    window_min: int = bound(5, 1)  # the rolling median needs this many earlier logs
    repeated: int = bound(3, 1)  # this many spike episodes in the newest recent_points logs: instability
    recent_points: int = bound(200, 1)
    min_points: int = bound(20, 2)  # finite objective points before spikes are looked for
    max_share: float = bound(0.05, 0.0, 1.0)  # more spikes than this share of the logs: heavy-tailed noise
    growth: float = bound(1.5, 1.0, above=True)  # each of the last three spikes this many times the one before
    episode_gap: int = bound(5, 1)  # spikes fewer than this many logs apart are one episode
    unrecovered_share: float = bound(0.5, 0.0, 1.0)  # the newest log still above this share of z_spike: unrecovered
    log_range: float = bound(10.0, 1.0)  # a positive loss whose level spans this factor is judged on the log scale


DEFAULT = SpikesParams()


def check(view: RunView, p: SpikesParams = DEFAULT) -> Finding:
    """Flag points with robust z > ``z_spike`` against a rolling median of ``window`` points; warn when
    ``repeated`` or more spike episodes fall in the last ``recent_points`` logs, or each of the last three spikes is
    ``growth`` x the one before. Spikes fewer than ``episode_gap`` logs apart are one episode (one bad batch, or the
    few logs an optimizer takes to absorb it), not a repetition."""
    c = view.curve
    name = view.objective
    if c is None or c.n < p.min_points:
        return Finding("spikes", OK, "too few points to look for spikes")
    if view.adversarial:
        return Finding("spikes", OK, f"{name} is an adversarial/RL loss: swings are expected")
    steps, v = c.steps[-WINDOW_POINTS:], c.values[-WINDOW_POINTS:]
    sigma = c.sigma
    if name and ("ppl" in name.lower() or "perplexity" in name.lower()) and np.all(v > 0):
        v = np.log(v)  # perplexity is exp(loss): judge its spikes on the loss scale
        sigma = diff_noise(v)
    base = _rolling_base(v, p)
    level = base[np.isfinite(base)]
    low = float(level.min()) if len(level) else 0.0
    if low > 0 and np.all(v > 0) and float(level.max()) > p.log_range * low:
        # a loss that fell by orders of magnitude has noise in proportion to its level (a classifier's batch loss
        # near 0.5 moves by 0.5, near 0.005 by 0.005): judged on the log scale, one noise scale fits all of it
        v = np.log(v)
        sigma = diff_noise(v)
        base = _rolling_base(v, p)
    resid = v - base
    scale = max(sigma * np.sqrt(2), _EPS * max(1.0, float(np.nanmedian(np.abs(v)))))
    # A loss sigma from successive differences: a spike is a rise far beyond it.
    z = resid / (scale if scale > 0 else 1.0)
    idx = np.flatnonzero(np.nan_to_num(z, nan=0.0) > p.z_spike)
    if not len(idx):
        return Finding("spikes", OK, f"no spikes in the last {len(v)} logs of {name}")
    if len(idx) > p.max_share * len(v) + 1:
        # Outliers this common are the curve's noise (heavy tails), not spikes.
        return Finding("spikes", OK,
                       f"{name} is heavy-tailed noisy ({len(idx)} large jumps in {len(v)} logs), no isolated spikes",
                       numbers=nums(jumps=len(idx), points=len(v)))
    recent_idx = idx[idx >= len(v) - p.recent_points]
    last_i = len(v) - 1
    unrecovered = bool(len(idx) and idx[-1] >= last_i - 1 and z[last_i] > p.unrecovered_share * p.z_spike)
    heights = resid[recent_idx]
    growing = len(heights) >= 3 and bool(np.all(heights[-2:] >= p.growth * heights[-3:-1]))
    info = nums(spikes=len(idx), recent=len(recent_idx), max_z=float(np.nanmax(z[idx])),
                last_spike_step=int(steps[idx[-1]]))
    span = [int(steps[idx[0]]), int(steps[idx[-1]])]
    if unrecovered:
        return Finding("spikes", WARN,
                       f"{name} spiked at step {int(steps[idx[-1]])} ({times(z[idx[-1]])} the noise) and has not come "
                       f"back yet",
                       span, info, concern="spike", fresh=True)
    episodes = _episodes(recent_idx, p.episode_gap)
    if episodes >= p.repeated or growing:
        what = "growing spikes" if growing else f"repeated spikes ({episodes} separate episodes)"
        return Finding("spikes", WARN,
                       f"{len(recent_idx)} {what} in {name} over the last {min(p.recent_points, len(v))} logs",
                       span, info, concern="instability")
    return Finding("spikes", OK, f"{len(idx)} spike(s) in {name}, each recovered (last at step {int(steps[idx[-1]])})",
                   span, info)


def _rolling_base(v: np.ndarray, p: SpikesParams) -> np.ndarray:
    """The rolling median of the ``window`` logs before each one."""
    return pd.Series(v).rolling(p.window, center=False, min_periods=p.window_min).median().shift(1).to_numpy()


def _episodes(idx: np.ndarray, gap: int) -> int:
    """How many runs of spike indices there are, counting indices fewer than ``gap`` apart as one run."""
    if not len(idx):
        return 0
    return 1 + int((np.diff(idx) >= gap).sum())
