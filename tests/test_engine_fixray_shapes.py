"""What examples/libraries_holdout68 showed (fixray). A mapping passed as an argument of a repr call on a line is a
record: Ray Train's worker reports each epoch as ``Reporting training result 1: TrainingReport(checkpoint=Checkpoint(
filesystem=local, path=/tmp/...), metrics={'epoch': 1, 'loss': 8.66, 'lr': 0.01}, validation=False) from rank 0``
behind its process tag (``(RayTrainWorker pid=N)``, ANSI-coloured), among other processes' lines. The call is read as
the mapping alone (``lines.mapping_calls``): its number entries the metrics, a step-like key (``epoch``, ``step``) its
step, whatever the call's other arguments print (paths holding ``=`` and parentheses, flags naming a split); a
``name=dict(k=v, ...)`` argument likewise. Bounded (line length, nesting), linear, the same whole and in pieces."""

from __future__ import annotations

import json
import math
import random
import sys
import time
from pathlib import Path

import pytest
from training_check.tools.parsers.lines import mapping_calls

from .test_read_misses import points_at, primary_names, whole_and_pieces, whole_as_live

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout68"
sys.path.insert(0, str(REPO / "bench"))

import read_corpus  # noqa: E402

TAG = "\x1b[36m({actor} pid={pid})\x1b[0m "


def ray_log(epochs: int, seed: int, val: bool = True, nan_from: int | None = None, step_key: str = "epoch",
            form: str = "brace", digits: int = 17, noise: bool = True) -> tuple[bytes, list[tuple[int, float]],
                                                                             list[tuple[int, float]]]:
    """A Ray Train-like log: controller and cleaner lines, a checkpoint line then a report of the epoch's metrics as
    a mapping argument (``form``: ``brace`` ``metrics={...}`` or ``dict`` ``metrics=dict(...)``) of a report's repr
    that holds a checkpoint's repr before it; the truth (step, loss) and (step, val_loss)."""
    rng = random.Random(seed)
    w, c, g = (TAG.format(actor=a, pid=rng.randrange(1000, 99999)) for a in
               ("RayTrainWorker", "TrainController", "PlacementGroupCleaner"))
    out = ["2026-12-07 06:42:36,353\tWARNING authentication_token_setup.py:85 -- Token authentication is enabled.\n",
           "2026-12-07 06:42:39,668\tINFO worker.py:2038 -- Started a local Ray instance.\n",
           f"{c}Requesting resources: {{'CPU': 1}} * 1\n",
           f"{c}Attempting to start training worker group of size 1 with the following resources: [{{'CPU': 1}}] * 1\n",
           f"{w}Setting up process group for: env:// [rank=0, world_size=1]\n",
           f"{c}Started training worker group of size 1: \n",
           f"{c}- (ip=192.0.2.2, pid=9814) world_rank=0, local_rank=0, node_rank=0\n"]
    loss, vloss = [], []
    for e in range(1, epochs + 1):
        if noise:
            out += [f"{g}Failed to query Ray Train Controller actor state. Continuing to monitor.\n"] * rng.randrange(3)
        v = 8.0 * math.exp(-e / 3) + rng.random() * 0.05
        vv = v * (0.9 + rng.random() * 0.2)
        if nan_from is not None and e >= nan_from:
            v = vv = math.nan
        v, vv = (float(f"{x:.{digits}g}") for x in (v, vv))
        loss.append((e, v))
        vloss.append((e, vv))
        stamp = f"2026-12-07_06-42-{10 + e:02d}.{rng.randrange(10 ** 6):06d}"
        ck = f"Checkpoint(filesystem=local, path=/tmp/ray_results_{seed}/run=a(1)/checkpoint_{stamp})"
        entries = [(step_key, str(e)), ("loss", repr(v)), ("lr", repr(0.01 * 1.5 ** e))]
        if val:
            entries.append(("val_loss", repr(vv)))
        entries.append(("best", "None"))
        if form == "brace":
            metrics = "{" + ", ".join(f"'{k}': {x}" for k, x in entries) + "}"
        else:
            metrics = "dict(" + ", ".join(f"{k}={x}" for k, x in entries) + ")"
        out += [f"{w}Checkpoint successfully created at: {ck}\n",
                f"{w}Reporting training result {e}: TrainingReport(checkpoint={ck}, metrics={metrics}, "
                f"validation=False) from rank 0\n"]
    out.append(f"{c}Finished training.\n")
    return "".join(out).encode(), loss, vloss


