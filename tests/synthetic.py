"""Synthetic curves for engine tests: shapes with known answers, replayed as a cron would check them."""

from __future__ import annotations

import numpy as np
from training_check.tools.assess import run_signals
from training_check.tools.frame import MetricFrame
from training_check.tools.judge import judge
from training_check.tools.points import BatchBuilder
from training_check.tools.signals.view import build_view


def frame_of(steps, cols: dict) -> MetricFrame:
    b = BatchBuilder()
    for key, vals in cols.items():
        for s, v in zip(steps, vals, strict=False):
            if v is not None:
                b.add(int(s), key, float(v))
    return MetricFrame.from_batch(b.build())


def replay(steps, cols: dict, total: int | None = None, checks: int = 20) -> list:
    """Judge the run at ``checks`` evenly spread points, carrying earlier findings like the store does.
    Returns [(step, judgment, findings)]."""
    full = frame_of(steps, cols)
    prev: list[dict] = []
    out = []
    for k in range(1, checks + 1):
        cut = int(steps[int(len(steps) * k / checks) - 1])
        fr = full.upto(cut)
        view = build_view(fr, total, prev)
        findings = run_signals(view)
        j = judge(findings, view)
        prev.insert(0, {"progress": {"step": fr.last_step}, "findings": [f.to_dict() for f in findings],
                        "verdict": j.verdict})
        out.append((cut, j, findings))
    return out


def timeline(results) -> str:
    return "".join(j.verdict[0] for _, j, _ in results)


rng = np.random.default_rng(1234)
N = 2000
T = np.arange(1, N + 1)


def power_law(noise: float = 0.05, seed: int = 0) -> np.ndarray:
    r = np.random.default_rng(seed)
    return 2.5 + 8 * T ** -0.5 + r.normal(0, noise, N)


def cosine_lr(peak: float = 1e-3, warmup: int = 100) -> np.ndarray:
    return np.minimum(T / warmup, 1) * peak * 0.5 * (1 + np.cos(np.pi * T / N))
