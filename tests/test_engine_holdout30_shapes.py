"""Shapes the reader misread on examples/libraries_holdout30 (issue 32), written as the libraries print them and read
by the one engine, whole and in pieces:

- loguru's default line (``2026-12-06 12:38:51.852 | INFO     | dehb.optimizers.dehb:_log_job_submission:887 -
  Best score seen/Incumbent score: 41.87``): its ``| LEVEL |`` and its ``module.path:function:line - `` source
  location close the record's header; the line number is no value;
- DEHB's own log, ``2026-12-06T12:38:51.852036+0000 INFO ...``: ISO 8601's one-word stamp and a level in capitals
  right after it are the header (a number opening the record after them has no name);
- ``K/N function evaluation(s) done`` before each record: a count of evaluations (a plural written ``(s)``, no
  evaluation split), the position of the best so far after it;
- a best so far named with its quantity (``Best score seen/Incumbent score``): the search's objective when no loss is
  named, better the way its values move (never rising: minimised), not the way its word ``score`` says;
- Ax's ``[INFO 12-06 12:40:35] ax.service.ax_client: Completed trial 3 with data: {'loss': 0.646961}.``: a level and
  a month-day date in the stamp's bracket (its numbers no field, no step);
- keras-tuner's durations ``[00h 00m 00s]``: no value."""

from __future__ import annotations

import numpy as np
from training_check.tools.frame import MetricFrame
from training_check.tools.points import Column, PointBatch

from .test_read_misses import whole_as_live


def _loguru(values: list[float], n: int = 30) -> str:
    head = "2026-12-06 12:38:51.{ms:03d} | INFO     | dehb.optimizers.dehb:{fn}:{line} - {msg}\n"
    out = [head.format(ms=0, fn="run", line=1117, msg="Logging at /tmp/dehb.log for optimization")]
    for k, v in enumerate(values):
        out.append(head.format(ms=3 * k + 1, fn="_log_runtime", line=876, msg=f"{k}/{n} function evaluation(s) done"))
        out.append(head.format(ms=3 * k + 2, fn="_log_job_submission", line=883,
                               msg=f"Evaluating configuration {15 + k} with fidelity 3.0 under bracket ID 0"))
        out.append(head.format(ms=3 * k + 3, fn="_log_job_submission", line=887,
                               msg=f"Best score seen/Incumbent score: {v!r}"))
    out.append(head.format(ms=999, fn="run", line=1166, msg=f"Incumbent score: {values[-1]!r}"))
    return "".join(out)


def _incumbents(n: int) -> list[float]:
    rnd = np.random.default_rng(30)
    best, out = float("inf"), []
    for _ in range(n):
        best = min(best, float(rnd.uniform(0.3, 45.0)))
        out.append(best)
    return out


def test_loguru_source_location_is_no_value_and_the_count_done_is_the_step(tmp_path):
    vals = _incumbents(20)
    pts = whole_as_live(tmp_path, _loguru([float("inf"), *vals]).encode(), "dehb.log")
    name = "Best score seen/Incumbent score"
    assert name in pts, pts.keys()
    assert not any(k.startswith(("_log", "val__log", "run")) for k in pts), pts.keys()
    steps, values = pts[name]
    assert list(zip(steps[1:], values[1:], strict=True)) == list(zip(range(1, 21), vals, strict=True))


def test_a_best_so_far_named_with_a_score_is_minimised_when_it_never_rises(tmp_path):
    vals = _incumbents(25)
    pts = whole_as_live(tmp_path, _loguru([float("inf"), *vals]).encode(), "dehb_min.log")
    name = "Best score seen/Incumbent score"
    steps, values = pts[name]
    batch = PointBatch({name: Column(np.array(steps, dtype=np.int64), np.array(values, dtype=float))})
    frame = MetricFrame.from_batch(batch)
    assert frame.primary_loss == name
    assert frame.roles[name].direction == "min"


def test_a_best_so_far_that_never_falls_is_maximised():
    name = "best val acc"
    steps = np.arange(1, 11, dtype=np.int64)
    acc = np.maximum.accumulate(np.linspace(0.5, 0.9, 10))
    batch = PointBatch({"loss": Column(steps, np.linspace(2.0, 1.0, 10)), name: Column(steps, acc)})
    frame = MetricFrame.from_batch(batch)
    assert frame.roles[name].direction == "max"
    assert frame.primary_loss == "loss"


