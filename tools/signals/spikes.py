"""Spikes: points far above the rolling median, in robust z-scores (median/MAD).

The seed's rule of thumb is a jump of more than 10x the normal variance; a
spike that comes back down is a note, repeated or growing spikes are a
warning, and one at the very end that has not come back yet asks for a sooner
look. (Robust z-scores: Iglewicz & Hoaglin 1993; W&B alerts use |z| > 3.)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..findings import OK, WARN, Finding, nums
from .curve import diff_noise
from .view import RunView

WINDOW_POINTS = 2000  # spikes are looked for among the newest points only


def check(view: RunView, z_spike: float = 10.0, window: int = 25, repeated: int = 3,
          recent_points: int = 200, min_points: int = 20, max_share: float = 0.05, growth: float = 1.5) -> Finding:
    """Flag points with robust z > ``z_spike`` against a rolling median of ``window`` points; warn when
    ``repeated`` or more fall in the last ``recent_points`` logs, or each of the last three is ``growth`` x the one
    before."""
    c = view.curve
    name = view.objective
    if c is None or c.n < min_points:
        return Finding("spikes", OK, "too few points to look for spikes")
    if view.adversarial:
        return Finding("spikes", OK, f"{name} is an adversarial/RL loss: swings are expected")
    steps, v = c.steps[-WINDOW_POINTS:], c.values[-WINDOW_POINTS:]
    sigma = c.sigma
    if name and ("ppl" in name.lower() or "perplexity" in name.lower()) and np.all(v > 0):
        v = np.log(v)  # perplexity is exp(loss): judge its spikes on the loss scale
        sigma = diff_noise(v)
    base = pd.Series(v).rolling(window, center=False, min_periods=5).median().shift(1).to_numpy()
    resid = v - base
    scale = max(sigma * np.sqrt(2), 1e-12 * max(1.0, float(np.nanmedian(np.abs(v)))))
    # A loss sigma from successive differences: a spike is a rise far beyond it.
    z = resid / (scale if scale > 0 else 1.0)
    idx = np.flatnonzero(np.nan_to_num(z, nan=0.0) > z_spike)
    if not len(idx):
        return Finding("spikes", OK, f"no spikes in the last {len(v)} logs of {name}")
    if len(idx) > max_share * len(v) + 1:
        # Outliers this common are the curve's noise (heavy tails), not spikes.
        return Finding("spikes", OK, f"{name} is heavy-tailed noisy ({len(idx)} large jumps in {len(v)} logs), no isolated spikes",
                       numbers=nums(jumps=len(idx), points=len(v)))
    recent_idx = idx[idx >= len(v) - recent_points]
    last_i = len(v) - 1
    unrecovered = bool(len(idx) and idx[-1] >= last_i - 1 and z[last_i] > z_spike / 2)
    heights = resid[recent_idx]
    growing = len(heights) >= 3 and bool(np.all(heights[-2:] >= growth * heights[-3:-1]))
    info = nums(spikes=len(idx), recent=len(recent_idx), max_z=float(np.nanmax(z[idx])), last_spike_step=int(steps[idx[-1]]))
    span = [int(steps[idx[0]]), int(steps[idx[-1]])]
    if unrecovered:
        return Finding("spikes", WARN, f"{name} spiked at step {int(steps[idx[-1]])} (z={z[idx[-1]]:.0f}) and has not come back yet",
                       span, info, concern="spike", fresh=True)
    if len(recent_idx) >= repeated or growing:
        what = "growing" if growing else "repeated"
        return Finding("spikes", WARN, f"{len(recent_idx)} {what} spikes in {name} over the last {min(recent_points, len(v))} logs",
                       span, info, concern="instability")
    return Finding("spikes", OK, f"{len(idx)} spike(s) in {name}, each recovered (last at step {int(steps[idx[-1]])})", span, info)
