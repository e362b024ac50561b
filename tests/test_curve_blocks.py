"""The window's block medians (signals/curve.py ``_window_blocks``, all blocks at once) equal the per-block loop they
replaced, on any values (NaN, +-Inf, all non-finite, short last block)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from training_check.tools.signals.curve import _window_blocks


def per_block(raw: np.ndarray, steps: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    ws, wv = [], []
    for a in range(0, len(raw), size):
        seg, ss = raw[a:a + size], steps[a:a + size]
        fin = np.isfinite(seg)
        if fin.any():
            ws.append(ss[fin][-1])
            wv.append(np.median(seg[fin]))
    return np.asarray(ws, dtype=np.int64), np.asarray(wv, dtype=np.float64)


values = st.one_of(st.floats(allow_nan=False, allow_infinity=False, width=64, min_value=-1e300, max_value=1e300),
                   st.sampled_from([np.nan, np.inf, -np.inf, 0.0, 1.0]))


@settings(max_examples=400, deadline=None)
@given(st.lists(values, max_size=200), st.integers(1, 40))
def test_block_medians_equal_the_loop(xs, size):
    raw = np.asarray(xs, dtype=np.float64)
    steps = np.arange(len(raw), dtype=np.int64) * 3 + 7
    a, b = per_block(raw, steps, size)
    c, d = _window_blocks(raw, steps, size)
    assert np.array_equal(a, c.astype(np.int64))
    assert np.array_equal(b, d)
