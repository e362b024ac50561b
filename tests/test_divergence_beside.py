"""Another loss (an eval loss, a sibling train loss) blown up by orders of magnitude while the objective rose too is
a divergence STOP (tools/signals/divergence.py, ``_blown_up_beside``), and counts against the early-rise rule
(tools/judge.py, ``_early_modest_rise``)."""

from __future__ import annotations

from pathlib import Path

from training_check.tools.assess import assess_run
from training_check.tools.judge import STOP

HOLDOUT3 = Path(__file__).resolve().parents[1] / "examples" / "libraries_holdout3"


def test_another_loss_blown_up_while_the_loss_rose_stops(store, config):
    """Held-out runs that went unstopped before (libraries_holdout3): the train and eval losses both 1e5 x their best
    on the newest log (PaddlePaddle's hapi under an LR ramp; torchtuples before its log went blank); an eval loss
    1e5 x its best for several evals while the train loss rose 2.5x (NGBoost under learning_rate=1.5)."""
    for run, steps in (("paddle_reg_sgd_lr_ramp_v2_diverged", (70, 80)),
                       ("tt_mlp_cls_sgd_lr_ramp_diverged_then_blank", (7, 8)),
                       ("ngboost_reg_lr1p5_diverged", (15, 20, 25, 30, 35, 40))):
        path = str(HOLDOUT3 / run / "train.log")
        got = [assess_run(path, store=store, config=config, as_of_step=s).verdict for s in steps]
        assert got[-1] == STOP, (run, got)