def _ax(losses: list[float], lrs: list[float], table: bool = True) -> str:
    out = ["[INFO 12-06 12:40:35] ax.service.utils.instantiation: Inferred value type of ParameterType.FLOAT for "
           "parameter lr."]
    for t, (loss, lr) in enumerate(zip(losses, lrs, strict=True)):
        model = "Sobol" if t < 5 else "BoTorch"
        out.append(f"[INFO 12-06 12:40:{35 + t // 4}] ax.service.ax_client: Generated new trial {t} with parameters "
                   f"{{'lr': {lr}}} using model {model}.")
        out.append(f"[INFO 12-06 12:40:{35 + t // 4}] ax.service.ax_client: Completed trial {t} with data: "
                   f"{{'loss': {loss}}}.")
    if not table:
        return "\n".join(out) + "\n"
    out.append("   trial_index arm_name trial_status           generation_node      loss        lr")
    for t, (loss, lr) in enumerate(zip(losses, lrs, strict=True)):
        node = "GenerationStep_0_Sobol" if t < 5 else "GenerationStep_1_BoTorch"
        out.append(f"{t:<4} {t:>10} {t}_0    COMPLETED {node:>25}  {loss:.6f}  {lr:.6f}")
    return "\n".join(out) + "\n"


def test_a_bracketed_level_and_month_day_stamp_is_no_field(tmp_path):
    """Ax's ``[INFO 12-06 12:40:35] ...: Completed trial 3 with data: {'loss': 0.646961}.``: the stamp's numbers are
    no field and no step. (``trial N`` as the record's position is left: as a step name it made optuna's
    ``Trial 3 finished with value`` read differently in pieces, tests/test_read_determinism.py; issue 32.)"""
    losses = [0.350502, 0.289477, 0.121309, 0.646961, 0.542009, 0.136651, 0.119004, 0.128541]
    lrs = [0.026627, 0.047904, 0.919072, 0.001314, 0.005467, 0.569035, 1.0, 0.721973]
    pts = whole_as_live(tmp_path, _ax(losses, lrs, table=False).encode(), "ax.log")
    assert set(pts) == {"loss", "lr"}, pts.keys()
    assert pts["loss"][1] == losses and pts["lr"][1] == lrs


def test_a_duration_in_hours_minutes_and_seconds_is_no_value(tmp_path):
    """keras-tuner's ``Trial 3 Complete [00h 00m 00s]`` and ``Total elapsed time: 00h 00m 01s``: no metric ``_h``."""
    lines = []
    for t in range(1, 9):
        lines += [f"Trial {t} Complete [00h 00m {t:02d}s]", f"loss: {1.0 / t!r}", "",
                  f"Best loss So Far: {1.0 / t!r}", f"Total elapsed time: 00h 0{t}m 01s"]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "kt.log")
    assert not any(k.endswith(("_h", "_m", "_s")) or "elapsed" in k or "Complete" in k for k in pts), pts.keys()


def test_an_iso_stamp_and_its_level_open_the_record_so_the_count_done_is_the_step(tmp_path):
    """DEHB's own log (``2026-12-06T12:38:51.829909+0000 INFO 4/30 function evaluation(s) done``): ISO 8601's date
    and clock in one word with its zone, then the level in capitals, are the header; the counter opens the record."""
    vals = _incumbents(20)
    out = []
    for k, v in enumerate([float("inf"), *vals]):
        t = f"2026-12-06T12:38:{10 + k:02d}.8{k:05d}+0000"
        out += [f"{t} INFO {k}/30 function evaluation(s) done",
                f"{t} INFO Evaluating configuration {15 + k} with fidelity 3.0 under bracket ID 0",
                f"{t} INFO Best score seen/Incumbent score: {v!r}"]
    pts = whole_as_live(tmp_path, ("\n".join(out) + "\n").encode(), "dehb_own.log")
    steps, values = pts["Best score seen/Incumbent score"]
    assert list(zip(steps[1:], values[1:], strict=True)) == list(zip(range(1, 21), vals, strict=True)), pts.keys()
