"""Rows of bare numbers no header names (issue "records, not lines"; issue 32's libraries_holdout18), read by the one
engine whole and in pieces (a read every few bytes): a hand loop's ``print(t, loss.item())`` (the PyTorch tutorial's
``99 1234.5678``) is the step and the loss; a convergence monitor's ``iteration  value  change`` (hmmlearn's
``         2   -1320.48103937    +125.22520373``) is an objective whose direction its rows tell (values rising while
their changes shrink: maximised). Numeric dumps, a headed table's rows and logs with a named loss stay as they
read."""

from __future__ import annotations

import json
import math

from training_check.tools.objective import assign_roles
from training_check.tools.parsers.bare_rows import LOSS, MAXIMISED, NO_DIRECTION, OBJECTIVE
from training_check.tools.roles import infer_role
from training_check.tools.signals.view import build_view

from .test_read_misses import _live, whole_as_live


def _every_few_bytes(tmp_path, data: bytes, name: str, every: int = 7) -> dict:
    """The points read whole, checked equal to a read after every ``every`` bytes appended (mid-line mostly)."""
    whole = whole_as_live(tmp_path, data, name)
    small = _live(tmp_path, data, list(range(every, len(data), every)), name=f"bytes_{name}")
    assert json.dumps(small) == json.dumps(whole), name
    return whole


def _monitor(values: list[float]) -> bytes:
    """hmmlearn's ConvergenceMonitor rows: ``{iter:>10d} {value:>16.8f} {delta:>+16.8f}``, the first change NaN."""
    out, prev = [], math.nan
    for i, v in enumerate(values, 1):
        out.append(f"{i:>10d} {v:>16.8f} {v - prev:>+16.8f}")
        prev = v
    return ("\n".join(out) + "\n").encode()


def test_a_loop_printing_its_step_and_loss_is_read_as_the_loss(tmp_path):
    data = "".join(f"{t} {1000 * math.exp(-t / 500) + 3.1}\n" for t in range(99, 2000, 100)).encode()
    pts = _every_few_bytes(tmp_path, data, "two.log")
    assert list(pts) == [LOSS]
    assert pts[LOSS][0] == list(range(99, 2000, 100))
    assert pts[LOSS][1][0] == 1000 * math.exp(-99 / 500) + 3.1
    assert assign_roles(list(pts))[LOSS].primary


def test_a_monitored_log_likelihood_is_an_objective_maximised(tmp_path):
    vals = [-1445.70624309, -1320.48103937, -1271.63687182, -1237.93128803, -1206.05831277]
    vals += [vals[-1] + 40 * (1 - 0.7 ** k) for k in range(1, 16)]
    data = _monitor(vals) + b"converged: True, score: -1123.8729\n"
    pts = _every_few_bytes(tmp_path, data, "hmm.log")
    assert pts[MAXIMISED][0] == list(range(1, 21))  # the first row too (its change is NaN)
    assert pts[MAXIMISED][1][:2] == [-1445.70624309, -1320.48103937]
    role = assign_roles(list(pts))[MAXIMISED]
    assert role.primary and role.direction == "max"


def test_a_maximised_objective_below_zero_is_no_surrogate_loss(tmp_path):
    """A log-likelihood is below zero by what it is: judged as maximised, not as an RL surrogate's loss."""
    import pandas as pd
    from training_check.tools.frame import MetricFrame

    s = pd.Series([-1445.7, -1320.5, -1271.6, -1237.9, -1206.1, -1190.0, -1185.0, -1183.0])
    s.index = range(1, 9)
    frame = MetricFrame({MAXIMISED: s}, assign_roles([MAXIMISED]))
    view = build_view(frame)
    assert view.objective == MAXIMISED and view.direction == "max" and not view.adversarial
    assert infer_role(MAXIMISED).direction == "max"


def test_a_monitored_objective_falling_is_minimised(tmp_path):
    vals = [12.5 + 30 * 0.6 ** k for k in range(12)]
    pts = _every_few_bytes(tmp_path, _monitor(vals), "min.log")
    assert list(pts) == [OBJECTIVE] and len(pts[OBJECTIVE][0]) == 12
    assert assign_roles(list(pts))[OBJECTIVE] == infer_role("loss").__class__("train_loss", "min", primary=True)


def test_changes_of_either_sign_tell_no_direction(tmp_path):
    vals = [10.0, 12.0, 11.5, 11.9, 11.7, 11.8]
    pts = _every_few_bytes(tmp_path, _monitor(vals), "either.log")
    assert list(pts) == [NO_DIRECTION]
    assert infer_role(NO_DIRECTION).direction is None  # never judged as a rising loss


def test_numeric_dumps_stay_unread(tmp_path):
    """A matrix numpy prints, a confusion matrix, integer pairs (an index and a count), five columns, a third column
    that is no change of the second: no step and loss."""
    dumps = {
        "matrix.log": "".join(f"{0.1 * i:.4f} {0.2 * i:.4f} {0.3 * i:.4f}\n" for i in range(1, 9)),
        "confusion.log": "50 2 1\n3 45 2\n1 4 47\n",
        "counts.log": "".join(f"{i} {i * 7 % 11}\n" for i in range(12)),
        "wide.log": "".join(f"{i} {0.5 / i:.4f} {0.1:.4f} {0.2:.4f} {0.3:.4f}\n" for i in range(1, 12)),
        "no_change.log": "".join(f"{i} {1.0 / i:.6f} {0.001 * i:.6f}\n" for i in range(1, 12)),
    }
    for name, text in dumps.items():
        pts = _every_few_bytes(tmp_path, ("printed by the script:\n" + text).encode(), name)
        assert not set(pts) & {LOSS, OBJECTIVE, MAXIMISED, NO_DIRECTION}, (name, list(pts))


def test_a_headed_tables_rows_keep_their_header(tmp_path):
    """Rows under a header, also past a line printed inside the table: its columns' names, never a bare row's."""
    rows = [f"{i:>6d} {2.0 / i:>10.4f} {2.5 / i:>10.4f}" for i in range(1, 12)]
    for name, lines in {"table.log": rows, "cut.log": [*rows[:5], "saving checkpoint to ./ckpt", *rows[5:]]}.items():
        data = ("\n".join(["  iter      train        val", *lines]) + "\n").encode()
        # (the interrupted table reads its rows past the line whole, not in pieces, as at main: read whole here)
        pts = whole_as_live(tmp_path, data, name) if name == "table.log" else _live(tmp_path, data, [], name=name)
        assert set(pts) == {"train_loss", "val_loss"}, (name, list(pts))
        assert pts["train_loss"][0][:5] == [1, 2, 3, 4, 5]


def test_bare_rows_never_take_over_a_log_with_a_named_loss(tmp_path):
    """Bare pairs beside a named loss (before it, after it, between its records): the named loss is the log's."""
    named = [f"step {10 * k} loss {2.0 / k:.4f}" for k in range(1, 13)]
    bare = [f"{k} {0.5 * k:.3f}" for k in range(1, 13)]
    for name, lines in {
        "after.log": bare + named,
        "between.log": [x for pair in zip(bare, named, strict=True) for x in pair],
        "before.log": named + bare,
    }.items():
        pts = _every_few_bytes(tmp_path, ("\n".join(lines) + "\n").encode(), name, every=23)
        assert list(pts) == ["loss"] and pts["loss"][0] == list(range(10, 130, 10)), (name, pts)
