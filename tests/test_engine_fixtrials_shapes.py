"""What examples/libraries_holdout59 and 60 showed (issue 32, fixtrials). A repr of a named value (a dataclass's or a
named tuple's ``Cls(field=value, ...)``: orion's ``Completed trials with results: [Result(name='objective',
type='objective', value=17.85)]``, MLflow's ``Metric(key='loss', value=0.3, timestamp=..., step=3)``,
``Measurement(metric='loss', value=0.3)``) names its value by its name field: the metric so named, at its step field
if it has one, else one record a step in line order; any other repr (a list inside, no name, no number) is left as
printed. A verb before a name (DFO-LS's ``Function eval 7 at point 7 has obj = 3.378``) is no part of it."""

from __future__ import annotations

import json
import math
import random
import time
from pathlib import Path

import pytest
from training_check.tools.parsers.lines import named_values

from .test_read_misses import _live, primary_names, whole_as_live

REPO = Path(__file__).resolve().parents[1]
H60 = REPO / "examples" / "libraries_holdout60"
H59 = REPO / "examples" / "libraries_holdout59"


def _orion(trials: int, seed: int, width: int = 17, noise: bool = True) -> tuple[bytes, list[float]]:
    rnd = random.Random(seed)
    out, values = [], []
    for t in range(trials):
        if noise:
            out.append("/venv/lib/python3.11/site-packages/orion/core/utils/__init__.py:18: UserWarning: "
                       "pkg_resources is deprecated as an API.\n  import pkg_resources\n")
        v = float(f"{20.0 * math.exp(-0.6 * t) + rnd.random() * 0.01:.{width}g}")
        values.append(v)
        out.append(f"2026-12-07 02:29:{10 + t:02d},387::INFO::orion.core.worker.experiment::Completed trials with "
                   f"results: [Result(name='objective', type='objective', value={v!r})]\n")
        if noise:
            out.append(f"2026-12-07 02:29:{10 + t:02d},421::WARNING::root::Script /venv/bin/python is not in a git "
                       "repository. Code modification won't be detected.\n")
    out.append(f"Search finished successfully\n\nStats\n=====\ncompleted: True\ntrials completed: {trials}\n")
    return "".join(out).encode(), values


def test_a_named_values_repr_is_its_name_then_its_value():
    assert named_values(b"results: [Result(name='objective', type='objective', value=17.85)]") == (
        b"results: [objective: 17.85]")
    assert named_values(b"Metric(key='loss', value=0.3, timestamp=1700000000000, step=3)") == b"step: 3 loss: 0.3"
    assert named_values(b"Measurement(metric=\"val loss\", value=nan)") == b"val loss: nan"
    # left as printed: a list as its value, no name field, a name that is no quoted name, no number, a call's args
    for text in (b"Result(name='gradient', type='gradient', value=[0.1, 0.2])", b"Foo(a=1, value=2)",
                 b"Result(name=objective, value=2)", b"Result(name='objective', value=None)",
                 b"Result(name='objective', value=abc)", b"print(value=2)", b"Result(value=2, name='x', (y))"):
        assert named_values(text) == text, text
    # two in one list: each read; the one that is no named value left
    assert named_values(b"[Result(name='objective', type='objective', value=1.5), Result(name='g', type='gradient', "
                        b"value=[1, 2])]") == b"[objective: 1.5, Result(name='g', type='gradient', value=[1, 2])]"


def test_named_values_take_linear_time_on_hostile_text():
    for text in (b"A(" * 200_000, b"Result(name='x', " * 100_000 + b"value=1)", b"Ab(" + b"a=1, " * 300_000,
                 (b"Result(" + b"x" * 2000 + b"value=1)\n") * 200):
        t = time.perf_counter()
        named_values(text)
        assert time.perf_counter() - t < 2.0, text[:40]


@pytest.mark.parametrize("trials,seed,width", [(8, 1, 17), (12, 2, 12), (30, 3, 6), (5, 4, 17)])
def test_orions_trial_results_are_the_objective_one_a_trial_in_completion_order(tmp_path, trials, seed, width):
    data, values = _orion(trials, seed, width)
    pts = whole_as_live(tmp_path, data, f"orion{trials}.log")
    assert primary_names(pts) == ["objective"], pts.keys()
    assert pts["objective"] == (list(range(1, trials + 1)), values)


def test_a_trial_that_failed_is_a_non_finite_objective(tmp_path):
    data, values = _orion(8, 5, noise=False)
    data = data.replace(repr(values[5]).encode(), b"nan").replace(repr(values[4]).encode(), b"inf")
    pts = _live(tmp_path, data, [len(data) // 3])
    steps, got = pts["objective"]
    assert steps == list(range(1, 9))
    assert math.isinf(got[4]) and math.isnan(got[5]) and got[:4] == values[:4]


def test_a_metric_repr_with_its_step_is_at_that_step(tmp_path):
    lines, truth = [], []
    for s in range(0, 400, 20):
        v = 2.0 * math.exp(-s / 150) + 0.01 * (s % 3)
        truth.append((s, v))
        lines.append(f"logged Metric(key='loss', value={v!r}, timestamp={1700000000000 + s}, step={s})\n")
    pts = whole_as_live(tmp_path, "".join(lines).encode(), "mlflow.log")
    assert pts["loss"] == ([s for s, _ in truth], [v for _, v in truth])
    assert "timestamp" not in pts


def _dfols(evals: int) -> tuple[bytes, list[float]]:
    out, obj = [], []
    for k in range(1, evals + 1):
        v = 20.0 / k + 0.37 * (k % 4)
        obj.append(v)
        out.append(f"Function eval {k} at point {k} has obj = {v!r} at x = [1.0 {0.1 * k:.3f}]\n")
    return "".join(out).encode(), obj


def test_a_verb_before_a_name_is_no_part_of_it(tmp_path):
    data, obj = _dfols(60)
    pts = whole_as_live(tmp_path, data, "dfols.log")
    assert "obj" in pts and "has obj" not in pts, pts.keys()
    assert pts["obj"] == (list(range(1, 61)), obj)


def _truth(run: Path) -> list[tuple[int, float]]:
    return [(int(s), float(v)) for s, v in json.loads((run / "truth.json").read_text())["train_loss"]]


@pytest.mark.parametrize("run", sorted(p.name for p in H60.glob("orion_*")))
def test_orions_corpus_files_are_read_at_the_truths_steps(tmp_path, run):
    data = (H60 / run / "train.log").read_bytes()
    pts = whole_as_live(tmp_path, data, f"{run}.log")
    truth = _truth(H60 / run)
    steps, values = pts["objective"]
    got = dict(zip(steps, values, strict=True))
    for s, v in truth:
        assert s in got, (run, s)
        assert got[s] == v or (math.isnan(v) and math.isnan(got[s])), (run, s, v, got[s])


@pytest.mark.parametrize("run", sorted(p.name for p in H59.glob("dfols_*")))
def test_dfols_objective_is_named_obj(tmp_path, run):
    pts = _live(tmp_path, (H59 / run / "train.log").read_bytes(), [])
    assert "obj" in pts and not [k for k in pts if k.startswith("has ")], pts.keys()
