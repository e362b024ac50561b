"""A rise of a few x in a run's first logs asks a reviewer until more of the run confirms it (tools/judge.py,
``_early_modest_rise``); a run of few logs (an epoch a log) confirms it by its planned length: a divergence held over
three quarters of the planned run (``CONFIRM_SHARE``, ``_held_over_plan``) STOPs whatever its count of logs.
Synthetic series."""

from __future__ import annotations

import numpy as np
from training_check.tools.assess import run_signals
from training_check.tools.judge import CONFIRM_SHARE, ESCALATE, STOP, judge
from training_check.tools.signals.view import build_view

from .synthetic import frame_of

# an epoch's summed loss: 22 at the first epoch, 2.2x from the second on and never back (RecBole's BPR under lr=1000)
RISEN = np.array([22.1, 48.1, 47.7, 47.0, 47.6, 49.3, 49.1, 47.6, 50.9, 49.1, 50.3, 51.5])


def _verdict(values: np.ndarray, total: int | None) -> str:
    view = build_view(frame_of(np.arange(len(values)), {"train_loss": values}), total)
    return judge(run_signals(view), view).verdict


def test_a_rise_held_over_half_the_planned_run_stops():
    assert CONFIRM_SHARE == 0.75
    # 12 epochs planned (steps 0-11): at epoch 10 the rise (since epoch 1) has held over 9 of them
    assert _verdict(RISEN[:11], total=11) == STOP
    # ...at epoch 7, 6 of 11: the run has not confirmed it yet
    assert _verdict(RISEN[:8], total=11) == ESCALATE


def test_the_same_rise_without_a_planned_length_or_in_a_long_plan_asks():
    assert _verdict(RISEN, total=None) == ESCALATE  # no plan: the count of logs is all there is
    assert _verdict(RISEN, total=100) == ESCALATE  # 11 of 100 planned epochs: the start's swing may still pass


def test_a_rise_that_came_back_never_stops_by_its_plan():
    # a detector's losses 2x over its first epochs, back near where they started by epoch 9 of 12
    back = np.array([2.3, 2.7, 2.5, 2.9, 3.8, 4.6, 5.2, 4.8, 3.0, 2.6, 2.4, 2.35])
    got = [_verdict(back[:k], total=12) for k in range(4, len(back) + 1)]
    assert STOP not in got, got
