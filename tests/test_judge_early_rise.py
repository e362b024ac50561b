"""A STOP for a finite rise needs orders of magnitude, or more of the run to confirm it (issue 29): losses that rise
a few x over a run's first epochs and come back (a from-scratch detector's assigner matching more anchors) ask a
reviewer; the same run with a sibling loss blown up by orders of magnitude stops. Real Ultralytics runs
(examples/libraries_holdout), checked as cron checks them: one store, check after check."""

from __future__ import annotations

from pathlib import Path

from training_check.tools.assess import assess_run
from training_check.tools.judge import ESCALATE, STOP

HOLDOUT = Path(__file__).resolve().parents[1] / "examples" / "libraries_holdout"
LIBRARIES6 = Path(__file__).resolve().parents[1] / "examples" / "libraries6"


def _verdicts(run: str, steps: range, store, config) -> list[str]:
    return [assess_run(str(HOLDOUT / run / "train.log"), store=store, config=config, as_of_step=s).verdict
            for s in steps]


def test_a_loss_doubling_over_the_first_epochs_asks_and_never_stops(store, config):
    got = _verdicts("yolo_v8n_sgd_batch16_12ep", range(1, 13), store, config)  # box/cls/dfl losses 2x by epoch 6
    assert STOP not in got and ESCALATE in got, got


def test_a_sibling_loss_blown_up_by_orders_of_magnitude_stops(store, config):
    got = _verdicts("yolo_v8n_adam_lr1_diverged", range(1, 9), store, config)  # cls_loss 1.4 -> 710 under lr0=1
    assert got[-1] == STOP, got


def test_a_regulariser_logged_at_zero_does_not_make_a_rise_a_stop(store, config):
    # NeuralProphet at lr=30 under its one-cycle schedule: train_loss 3.8 -> 18.6 (4.9x) over its first 9 epochs
    # while the LR climbs, then 0.12 by epoch 29. Its reg_loss, logged beside it, is 0.000 throughout: a term that
    # never moved says nothing, so the rise is still a run's first logs under an order of magnitude (ESCALATE).
    path = str(LIBRARIES6 / "neuralprophet_lr_high_onecycle_recovers" / "train.log")
    got = [assess_run(path, store=store, config=config, as_of_step=s).verdict for s in range(1, 15)]
    assert STOP not in got and ESCALATE in got, got
