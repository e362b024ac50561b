"""With no LR logged, the loss's own shape says what it can (tools/diagnosis.py, ``_fell_long_before``): a loss that
fell for most of the run before it rose trained under a workable LR first, so a schedule that grew it is the likelier
cause (lr_schedule, 0.5); one that rose from its first logs had an LR too high from the start (lr_too_high, 0.45).
Real runs of examples/libraries_holdout and examples/frameworks, checked at the step their first STOP came."""

from __future__ import annotations

from pathlib import Path

from training_check.tools.assess import assess_run
from training_check.tools.judge import STOP

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _stop_cause(run: str, step: int, store, config) -> tuple[str, float]:
    a = assess_run(str(EXAMPLES / run / "train.log"), store=store, config=config, as_of_step=step)
    assert a.verdict == STOP and a.diagnosis is not None, a.summary
    return a.diagnosis.cause, a.diagnosis.confidence


def test_a_loss_that_trained_then_rose_under_an_unlogged_ramp_is_a_schedule(store, config):
    # TabNet under an LR multiplied each epoch (not logged): best at its 5th of 8 logs, then up 10x
    cause, conf = _stop_cause("libraries_holdout/tabnet_cls_lr_ramp_diverged", 10, store, config)
    assert (cause, conf) == ("lr_schedule", 0.5)


def test_a_loss_that_rose_from_its_first_logs_is_an_lr_too_high(store, config):
    # XGBoost with eta far too high: its best is its first log
    cause, conf = _stop_cause("frameworks/xgb_eta_huge_diverged", 40, store, config)
    assert (cause, conf) == ("lr_too_high", 0.45)


def test_an_rl_return_that_collapsed_is_a_step_too_large(store, config):
    # tianshou's PPO under lr=huge, no LR logged: its test reward fell from 21.8 to 9 (its losses are no evidence)
    a = assess_run(str(EXAMPLES / "libraries3/tianshou_ppo_lr_huge_collapse/train.log"), store=store, config=config,
                   as_of_step=24000)
    d = a.diagnosis
    assert d is not None and (d.cause, d.confidence) == ("lr_too_high", 0.45), a.summary
    assert d.onset_step == 4000 and any("lower" in str(x) for x in d.actions)


def _cause_of(values: list[float]) -> tuple[str, float]:
    """The diagnosis of a synthetic loss logged once an epoch, no LR logged, at its first STOP (checked log after
    log, as the judge judges it)."""
    import numpy as np
    from training_check.tools.assess import run_signals
    from training_check.tools.diagnosis import diagnose
    from training_check.tools.judge import judge
    from training_check.tools.signals.view import build_view

    from .synthetic import frame_of

    for k in range(4, len(values) + 1):
        view = build_view(frame_of(np.arange(1, k + 1), {"train_loss": np.array(values[:k])}), None)
        findings = run_signals(view)
        if judge(findings, view).verdict == STOP:
            d = diagnose(view, findings, STOP)
            return d.cause, d.confidence
    raise AssertionError("never stopped")


def test_a_loss_that_fell_over_its_first_epoch_then_climbed_is_a_schedule():
    # an epoch a log under an unlogged ramp (TensorFlow/Keras, PyPOTS, DeepChem of libraries_holdout4): down 60 % by
    # the 3rd log, then multiplied log after log
    assert _cause_of([0.73, 0.28, 0.23, 0.37, 1.06, 9.2, 48.1, 181.0, 567.0, 4343.0]) == ("lr_schedule", 0.5)


def test_a_loss_a_hair_under_its_first_log_then_up_never_trained():
    # DeepFM under lr=50: 40.79 then 40.68 (0.3 % lower) then up 20x: no epoch of training, an LR too high
    assert _cause_of([40.79, 40.68, 88.4, 262.0, 921.8, 899.5, 877.6, 856.7, 870.0, 880.0]) == ("lr_too_high", 0.45)


def test_a_loss_rising_from_its_first_log_is_an_lr_too_high():
    assert _cause_of([1.4, 3.0, 6.6, 14.6, 33.1, 76.8, 180.0, 423.0, 997.0, 2360.0]) == ("lr_too_high", 0.45)
