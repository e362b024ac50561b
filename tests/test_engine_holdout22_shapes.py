"""Shapes the reader missed on examples/libraries_holdout22 (issue 32), written as the libraries print them and read by
the one engine, whole and in pieces:

- a value with no name right after a record's position and a colon (skglm's solvers: ``Iteration 3: 0.4527684713,
  stopping crit: 2.30e-01``; a hand loop's ``Epoch 3: 0.2345``, ``step 10: 1.23``), when the record names no loss, is
  its objective (minimised); the named values after it (a convergence measure) stay what they are;
- a ``total`` that is the sum of two or more of its record's other values (CEBRA's tqdm description ``pos: -0.6943
  neg:  6.1101 total:  5.4159 temperature:  1.0000: 0%|...| 0/200``: the two terms of a contrastive loss and their
  sum), when the record names no loss, is the record's loss (``total_loss``), a bar's description set every step
  while its counter lags one point a step; a ``total`` that counts (``total: 100``) stays no metric."""

from __future__ import annotations

import random

from .test_read_misses import primary_names, whole_as_live


def test_an_unnamed_value_after_the_position_is_the_objective(tmp_path):
    rnd = random.Random(22)
    obj, lines, truth = 1.12, [], []
    for it in range(1, 20):
        obj = 0.4054 + (obj - 0.4054) * (0.3 + 0.2 * rnd.random()) + 1e-5 * rnd.random()
        lines.append(f"Iteration {it}: {obj:.10f}, stopping crit: {2.0 * 0.6 ** it:.2e}")
        truth.append(float(f"{obj:.10f}"))
    lines.append(f"Stopping criterion max violation: {2.0 * 0.6 ** 19:.2e}")
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "solver.log")
    assert pts["objective"] == (list(range(1, 20)), truth), pts.keys()
    assert primary_names(pts) == ["objective"] and "stopping crit" in pts


def test_a_hand_loops_unnamed_value_is_the_objective(tmp_path):
    for name, start in (("Epoch", 0), ("step", 10)):
        lines = [f"{name} {start + k}: {1.5 / (k + 1):.4f}" for k in range(12)]
        pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), f"{name}.log")
        key = "objective"
        assert pts[key][0] == [start + k for k in range(12)], pts
        assert primary_names(pts) == [key]


def test_an_unnamed_value_stays_nameless_beside_a_loss_a_unit_or_a_count(tmp_path):
    """A record that names its loss keeps it; a time (``12.5s``), a share (``40%``) and a count (only integers) right
    after the position are no objective."""
    shapes = {
        "loss": [f"Epoch {k}: 0.{k + 10}, loss: {1.0 / (k + 1):.4f}" for k in range(1, 12)],
        "time": [f"Epoch {k}: {k + 0.5}s, acc: 0.{k + 10}" for k in range(1, 12)],
        "share": [f"Epoch {k}: {k + 40.5}%" for k in range(1, 12)],
        "count": [f"iter {10 * k}: {1000 + 37 * k}" for k in range(1, 12)],
    }
    for shape, lines in shapes.items():
        pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), f"{shape}.log")
        assert "objective" not in pts, (shape, pts)
    assert primary_names(whole_as_live(tmp_path, ("\n".join(shapes["loss"]) + "\n").encode(), "loss2.log")) == ["loss"]


def _contrastive_bar(path, steps: int, miniters: int) -> list[tuple[int, float]]:
    """A real tqdm bar over ``for _ in pbar`` whose description is the step's losses, set every step (a redraw),
    while the counter is drawn every ``miniters`` steps (CEBRA's ``solver.fit``); the truth: (step, total), 1-based."""
    from tqdm import tqdm

    rnd = random.Random(steps)
    truth = []
    with open(path, "w") as f:
        pbar = tqdm(range(steps), file=f, ncols=120, miniters=miniters, mininterval=0)
        for k in pbar:
            pos = -0.69 - 0.3 * k / steps + 0.03 * rnd.random()
            neg = 6.11 - 0.4 * k / steps + 0.03 * rnd.random()
            p, n = float(f"{pos:.4f}"), float(f"{neg:.4f}")
            total = float(f"{pos + neg:.4f}")
            pbar.set_description(f"pos: {p: .4f} neg: {n: .4f} total: {total: .4f} temperature: {1.0: .4f}")
            truth.append((k + 1, total))
        pbar.close()
    return truth


def test_a_total_summing_a_bars_description_is_its_loss_one_point_a_step(tmp_path):
    for steps, miniters in ((120, 8), (90, 5)):
        p = tmp_path / f"bar_{steps}.log"
        truth = _contrastive_bar(p, steps, miniters)
        pts = whole_as_live(tmp_path, p.read_bytes(), f"bar_{steps}.log")
        assert list(zip(*pts["total_loss"], strict=True)) == truth
        assert primary_names(pts) == ["total_loss"]
        assert pts["pos"][0] == list(range(1, steps + 1))


def test_a_total_that_counts_or_sums_nothing_stays_no_metric(tmp_path):
    shapes = {
        "count": [f"step {k} correct: {30 + k} wrong: {70 - k} total: 100 acc: 0.{30 + k}" for k in range(1, 12)],
        "no sum": [f"step {k} a: {0.1 + 0.01 * k:.2f} b: {0.2 + 0.01 * k:.2f} total: {0.9 + 0.01 * k:.2f}"
                   for k in range(1, 12)],
        "beside a loss": [f"step {k} loss_a: {0.1 + 0.01 * k:.2f} loss_b: {0.2 + 0.01 * k:.2f} total: "
                          f"{0.3 + 0.02 * k:.2f}" for k in range(1, 12)],
    }
    for shape, lines in shapes.items():
        pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), f"{shape.replace(' ', '_')}.log")
        assert "total_loss" not in pts and "total" not in pts, (shape, sorted(pts))
