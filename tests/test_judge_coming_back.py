"""A divergence seen on two checks in a row STOPs a run (judge.py ``TWICE_STOPS``), unless the objective's newest logs
are coming back down, log after log (``judge._coming_back``): a warm-started simulated annealing (jMetalPy's, in
examples/libraries_holdout28) explores upward from its warm start, 0.42 to 1.55, then comes back, 1.04, 0.77, 0.71,
0.67: a second check there is no confirmation of a divergence (it was the calibration table's one false STOP)."""

from __future__ import annotations

import numpy as np
from training_check.tools import judge
from training_check.tools.assess import assess_run

from .conftest import REPO

SA = REPO / "examples" / "libraries_holdout28" / "jmetal_sa_sphere_warm_300ev_f10" / "train.log"


def _two_checks(tmp_path, store, config, first: list[str], then: list[str]):
    log = tmp_path / "train.log"
    log.write_text("".join(first))
    a = assess_run(str(log), store=store, config=config)
    log.write_text("".join(first + then))
    return a, assess_run(str(log), store=store, config=config)


def test_a_rise_coming_back_down_is_no_divergence_confirmed(tmp_path, store, config):
    lines = SA.read_text().splitlines(keepends=True)
    at_150 = next(i for i, ln in enumerate(lines) if "Evaluations: 150." in ln) + 1
    a, b = _two_checks(tmp_path, store, config, lines[:at_150], lines[at_150:at_150 + 1])
    assert a.verdict == "ESCALATE" and "above its best 0.4161" in a.summary, a.summary
    assert b.verdict == "ESCALATE", b.summary  # (a STOP "on two checks in a row" before _coming_back)


class _Curve:
    def __init__(self, values):
        self.values = np.asarray(values, dtype=float)


class _View:
    def __init__(self, values):
        self.curve = _Curve(values)


def test_coming_back_needs_every_newest_log_no_higher_and_a_fall():
    assert judge._coming_back(_View([0.4, 1.5, 1.3, 1.04, 1.04, 0.77, 0.67]))
    assert not judge._coming_back(_View([0.4, 1.5, 1.3, 1.04, 1.1, 0.77, 0.67]))  # one rise among them
    assert not judge._coming_back(_View([0.4, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5]))  # held: a divergence that stays
    assert not judge._coming_back(_View([0.4, 1.5, 0.9]))  # too few logs to say
