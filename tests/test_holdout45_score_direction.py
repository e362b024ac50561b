"""What examples/libraries_holdout45 showed (issue 32). A structure learner logs ``[Iter 100] score=18.127,
likelihood=18.120, h=5.7e-04``: its ``score`` is what it minimises (the likelihood term plus non-negative penalties),
but the word alone reads as higher-is-better, so a healthy run (its score falling from its first log) was judged a
collapsed score (a false STOP) and a diverged one (its score rising to 1e71, or nan) went on. A name whose direction
comes from the ambiguous word ``score`` alone is read by its values: never below a likelihood logged beside it (the
likelihood plus a penalty) it is a cost, the run's objective, minimised; falling from its first log, never rising,
it is minimised (no collapse). An RL reward that rises then collapses still stops."""

from __future__ import annotations

import math

import numpy as np
import pytest
from training_check.tools.assess import assess_run
from training_check.tools.config import load_config
from training_check.tools.frame import MetricFrame
from training_check.tools.points import Column, PointBatch
from training_check.tools.store import Store

PREFIX = "2026-12-06 18:43:53,824 - /venv/lib/python3.11/site-packages/pkg/learner.py[line:203] - INFO: "


def _fmt(v: float) -> str:
    return "nan" if math.isnan(v) else f"{v:.3f}"


def _structure_log(scores: list[float], liks: list[float], hs: list[float], every: int) -> str:
    out = [PREFIX.replace("[line:203]", "[line:190]") + f"Started training for {every * (len(scores) - 1)} "
           f"iterations.\n"]
    for i, (s, lk, h) in enumerate(zip(scores, liks, hs, strict=True)):
        out.append(f"{PREFIX}[Iter {i * every}] score={_fmt(s)}, likelihood={_fmt(lk)}, h={h:.1e}\n")
    return "".join(out)


def _healthy(n: int = 21) -> tuple[list[float], list[float], list[float]]:
    lik = [17.066 + 1.868 * math.exp(-0.35 * i) for i in range(n)]
    h = [0.0] + [5e-3 * math.exp(-0.2 * i) for i in range(1, n)]
    score = [lk + 2.0 * x for lk, x in zip(lik, h, strict=True)]
    return score, lik, h


def _verdict(tmp_path, text: str, name: str = "train.log", as_of: int | None = None) -> tuple[str, str]:
    path = tmp_path / name
    path.write_text(text)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    config = load_config(cwd=str(home), env={"TRAINING_CHECK_HOME": str(home)})
    a = assess_run(str(path), store=Store(config.store_path), config=config, as_of_step=as_of)
    return a.verdict, a.summary


def test_a_penalised_score_falling_from_its_first_log_is_no_collapse(tmp_path):
    score, lik, h = _healthy()
    verdict, summary = _verdict(tmp_path, _structure_log(score, lik, h, 100))
    assert verdict != "STOP", summary
    assert "collapsed" not in summary


def test_a_penalised_score_is_the_runs_objective_minimised(tmp_path):
    score, lik, h = _healthy()
    frame = _frame({"score": score, "likelihood": lik, "h": h})
    assert frame.primary_loss == "score"
    assert frame.roles["score"].direction == "min"


def test_a_penalised_score_rising_to_huge_stops(tmp_path):
    lik = [18.934, 22.241] + [24.958] * 14
    h = [0.0, 1.8e71] + [1.2e155] * 14
    score = [18.934, 9.17e71] + [6.19e155] * 14
    verdict, summary = _verdict(tmp_path, _structure_log(score, lik, h, 20))
    assert verdict == "STOP", summary


def test_a_penalised_score_gone_nan_stops(tmp_path):
    n = 21
    score = [24.901] + [math.nan] * (n - 1)
    lik = [24.901] + [math.nan] * (n - 1)
    h = [0.0] * n
    verdict, summary = _verdict(tmp_path, _structure_log(score, lik, h, 5))
    assert verdict == "STOP", summary


def _frame(cols: dict[str, list[float]]) -> MetricFrame:
    steps = np.arange(len(next(iter(cols.values()))), dtype=np.int64) * 10
    return MetricFrame.from_batch(PointBatch({k: Column(steps, np.asarray(v, dtype=float)) for k, v in cols.items()}))


def test_a_score_falling_from_its_first_log_alone_reads_minimised():
    score = [30.0 - 8.0 * (1 - math.exp(-0.3 * i)) for i in range(30)]
    frame = _frame({"score": score})
    assert frame.roles["score"].direction == "min"


@pytest.mark.parametrize("name", ["reward", "eval score", "score"])
def test_a_quantity_that_rises_then_collapses_keeps_higher_is_better(name):
    v = [1.0 + 0.3 * i for i in range(15)] + [5.2 - 0.4 * i for i in range(15)]
    frame = _frame({name: v})
    assert frame.roles[name].direction == "max"


def test_an_rl_reward_that_rises_then_collapses_still_stops(tmp_path):
    lines = []
    for i in range(60):
        r = 10.0 + 4.0 * i if i < 20 else max(-50.0, 90.0 - 9.0 * (i - 20))
        lines.append(f"step {i * 100} | reward {r:.2f} | ep_len {50 + i}\n")
    verdict, summary = _verdict(tmp_path, "".join(lines))
    assert verdict == "STOP", summary
