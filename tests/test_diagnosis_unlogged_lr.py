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
