"""Baseline stopping rules from other tools, each as documented by its source, for the replay benchmark.

Every rule is causal: ``first_fire(...)`` returns the first logged step at
which the rule, fed the values in order, would have fired (or None). The
benchmark says a baseline "stops" at the first check whose step is at or
after that step, i.e. the first check where the rule fired on the data seen
so far. Rules see one series: the run's primary train loss (the eval metric
for early stopping), as the frame's roles choose it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from training_check.tools.frame import MetricFrame


@dataclass(frozen=True)
class Baseline:
    name: str
    source: str  # where the rule is documented
    first_fire: Callable[[MetricFrame, int | None], int | None]  # (frame, total_steps) -> first step it fires


def loss_series(frame: MetricFrame) -> pd.Series | None:
    """The series the loss rules watch: the primary train loss, else the first lower-is-better eval metric."""
    name = frame.primary_loss
    if name is None:
        evals = [k for k in frame.names("eval") if frame.roles[k].direction == "min"]
        name = evals[0] if evals else None
    return frame.series[name] if name else None


def nonfinite_first(frame: MetricFrame, total_steps: int | None = None) -> int | None:
    """Stop at the first non-finite loss value.

    Keras ``TerminateOnNaN`` ("terminates training when a NaN loss is encountered",
    keras.io/api/callbacks/terminate_on_nan) and Lightning ``EarlyStopping(check_finite=True)``
    ("stops training when the monitor becomes NaN or infinite").
    """
    s = loss_series(frame)
    if s is None:
        return None
    bad = ~np.isfinite(s.to_numpy())
    return int(s.index[np.argmax(bad)]) if bad.any() else None


def wandb_zscore_first(frame: MetricFrame, total_steps: int | None = None, threshold: float = 3.0,
                       window: int = 30) -> int | None:
    """Alert when the newest loss value's z-score against the previous ``window`` values exceeds ``threshold``.

    W&B Automations, "Run metrics z-score change" trigger (docs.wandb.ai/guides/automations: the
    z-score of a metric's value relative to the mean and standard deviation of a window of its recent
    values; threshold 3 and a window of 30 as configured here). Non-finite values count as an alert.
    """
    s = loss_series(frame)
    if s is None:
        return None
    v, steps = s.to_numpy(), s.index.to_numpy()
    for i in range(len(v)):
        if not np.isfinite(v[i]):
            return int(steps[i])
        if i < window:
            continue
        w = v[i - window : i]
        w = w[np.isfinite(w)]
        if len(w) < 2:
            continue
        sd = w.std()
        if sd > 0 and abs(v[i] - w.mean()) / sd > threshold:
            return int(steps[i])
    return None


def kill_loss_spike_first(frame: MetricFrame, total_steps: int | None = None, multiplier: float = 2.0,
                          patience: int = 5, min_window: int = 100, window_fraction: float = 0.05) -> int | None:
    """Fire when the loss is >= ``multiplier`` x its rolling mean for ``patience`` logs in a row.

    llm-foundry ``KillLossSpike`` callback (llmfoundry/callbacks/kill_loss_spike_callback.py:
    outlier_multiplier 2, patience 5 consecutive outliers, window max(100, 5% of the run)). The window
    counts logged values (5% of the run's logged values when ``total_steps`` is known, scaled by the
    logging interval); it must be full before the rule can fire, and outliers are not added to it.
    Non-finite losses count as outliers.
    """
    s = loss_series(frame)
    if s is None:
        return None
    v, steps = s.to_numpy(), s.index.to_numpy()
    window = min_window
    if total_steps and len(steps) > 1:
        interval = max(1.0, float(np.median(np.diff(steps))))
        window = max(min_window, int(window_fraction * total_steps / interval))
    hist: list[float] = []
    run = 0
    for i in range(len(v)):
        full = len(hist) >= window
        mean = float(np.mean(hist[-window:])) if full else float("nan")
        outlier = full and (not np.isfinite(v[i]) or v[i] >= multiplier * mean)
        if outlier:
            run += 1
            if run >= patience:
                return int(steps[i])
        else:
            run = 0
            if np.isfinite(v[i]):
                hist.append(float(v[i]))
    return None


def megatron_spike_first(frame: MetricFrame, total_steps: int | None = None, factor: float = 10.0,
                         n_first: int = 100) -> int | None:
    """Flag a loss >= ``factor`` x the maximum of the first ``n_first`` values (non-finite also flags).

    Megatron-LM ``RerunStateMachine.is_unexpectedly_large`` used as the "Spiky loss" check in
    megatron/training/training.py (threshold 10 against the max of the first 100 samples).
    """
    s = loss_series(frame)
    if s is None:
        return None
    v, steps = s.to_numpy(), s.index.to_numpy()
    for i in range(len(v)):
        if not np.isfinite(v[i]):
            return int(steps[i])
    if len(v) <= n_first:
        return None
    first = v[:n_first]
    ref = np.max(np.abs(first[np.isfinite(first)])) if np.isfinite(first).any() else None
    if ref is None:
        return None
    hit = np.nonzero(np.abs(v[n_first:]) >= factor * ref)[0]
    return int(steps[n_first + hit[0]]) if len(hit) else None


def early_stopping_first(frame: MetricFrame, total_steps: int | None = None, patience: int = 3,
                         min_delta: float = 0.0) -> int | None:
    """Stop when the monitored metric has not improved for ``patience`` evaluations in a row.

    Lightning ``EarlyStopping(monitor, patience=3, min_delta=0, check_finite=True)``
    (lightning.ai/docs/pytorch/stable/common/early_stopping.html). Monitors the first eval metric (its
    direction from its name); with no eval metric, every logged train-loss value counts as one evaluation.
    """
    evals = frame.names("eval")
    if evals:
        name = next((k for k in evals if "loss" in k.lower()), evals[0])
        s, mode = frame.series[name], frame.roles[name].direction or "min"
    else:
        s, mode = loss_series(frame), "min"
    if s is None:
        return None
    v, steps = s.to_numpy(), s.index.to_numpy()
    best, wait = None, 0
    for i in range(len(v)):
        x = v[i]
        if not np.isfinite(x):
            return int(steps[i])
        better = best is None or (x < best - min_delta if mode == "min" else x > best + min_delta)
        if better:
            best, wait = x, 0
        else:
            wait += 1
            if wait >= patience:
                return int(steps[i])
    return None


BASELINES: tuple[Baseline, ...] = (
    Baseline("nonfinite", "Keras TerminateOnNaN / Lightning check_finite", nonfinite_first),
    Baseline("wandb_z3", "W&B automations z-score |z|>3, window 30", wandb_zscore_first),
    Baseline("kill_spike", "llm-foundry KillLossSpike (2x mean, 5 in a row)", kill_loss_spike_first),
    Baseline("megatron_10x", "Megatron-LM spiky loss (10x max of first 100)", megatron_spike_first),
    Baseline("early_stop", "Lightning EarlyStopping patience 3", early_stopping_first),
)
