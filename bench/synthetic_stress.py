"""Randomised stress of the judge on synthetic curves of many shapes (not the labelled corpora): false STOP and
ESCALATE rates on healthy runs, STOP recall and delay on NaN / diverging runs. Prints figures.

    .venv/bin/python bench/synthetic_stress.py [--runs 200] [--seed 0]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.synthetic import replay  # noqa: E402


def healthy(rng: np.random.Generator, n: int) -> dict:
    t = np.arange(1, n + 1, dtype=float)
    floor, amp = rng.uniform(0.2, 3.0), rng.uniform(1.0, 8.0)
    if rng.random() < 0.5:
        y = floor + amp * (t / rng.uniform(5, 50)) ** -rng.uniform(0.2, 0.7)
    else:
        y = floor + amp * np.exp(-t / rng.uniform(0.05, 0.4) / n)
    scale = rng.uniform(0.005, 0.15) * (floor + 0.2 * amp)
    noise = rng.standard_t(rng.choice([3, 5, 30]), n) * scale
    y = np.abs(y + noise)  # a loss is not negative (heavy-tailed noise near a low floor would make it so)
    for _ in range(rng.integers(0, 4)):  # single-batch outliers that revert at once
        y[rng.integers(n // 10, n)] += rng.uniform(3, 10) * scale * 5
    kind = rng.choice(["cosine", "constant", "step", "linear"])
    warm = max(1, int(rng.uniform(0, 0.1) * n))
    base = np.minimum(t / warm, 1.0) * 3e-4
    lr = {"cosine": base * 0.5 * (1 + np.cos(np.pi * t / n)), "constant": base,
          "step": base * 0.1 ** np.floor(3 * t / n), "linear": base * (1 - t / n + 1e-3)}[kind]
    cols = {"train_loss": y, "lr": lr}
    if rng.random() < 0.6:
        every = int(rng.integers(max(2, n // 40), max(3, n // 10)))
        val = np.full(n, None, dtype=object)
        idx = np.arange(every - 1, n, every)
        val[idx] = y[idx] * 0 + (floor + amp * np.interp(idx, np.arange(n), (y - noise - floor) / amp) + 0.1
                                 + rng.normal(0, scale / 3, len(idx)))
        cols["val_loss"] = val
    return cols


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--checks", type=int, default=20)
    a = ap.parse_args(argv)
    rng = np.random.default_rng(a.seed)
    h_runs = h_stop = h_checks = h_esc = 0
    f_runs = f_stopped = 0
    delays: list[int] = []
    for i in range(a.runs):
        n = int(rng.integers(200, 3000))
        cols = healthy(rng, n)
        steps = np.arange(1, n + 1)
        failure = i % 2 == 1
        onset = None
        if failure:
            onset = int(rng.integers(n // 4, int(0.8 * n)))
            y = np.asarray(cols["train_loss"], float).copy()
            if rng.random() < 0.5:
                y[onset:] = np.nan
            else:
                y[onset:] += np.linspace(0, rng.uniform(1, 5) * (np.nanmax(y) - np.nanmin(y)), n - onset)
            cols["train_loss"] = y
        res = replay(steps, cols, total=n, checks=a.checks)
        verdicts = [(s, j.verdict) for s, j, _ in res]
        if not failure:
            h_runs += 1
            h_stop += any(v == "STOP" for _, v in verdicts)
            h_checks += len(verdicts)
            h_esc += sum(v == "ESCALATE" for _, v in verdicts)
        else:
            f_runs += 1
            stops = [k for k, (s, v) in enumerate(verdicts) if v == "STOP" and s > onset]
            early = [s for s, v in verdicts if v == "STOP" and s <= onset]
            if stops and not early:
                f_stopped += 1
                first_after = next(k for k, (s, _) in enumerate(verdicts) if s > onset)
                delays.append(stops[0] - first_after)
    print(f"healthy runs {h_runs}: false STOP runs {h_stop} ({h_stop / max(1, h_runs):.1%}), "
          f"ESCALATE rate {h_esc / max(1, h_checks):.1%} of {h_checks} checks")
    print(f"failing runs {f_runs}: STOP recall {f_stopped / max(1, f_runs):.1%}, median delay "
          f"{statistics.median(delays) if delays else float('nan')} checks after onset")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
