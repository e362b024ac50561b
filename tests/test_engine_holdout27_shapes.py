"""Shapes the reader missed on examples/libraries_holdout27 (issue 32), written as the libraries print them and read by
the one engine, whole and in pieces:

- a metric named at the step (Optimistix's ``verbose`` minimiser: ``Step: 0, Loss on this step: 19.69, y: [1.  0.5
  0. ]``): the name ends in the step's word after a preposition, but it names the metric measured at the step (the
  words before the preposition, ``Loss``), not a second step;
- a progress bar whose only value is ``Value`` (GPJax's ``fit``: ``Running:  10%|█   | 10/100 [00:01<00:09,
  9.76it/s, Value=88.62]``, redrawn every 10 iterations): the record's objective (minimised) at the bar's count; beside
  other values ``value`` stays a value of its own (an RL loop's value estimate)."""

from __future__ import annotations

import random

from .test_read_misses import primary_names, whole_as_live


def test_a_loss_named_on_this_step_is_the_loss_at_the_step(tmp_path):
    rnd = random.Random(27)
    loss, lines, truth = 19.69827651977539, [], []
    for k in range(60):
        y = [1.0 + 0.01 * k, 0.5 - 0.002 * k, 0.003 * k]
        lines.append(f"Step: {k}, Loss on this step: {loss!r}, y: [{'  '.join(f'{v:.7g}' for v in y)}]")
        truth.append((k, loss))
        loss *= 0.9 + 0.08 * rnd.random()
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "optimistix.log")
    assert list(zip(*pts["Loss"], strict=True)) == truth, pts.keys()
    assert primary_names(pts) == ["Loss"]


def test_a_step_named_with_words_before_it_stays_the_step(tmp_path):
    """``Global step: 40, loss: ...``, ``max step`` (a statistic): unchanged by the metric-at-the-step rule."""
    lines = [f"Global step: {10 * k}, loss: {1.0 / k:.4f}, max step: {10 * k + 5}" for k in range(1, 15)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "gs.log")
    assert pts["loss"][0] == [10 * k for k in range(1, 15)], pts.keys()


def _bar(n: int, total: int, value: float) -> str:
    filled = "█" * (10 * n // total)
    return f"Running: {100 * n // total:3d}%|{filled:<10}| {n}/{total} [00:01<00:09,  9.76it/s, Value={value:.2f}]"


def test_a_bar_whose_only_value_is_value_is_the_objective_at_its_count(tmp_path):
    values = [88.62, 84.21, 79.84, 75.49, 71.13, 66.78, 62.47, 58.24, 54.14, 50.20]
    draws = ["\r  0%|          | 0/100 [00:00<?, ?it/s]", "\rCompiling...:   0%|          | 0/100 [00:00<?, ?it/s]"]
    for k, v in enumerate(values, 1):
        draws.append("\r" + _bar(10 * k, 100, v).replace(f", Value={v:.2f}", ""))
        draws.append("\r" + _bar(10 * k, 100, v))
    data = ("".join(draws) + "\n").encode()
    pts = whole_as_live(tmp_path, data, "gpjax.log")
    assert list(zip(*pts["objective"], strict=True)) == [(10 * k, v) for k, v in enumerate(values, 1)], pts.keys()
    assert primary_names(pts) == ["objective"]


def test_value_beside_other_values_stays_a_value(tmp_path):
    lines = [f"step {k} | value: {0.1 * k:.3f} | entropy: {1.0 / k:.3f}" for k in range(1, 15)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "rl.log")
    assert "objective" not in pts and "value" in pts, pts.keys()