def _same(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> None:
    assert [s for s, _ in got] == [s for s, _ in want], (got, want)
    for (_, a), (_, b) in zip(got, want, strict=True):
        assert (math.isnan(a) and math.isnan(b)) or a == b, (a, b)


def test_a_mapping_argument_is_the_record_its_call_holds():
    line = (b"(W pid=1) Reporting training result 1: TrainingReport(checkpoint=Checkpoint(filesystem=local, "
            b"path=/tmp/x=1(2)/c), metrics={'epoch': 1, 'loss': 0.29}, validation=False) from rank 0")
    assert mapping_calls(line) == b"(W pid=1) Reporting training result 1: {'epoch': 1, 'loss': 0.29} from rank 0"
    assert mapping_calls(b"Result(metrics=dict(loss=0.5, step=3, f=F(c=1), l=[g(h=2)]), x=(1, 2))") == (
        b"{'loss': 0.5, 'step': 3, 'f': F(c=1), 'l': [g(h=2)]}")
    assert mapping_calls(b"Can't R(m={'a': nan, 'b': None})\nS(m={'c': -1e-3})") == (
        b"Can't {'a': nan, 'b': None}\n{'c': -1e-3}")
    # left as printed: no call around it, no number entry, unbalanced, a call too deep, a line too long
    for text in (b"x={'a': 1}", b"F(a={'b': 'x'})", b"F(a={'b': 1)", b"F(a={})", b"F" + b"(" * 20 + b"a={'b': 1}" +
                 b")" * 20, b"F(a={'b': 1}, c='" + b"x" * 9000 + b"')", b"1(a={'b': 1})"):
        assert mapping_calls(text) == text, text


def test_mapping_calls_take_linear_time_on_hostile_text():
    for unit in (b"F(" + b"a=dict(b=(), c=[], d={}), " * 300 + b")\n", b"={" * 4000 + b"\n",
                 b"F(a={" + b"'x': 1, " * 1000 + b"})\n", b"(a=dict(" * 1500 + b"\n", b"x='" * 3000 + b"\n",
                 b"F(a={'b': 1}) " * 2000 + b"\n"):
        data = unit * max(1, (1 << 20) // len(unit))
        t = time.perf_counter()
        mapping_calls(data)
        assert time.perf_counter() - t < 3.0, unit[:40]


@pytest.mark.parametrize("epochs,seed,val,digits", [(8, 1, True, 17), (10, 2, False, 17), (30, 3, True, 6),
                                                    (3, 4, False, 4), (60, 5, True, 12)])
def test_the_reported_metrics_are_read_at_their_epoch(tmp_path, epochs, seed, val, digits):
    data, loss, vloss = ray_log(epochs, seed, val=val, digits=digits)
    pts = whole_and_pieces(tmp_path, data, f"ray{seed}.log", seed=seed, trials=2)
    _same(points_at(pts, "loss"), loss)
    if val:
        _same(points_at(pts, "val_loss"), vloss)
    assert primary_names(pts) == ["loss"]
    assert len(pts["lr"][0]) == epochs


@pytest.mark.parametrize("form,step_key", [("dict", "epoch"), ("brace", "step"), ("dict", "step")])
def test_a_dict_call_and_a_step_key_read_alike(tmp_path, form, step_key):
    data, loss, vloss = ray_log(12, 7, form=form, step_key=step_key)
    pts = whole_as_live(tmp_path, data, f"ray_{form}_{step_key}.log")
    _same(points_at(pts, "loss"), loss)
    _same(points_at(pts, "val_loss"), vloss)


def test_a_run_that_went_nan_reads_its_nans_at_their_epochs(tmp_path):
    data, loss, _ = ray_log(12, 8, nan_from=8, noise=False)
    pts = whole_as_live(tmp_path, data, "ray_nan.log")
    _same(points_at(pts, "loss"), loss)


def _ray_runs() -> list[str]:
    return sorted(p.name for p in FOLDER.glob("raytrain_*") if (p / "truth.json").is_file())


@pytest.mark.parametrize("run", _ray_runs())
def test_the_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    pts = whole_and_pieces(tmp_path, (folder / "train.log").read_bytes(), "train.log", seed=len(run), trials=2)
    got = dict(zip(*pts[truth["loss_name"]], strict=True))
    assert sorted(got) == [s for s, _ in truth["train_loss"]]
    for step, v in truth["train_loss"]:
        t = float(v)
        if math.isnan(t):
            assert math.isnan(got[step]), (run, step)
        else:
            assert abs(got[step] - t) <= read_corpus._tolerance(t, truth["tolerance"]), (run, step, t)
    assert primary_names(pts) == [truth["loss_name"]]
