"""Judgement shapes of the twelfth and thirteenth blind sets (issue 32's first readings, issue 29's judgement on runs
nobody tuned it for), in general terms, each on a synthetic curve and on the real run that showed it:

- a loss that falls from a positive start through zero (a density's negative log likelihood: GPflow's and TensorFlow
  Probability's Gaussian processes) is a quantity minimised, not a surrogate hovering around zero (an RL policy loss,
  a WGAN critic's): its divergence is judged;
- a loss that goes non-finite right after a finite log above where it started by the whole fall it had made ended a
  blow-up, measured in the run's own units whatever the sign of its values: STOP at once;
- an error (RMSE, MAE, a perplexity: never below zero by what it is) logged below zero at every log is logged negated
  (AutoGluon's `Val root_mean_squared_error: -9.28`): higher is better.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from training_check.tools.assess import assess_run
from training_check.tools.judge import STOP
from training_check.tools.signals import nonfinite
from training_check.tools.signals.view import build_view

from .synthetic import frame_of

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _view(cols: dict):
    n = max(len(v) for v in cols.values())
    return build_view(frame_of(np.arange(n), cols))


def test_a_loss_falling_through_zero_is_minimised_not_a_surrogate():
    nll = np.array([199.0, 181.0, 148.0, 85.0, -38.0, -80.0, -87.0, -36.0, -78.0, 210.0, 254.0, 244.0, 505.0, 609.0,
                    687.0, 736.0, 773.0, 803.0, 830.0, 853.0])
    assert not _view({"training loss": nll}).adversarial
    hovering = np.array([0.02, -0.01, 0.03, -0.02, 0.01, -0.03, 0.02, -0.01, 0.0, 0.01])  # a policy loss
    assert _view({"training loss": hovering}).adversarial
    shallow = np.array([0.5, 0.45, 0.4, -2.0, -3.0, -2.5, -3.1, -2.8])  # below zero further than it started: a critic's
    assert _view({"training loss": shallow}).adversarial
    assert _view({"training loss": np.array([3.0, -1.0, -2.0, -2.5, -3.0, -3.2])}).adversarial  # one positive log first


def test_a_loss_non_finite_after_rising_above_its_start_by_its_whole_fall_stops_at_once():
    y = np.array([110.7, 87.7, 55.9, 11.1, 6.2, -1.9, -2.4, -2.6, -2.3, -2.5, -2.1, 3.6, 380.1, np.nan])
    f = nonfinite.check(_view({"loss": y}))[0]
    assert f.status == "critical", f.message
    y[-2] = 150.0  # above its start, but by less than its fall (113): a transient NaN may still be one
    assert nonfinite.check(_view({"loss": y}))[0].status == "ok"
    z = np.array([2.0, 1.9, 1.95, 1.9, 2.1, np.nan])  # a loss that never fell far (under half its start): no blow-up
    assert nonfinite.check(_view({"loss": z}))[0].status == "ok"


def test_an_error_logged_below_zero_at_every_log_is_higher_is_better():
    steps = np.arange(1, 11)
    frame = frame_of(steps, {"loss": np.linspace(2.0, 1.0, 10), "val_rmse": -np.linspace(14.0, 9.0, 10),
                             "val_mae": np.linspace(3.0, 2.0, 10), "val_error": np.r_[-1.0, np.linspace(1, 0.5, 9)]})
    assert frame.roles["val_rmse"].direction == "max"
    assert frame.roles["val_mae"].direction == "min"  # positive: as named
    assert frame.roles["val_error"].direction == "min"  # below zero once only: as named


def test_the_blind_sets_runs(store, config):
    h12, h13 = EXAMPLES / "libraries_holdout12", EXAMPLES / "libraries_holdout13"
    assert assess_run(str(h12 / "gpflow_gpr_adam_lr_growth_diverged" / "train.log"), store=store,
                      config=config).verdict == STOP
    assert assess_run(str(h13 / "tfp_gp_adam_lr_growth_nan" / "train.log"), store=store, config=config).verdict == STOP
    healthy = str(h13 / "autogluon_nn_regression_adam_v3_30ep" / "train.log")
    for step in (150, 225, 450):  # the replayed checks that escalated on "Val root_mean_squared_error worsened"
        assert assess_run(healthy, store=store, config=config, as_of_step=step).verdict == "CONTINUE"
