"""Rows of unnamed numbers opened by a counter at line start in parentheses, under a heading naming only their first
value (examples/libraries_holdout92, pzflow's ``Flow.train(..., verbose=True)``: ``Loss:``, then ``(3) 2.3386`` or
``(3) 2.3386  2.3645``, train then validation, a diverging run ending ``(6) inf``): the counter the step, the first
value the heading's, a second beside it the evaluation's. Read whole and in pieces, on generated variants."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from training_check.tools.parsers.headed_rows import heading, values_after_counter

from tests.test_read_misses import whole_as_live

SET = Path(__file__).resolve().parent.parent / "examples" / "libraries_holdout92"


def _log(rows: list[tuple[int, ...]], vals: list[list[float]], head: str = "Loss:", width: int = 4,
         paren: bool = True, tail: str = "") -> bytes:
    out = [f"Training {len(rows)} epochs ", head]
    for (e,), vs in zip(rows, vals, strict=True):
        c = f"({e})" if paren else f"{e}"
        out.append(c + " " + "  ".join(f"{v:.{width}f}" if math.isfinite(v) else str(v) for v in vs))
    return ("\n".join(out) + "\n" + tail).encode()


@pytest.mark.parametrize("cols", [1, 2])
@pytest.mark.parametrize("width", [2, 4, 6])
@pytest.mark.parametrize("start,every", [(0, 1), (1, 1), (0, 5), (0, 3)])
def test_a_parenthesised_counter_under_a_heading_is_the_step_of_the_headed_values(tmp_path, cols, width, start,
                                                                                    every):
    steps = list(range(start, 60 if every > 1 else 25, every))
    vals = [[5.0 / (s + 1) + 0.1 * c for c in range(cols)] for s in steps]
    data = _log([(s,) for s in steps], vals, width=width)
    got = whole_as_live(tmp_path, data, f"p{cols}_{width}_{start}_{every}")
    assert got["Loss"][0] == steps
    assert got["Loss"][1] == [round(v[0], width) for v in vals]
    if cols == 2:
        assert got["val_Loss"][0] == steps
        assert got["val_Loss"][1] == [round(v[1], width) for v in vals]
    else:
        assert "val_Loss" not in got


def test_a_diverging_runs_inf_is_a_value_at_its_epoch(tmp_path):
    steps = list(range(7))
    vals = [[5.7], [3.6], [2.3], [2.2], [1.9], [10.35], [math.inf]]
    data = _log([(s,) for s in steps], vals,
                tail="Training stopping after epoch 6 because training loss diverged.\n")
    got = whole_as_live(tmp_path, data, "inf")
    assert got["Loss"][0] == steps and got["Loss"][1][-1] == math.inf and got["Loss"][1][5] == 10.35


def test_a_bare_counter_under_a_heading_reads_the_same(tmp_path):
    steps = list(range(0, 20, 2))
    vals = [[3.0 / (s + 1), 3.5 / (s + 1)] for s in steps]
    got = whole_as_live(tmp_path, _log([(s,) for s in steps], vals, paren=False), "bare")
    assert got["Loss"][0] == steps and got["val_Loss"][0] == steps


def test_a_heading_of_prose_or_of_no_metric_names_nothing():
    assert heading(b"Loss:") == "Loss" and heading(b"  train loss:  ") == "train loss"
    for line in (b"Results:", b"Loss: 0.5", b"Epoch 3:", b"Loss", b"Training 20 epochs ", b"x" * 60 + b" loss:"):
        assert heading(line) is None, line
    assert values_after_counter(b"(3) 2.3386  2.3645") == 2 and values_after_counter(b"(6) inf") == 1
    for line in (b"(3) 2.3 2.4 2.5", b"(3)", b"(x) 2.3", b"(3) loss 2.3", b"(3.5) 2.3"):
        assert values_after_counter(line) == 0, line


def test_rows_under_a_heading_of_prose_stay_unread(tmp_path):
    steps = list(range(10))
    data = _log([(s,) for s in steps], [[1.0 / (s + 1)] for s in steps], head="Results:")
    assert "Results" not in whole_as_live(tmp_path, data, "prose")


@pytest.mark.parametrize("run", sorted(p.name for p in SET.glob("pzflow_*")))
def test_the_corpus_pzflow_files_read_at_the_truths_steps(tmp_path, run):
    truth = json.loads((SET / run / "truth.json").read_text())
    got = whole_as_live(tmp_path, (SET / run / "train.log").read_bytes(), run)
    steps, values = got["Loss"]
    at = dict(zip(steps, values, strict=True))
    tol = truth["tolerance"]
    for s, v in truth["train_loss"]:
        assert s in at, (run, s)
        v = float(v)  # (a JSON string for inf or nan)
        if math.isfinite(v):
            assert abs(at[s] - v) <= tol["abs"] + tol["rel"] * abs(v), (run, s, at[s], v)
        else:
            assert not math.isfinite(at[s])
