"""What examples/libraries_holdout97 showed of jenn (issue 32, fixjenn): nested counters in one record.

jenn's ADAM fit prints one line per iteration, ``epoch = 0, batch = 0, iter = 7, cost = 1.258948``: ``iter``
restarts at 0 at every batch and ``batch`` at every epoch. The step is the history flattened, a running count of
iterations from 0: never the innermost counter alone (points of different batches collide), never one outer
counter. The rule "a counter is per-epoch only if it resets when the epoch changes" holds for any outer counter: the
innermost continues across every move of an outer one (``nested_counters``, ``fields.Plan.outer``); one that never
restarts is global and read as printed. Read whole and in pieces alike.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from training_check.tools.parsers import nested_counters
from training_check.tools.parsers.fields import plan_template

from .test_read_misses import truth_points, whole_and_pieces, whole_as_live

ROOT = Path(__file__).resolve().parents[1] / "examples" / "libraries_holdout97"
RUNS = sorted(p.parent.name for p in ROOT.glob("jenn_*/train.log"))


def _nested(lengths: list, fmt, global_inner: bool = False, seed: int = 0) -> tuple[bytes, list[tuple[int, float]]]:
    """A log of nested counters (outermost first), each level's length an int or a (lo, hi) range drawn per
    parent; the values of a decreasing loss with noise; the truth: the history flattened from step 0."""
    rng = random.Random(seed)
    lines: list[str] = []
    truth: list[tuple[int, float]] = []

    def walk(prefix: list[int], depth: int) -> None:
        n = lengths[depth] if isinstance(lengths[depth], int) else rng.randint(*lengths[depth])
        for i in range(n):
            if depth == len(lengths) - 1:
                k = len(truth)
                v = round(2.0 / (1 + 0.05 * k) + rng.random() * 0.01, 6)
                lines.append(fmt([*prefix, k if global_inner else i], v))
                truth.append((k, v))
            else:
                walk([*prefix, i], depth + 1)

    walk([], 0)
    return ("\n".join(lines) + "\n").encode(), truth


_JENN = "epoch = {0}, batch = {1}, iter = {2}, cost = {v:.6f}"
SHAPES = {
    "jenn 3 levels": ([3, 3, 6], lambda p, v: _JENN.format(*p, v=v), "cost"),
    "unequal lengths": ([3, (1, 4), (2, 9)], lambda p, v: _JENN.format(*p, v=v), "cost"),
    "wide counters": ([2, 12, 11], lambda p, v: f"epoch = {p[0]:3d}, batch = {p[1]:3d}, iter = {p[2]:4d}, "
                      f"cost = {v:.6f}", "cost"),
    "2 levels, batch then iter": ([4, 7], lambda p, v: f"batch = {p[0]}, iter = {p[1]}, cost = {v:.6f}", "cost"),
    "2 levels, epoch then iter": ([4, 7], lambda p, v: f"epoch = {p[0]}, iter = {p[1]}, cost = {v:.6f}", "cost"),
    "pipes and words": ([2, 5, 4], lambda p, v: f"Epoch: {p[0]} | Minibatch: {p[1]} | Iteration: {p[2]} | "
                        f"loss: {v:.5f}", "loss"),
    "key=value": ([2, 3, 5], lambda p, v: f"epoch={p[0]} batch={p[1]} step={p[2]} loss={v:.5f}", "loss"),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("global_inner", [False, True])
def test_nested_counters_read_as_the_flattened_history(tmp_path, shape, global_inner):
    lengths, fmt, name = SHAPES[shape]
    data, truth = _nested(lengths, fmt, global_inner, seed=len(shape))
    pts = whole_as_live(tmp_path, data, f"{len(shape)}_{global_inner}.log")
    assert sorted(pts) == [name]
    steps, values = pts[name]
    assert steps == [s for s, _ in truth], shape
    assert np.allclose(values, [v for _, v in truth], rtol=1e-5), shape


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_nested_counters_in_random_pieces(tmp_path, seed):
    data, truth = _nested([3, (2, 5), (3, 8)], lambda p, v: _JENN.format(*p, v=v), seed=seed)
    pts = whole_and_pieces(tmp_path, data, f"pieces{seed}.log", seed=seed)
    assert pts["cost"][0] == [s for s, _ in truth]


def test_the_batch_counter_is_a_position_not_a_value():
    plan = plan_template([b"epoch = 0, batch = 0, iter = 0, cost = 2.127015",
                          b"epoch = 1, batch = 2, iter = 5, cost = 1.2"])
    assert plan is not None and list(plan.metrics.values()) == ["cost"] and len(plan.outer) == 1
    assert plan.epoch is not None and plan.step is not None and plan.epoch < plan.outer[0] < plan.step


def test_outer_positions_compare_lexicographically_across_reads():
    st: dict = {}
    ep = np.array([0, 0, 0, 1, 1, np.nan, 0], dtype=float)
    b = np.array([0, 1, 1, 0, 2, 0, 0], dtype=float)
    keys = nested_counters.outer_positions([ep, b], st)
    assert keys[:5].tolist() == [0, 1, 1, 2, 3] and np.isnan(keys[5]) and keys[6] == 2  # back: a new run
    more = nested_counters.outer_positions([np.array([0.0, 0.0]), np.array([0.0, 1.0])], st)
    assert more.tolist() == [2, 3]


@pytest.mark.parametrize("run", RUNS)
def test_corpus_files_read_at_the_truths_steps(tmp_path, run):
    truth, got = truth_points(tmp_path, ROOT, run)
    rel, tol = truth["tolerance"]["rel"], truth["tolerance"]["abs"]
    for s, v in truth["train_loss"]:
        assert s in got, (run, s)
        assert abs(got[s] - v) <= rel * abs(v) + tol, (run, s, got[s], v)
