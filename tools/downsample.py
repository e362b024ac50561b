"""Downsampling that keeps what matters: every spike (per-bucket min and max, as in M4 / min-max bucketing)
and every stretch of non-finite values (its first and last point), never plain striding."""

from __future__ import annotations

import numpy as np


def downsample(steps: np.ndarray, values: np.ndarray, max_points: int = 50) -> np.ndarray:
    """Indices (sorted) of at most ``max_points`` points: first, last, non-finite stretch ends, bucket extremes."""
    n = len(steps)
    if n <= max_points:
        return np.arange(n)
    if max_points < 2:
        return np.array([n - 1])
    finite = np.isfinite(values)
    keep: list[np.ndarray] = [np.array([0, n - 1])]
    if not finite.all():
        bad = ~finite
        edges = np.flatnonzero(np.diff(bad.astype(np.int8)))  # a stretch starts after / ends at an edge
        starts = np.concatenate([[0] if bad[0] else [], edges[~bad[edges]] + 1]).astype(int)
        ends = np.concatenate([edges[bad[edges]], [n - 1] if bad[-1] else []]).astype(int)
        nf = np.unique(np.concatenate([starts, ends]))
        if len(nf) > max_points // 2:  # too many stretches to list: keep evenly chosen ones
            nf = nf[np.linspace(0, len(nf) - 1, max_points // 2).astype(int)]
        keep.append(nf)
    used = len(np.unique(np.concatenate(keep)))
    buckets = max(1, (max_points - used) // 2)
    fidx = np.flatnonzero(finite)
    if len(fidx):
        bounds = np.linspace(0, len(fidx), buckets + 1).astype(int)
        fv = values[fidx]
        flat = 0.01 * float(fv.max() - fv.min())  # a bucket spanning less than this keeps one point, not two
        for a, b in zip(bounds[:-1], bounds[1:], strict=True):
            if b > a:
                seg = fv[a:b]
                lo, hi = a + int(np.argmin(seg)), a + int(np.argmax(seg))
                keep.append(fidx[[lo, hi]] if fv[hi] - fv[lo] > flat else fidx[[b - 1]])
    out = np.unique(np.concatenate(keep))
    if len(out) > max_points:  # rounding left us a little over: drop interior finite points evenly
        must = np.unique(np.concatenate(keep[:2]))
        rest = np.setdiff1d(out, must)
        room = max(0, max_points - len(must))
        rest = rest[np.linspace(0, len(rest) - 1, room).astype(int)] if room else rest[:0]
        out = np.unique(np.concatenate([must, rest]))
        if len(must) > max_points:
            out = out[-max_points:]
    return out
