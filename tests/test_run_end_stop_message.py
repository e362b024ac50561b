"""A training's own guard stopping it on its loss ends the log as a non-finite crash does (tools/parsers/run_end.py
``stop_message``): pzflow's ``Training stopping after epoch 5 because training loss diverged.`` (libraries_holdout88 and
92, whose three should-stop runs of 88 had only 5-7 finite points and waited), Keras' TerminateOnNaN, Lightning's
``check_finite``, accelerate's loop; an early stop on a loss that no longer improves is no such message."""

from __future__ import annotations

from pathlib import Path

import pytest
from training_check.tools.assess import assess_run
from training_check.tools.judge import CONTINUE, STOP
from training_check.tools.parsers.run_end import STOP_TYPE, find_end, stop_message

REPO = Path(__file__).resolve().parents[1]

STOPS = [
    "Training stopping after epoch 5 because training loss diverged.",
    "Batch 12: Invalid loss, terminating training",
    "Monitored metric val_loss = nan is not finite. Previous best value was 0.693. Signaling Trainer to stop.",
    "Stopping training due to NaN loss in training step",
    "[rank0]: Aborting: the loss is inf",
    "\x1b[31mHalting: objective diverging\x1b[0m",
]
NOT_STOPS = [
    "Early stopping: val_loss did not improve for 5 epochs",
    "Epoch 00012: early stopping",
    "Training stopped.",
    "INFO: stopping criterion met, loss 0.01",
    "Iter: 60 Gradient Norm (stopping criterion): nan Objective Value:nan",  # a record naming its criterion
    "loss diverged at step 3 but recovered",  # no stop
    "stopping: nan in the learning-rate schedule's warmup",  # no loss
    "stop " * 2000 + "loss nan",  # past the line cap
]


@pytest.mark.parametrize("line", STOPS)
def test_a_guard_stopping_on_the_loss(line):
    assert stop_message(line.replace("\x1b[31m", "").replace("\x1b[0m", "").split("]: ")[-1])
    end = find_end((_records(6) + line + "\n").encode(), True)
    assert end is not None and end["type"] == STOP_TYPE and end["nonfinite"]


@pytest.mark.parametrize("line", NOT_STOPS)
def test_no_guard(line):
    assert not stop_message(line)
    end = find_end((_records(6) + line + "\n").encode(), True)
    assert end is None or end["type"] != STOP_TYPE


def test_only_at_the_end():
    """A guard's message followed by more records is no end (the walk stops at the records)."""
    text = _records(6) + STOPS[0] + "\n" + _records(3, start=7)
    assert find_end(text.encode(), True) is None


def _records(n: int, start: int = 0, first: float = 5.0) -> str:
    return "".join(f"({e}) {first / (1 + 0.4 * e):.4f}\n" for e in range(start, start + n))


@pytest.mark.parametrize("n", [3, 5, 7])
def test_the_check_stops_on_it(tmp_path, config, store, n):
    """Too few finite points to judge a trend, a last non-finite one: the guard's message decides (STOP)."""
    p = tmp_path / "run.log"
    p.write_text("Training 12 epochs\nLoss:\n" + _records(n) + f"({n}) inf\n"
                 f"Training stopping after epoch {n} because training loss diverged.\n")
    a = assess_run(str(p), store=store, config=config)
    assert a.verdict == STOP, a.summary
    assert any(f.signal == "run_end" and f.status == "critical" for f in a.findings)
    assert "stopped itself on its loss" in a.summary


def test_an_early_stop_keeps_the_verdict(tmp_path, config, store):
    p = tmp_path / "run.log"
    p.write_text("Training 40 epochs\nLoss:\n" + _records(30) + "Early stopping: Loss did not improve for 5 epochs\n")
    a = assess_run(str(p), store=store, config=config)
    assert a.verdict == CONTINUE, a.summary


@pytest.mark.parametrize("run", ["libraries_holdout88/pzflow_moons_adam_lr_growth_nan",
                                 "libraries_holdout88/pzflow_moons_sgd_lr_growth_nan",
                                 "libraries_holdout88/pzflow_galaxy_adam_lr_growth_val_nan",
                                 "libraries_holdout92/pzflow_moons_adam_lr_growth_inf"])
def test_the_corpus_runs_that_stopped_themselves(tmp_path, config, store, run):
    a = assess_run(str(REPO / "examples" / run / "train.log"), store=store, config=config)
    assert a.verdict == STOP, a.summary
