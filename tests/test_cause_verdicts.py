"""Verdicts the diagnosis depends on (issue 21), fixed in general: an LR that keeps rising past where the loss was
best is flagged, identical evals with a flat train loss (frozen weights) are flagged, a loss that barely moves is
flagged; none of these rules fires on a healthy warmup or a converged run."""

from __future__ import annotations

import numpy as np
from training_check.tools.assess import run_signals
from training_check.tools.findings import OK, WARN
from training_check.tools.judge import CONTINUE, ESCALATE, judge
from training_check.tools.signals import eval_health, lr_schedule
from training_check.tools.signals.view import build_view

from tests.synthetic import frame_of


def _rising_lr_run(turn_up: bool):
    rng = np.random.default_rng(5)
    steps = np.arange(1, 601)
    lr = 1e-3 * steps / 25  # lr * step / warmup with no min(1, .): 24x by the end
    loss = 1.0 + 1.3 * np.exp(-steps / 60)
    if turn_up:
        loss = loss + np.where(steps > 150, 0.0015 * (steps - 150), 0.0)
    return steps, {"loss": loss + 0.02 * rng.standard_normal(600), "lr": lr}


def test_an_lr_rising_past_where_the_loss_was_best_is_flagged():
    steps, cols = _rising_lr_run(turn_up=True)
    f = lr_schedule.check(build_view(frame_of(steps, cols)))
    assert f.status == WARN and f.concern == "lr_schedule", f.message
    assert "still rising" in f.message and "min(1, step / warmup)" in f.message


def test_a_rising_lr_under_an_improving_loss_is_not_flagged():
    steps, cols = _rising_lr_run(turn_up=False)
    f = lr_schedule.check(build_view(frame_of(steps, cols)))
    assert f.status == OK, f.message


def _frozen_run(identical: bool):
    rng = np.random.default_rng(6)
    steps = np.arange(1, 301)
    loss = 2.31 + 0.02 * rng.standard_normal(300)
    val = [None] * 300
    for i in range(24, 300, 25):
        val[i] = 2.3168 if identical else 2.3168 - 0.01 * (i // 25)
    return steps, {"loss": loss, "lr": np.full(300, 1e-3), "val_loss": val}


def test_identical_evals_under_a_flat_loss_are_flagged_early():
    """Weights that never change: the same eval to 4 decimals 12 times. Early in a long run (3 %), where the
    plateau rule waits, the evals alone show it."""
    steps, cols = _frozen_run(identical=True)
    view = build_view(frame_of(steps, cols), total_steps=10_000)
    f = next(x for x in eval_health.check(view) if x.signal == "eval")
    assert f.status == WARN and f.concern == "plateau" and "identical (2.3168)" in f.message
    findings = run_signals(view)
    assert judge(findings, view).verdict == ESCALATE


def test_changing_evals_are_not_frozen():
    steps, cols = _frozen_run(identical=False)
    view = build_view(frame_of(steps, cols), total_steps=10_000)
    f = next(x for x in eval_health.check(view) if x.signal == "eval")
    assert f.status == OK, f.message


def test_coarse_evals_that_repeat_are_not_frozen():
    steps, cols = _frozen_run(identical=True)
    cols["val_loss"] = [None if v is None else 2.32 for v in cols["val_loss"]]  # logged with 2 decimals
    view = build_view(frame_of(steps, cols), total_steps=10_000)
    f = next(x for x in eval_health.check(view) if x.signal == "eval")
    assert f.status == OK, f.message


def test_a_loss_that_barely_moves_is_flagged():
    rng = np.random.default_rng(7)
    steps = np.arange(1, 601)
    loss = 3.12 - 0.01 * steps / 600 + 0.0005 * rng.standard_normal(600)  # a 0.3 % gain: an LR far too small
    view = build_view(frame_of(steps, {"loss": loss, "lr": np.full(600, 1e-6)}))
    findings = run_signals(view)
    j = judge(findings, view)
    assert j.verdict == ESCALATE and "barely improving" in j.summary


def test_a_converging_loss_is_not_barely_moving():
    rng = np.random.default_rng(8)
    steps = np.arange(1, 601)
    loss = 1.0 + 2.0 * np.exp(-steps / 150) + 0.005 * rng.standard_normal(600)
    view = build_view(frame_of(steps, {"loss": loss, "lr": np.full(600, 1e-3)}))
    j = judge(run_signals(view), view)
    assert j.verdict == CONTINUE, j.summary
