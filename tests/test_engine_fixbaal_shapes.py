"""What examples/libraries_holdout87 showed of baal 2.1.0 (fixbaal). ``ModelWrapper.train_on_dataset`` logs through
structlog's console renderer (ANSI-coloured) at each call ``[2124-MainThread ] [baal.modelwrapper:train_on_dataset:85]
<ISO time>Z [info     ] Starting training   dataset=240 epoch=1``, then ``... Training complete   train_loss=7.93``,
maybe ``Starting evaluating dataset=60`` and ``Evaluation complete   test_loss=4.61``. The ``epoch=1`` named at each
call is the call's setting (the same value before every record), no step: the records are numbered by their order.
The bracketed source location ``[pkg.module:function:lineno]`` (logging's ``%(name)s:%(funcName)s:%(lineno)d``) is
a preamble, no metric. structlog's ``key=value`` pairs after the event are the record's fields. Each read whole and
in pieces."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from training_check.tools.parsers.fields import plan_template, source_location_at

from .test_read_misses import _live, assert_at_truth, corpus_runs, points_at, primary_names, whole_and_pieces

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout87"


def _kv(k: str, v: str, ansi: bool) -> str:
    return f"\x1b[36m{k}\x1b[0m=\x1b[35m{v}\x1b[0m" if ansi else f"{k}={v}"


def baal_log(calls: int, epoch: int = 1, seed: int = 0, ansi: bool = True, test: bool = True,
             nan_from: int | None = None, pid: int = 2124, module: str = "baal.modelwrapper",
             width: int = 30) -> tuple[str, list[tuple[int, float]]]:
    """A baal-like log of ``calls`` training calls, each ``epoch`` epochs (the same setting at every call); the
    truth: the n-th ``Training complete``'s ``train_loss`` at n."""
    rng = random.Random(seed)
    out: list[str] = []
    truth: list[tuple[int, float]] = []
    t = 0

    def line(func: str, lineno: int, event: str, pairs: list[tuple[str, str]]) -> str:
        nonlocal t
        t += 1 + rng.randrange(50000)
        stamp = f"2026-12-07T16:{t // 60000000 % 60:02d}:{t // 1000000 % 60:02d}.{t % 1000000:06d}Z"
        lvl = "\x1b[32m\x1b[1minfo     \x1b[0m" if ansi else "info     "
        ev = f"\x1b[1m{event:<{width}}\x1b[0m" if ansi else f"{event:<{width}}"
        st = f"\x1b[2m{stamp}\x1b[0m" if ansi else stamp
        return (f"[{pid}-MainThread ] [{module}:{func}:{lineno}] {st} [{lvl}] {ev} "
                + " ".join(_kv(k, v, ansi) for k, v in pairs) + "\n")

    for c in range(1, calls + 1):
        out.append(line("train_on_dataset", 85, "Starting training", [("dataset", str(240 + 0 * c)),
                                                                       ("epoch", str(epoch))]))
        if c == 1:
            out.append("/venv/lib/python3.11/site-packages/baal/utils/metrics.py:70: UserWarning: Converting a "
                       "tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n")
        v = 2.0 * math.exp(-c / 5) + 0.1 + rng.random() * 0.05
        v = float("nan") if nan_from is not None and c >= nan_from else float(repr(v))
        truth.append((c, v))
        out.append(line("train_on_dataset", 99, "Training complete", [("train_loss", repr(v))]))
        if test:
            out.append(line("test_on_dataset", 120, "Starting evaluating", [("dataset", "60")]))
            out.append(line("test_on_dataset", 132, "Evaluation complete",
                            [("test_loss", repr(1.5 * math.exp(-c / 6) + rng.random() * 0.1))]))
    return "".join(out), truth


def _same(got: list[tuple[int, float]], truth: list[tuple[int, float]]) -> None:
    assert [s for s, _ in got] == [s for s, _ in truth], (got, truth)
    for (_, a), (_, b) in zip(got, truth, strict=True):
        assert (math.isnan(a) and math.isnan(b)) or a == b, (a, b)


def test_a_bracketed_module_function_line_location_is_a_preamble_no_metric():
    line = (b"[2124-MainThread ] [baal.modelwrapper:train_on_dataset:99] 2026-12-07T16:51:59.319258Z [info     ] "
            b"Training complete             train_loss=7.933389663696289")
    plan = plan_template([line])
    assert plan is not None and list(plan.metrics.values()) == ["train_loss"], plan
    a = line.index(b":99]") + 1
    assert source_location_at(line, a, a + 2)
    for loc in (b"[__main__:main:7]", b"[pkg.sub.mod:<module>:1234]", b"[train.py:42]", b"[@monitor.py:476]"):
        a = loc.rindex(b":") + 1
        assert source_location_at(b"x " + loc + b" loss=0.5", a + 2, len(loc) + 1), loc
    for kept in (b"[loss:0.5]", b"[a b:c:12]", b"[1:2:3]"):  # (no name, a blank, no function's name)
        a = kept.rindex(b":") + 1
        assert not source_location_at(kept, a, len(kept) - 1), kept
    plan = plan_template([b"[2124-MainThread ] [trainer.loop:fit:85] Starting training dataset=240 epoch=3"])
    assert plan is not None and "fit" not in plan.metrics.values(), plan


@pytest.mark.parametrize("kw", [dict(calls=12), dict(calls=6, epoch=6), dict(calls=10, test=False, seed=2),
                                dict(calls=14, ansi=False, seed=4, pid=7, module="__main__"),
                                dict(calls=7, epoch=8, width=22, seed=5), dict(calls=16, nan_from=9, seed=6),
                                dict(calls=3, epoch=2, seed=7), dict(calls=40, seed=8, pid=123456)])
def test_a_calls_epoch_setting_is_no_step_the_records_numbered_in_order(tmp_path, kw):
    text, truth = baal_log(**kw)
    pts = _live(tmp_path, text.encode(), [], name="whole.log")
    assert primary_names(pts) == ["train_loss"], sorted(pts)
    _same(points_at(pts, "train_loss"), truth)
    assert not {"train_on_dataset", "test_on_dataset", "avg_train_loss"} & set(pts), sorted(pts)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_read_in_random_pieces_as_whole(tmp_path, seed):
    text, truth = baal_log(calls=9 + seed * 3, epoch=1 + seed, seed=seed, test=seed != 1)
    pts = whole_and_pieces(tmp_path, text.encode(), "rand.log", seed=seed)
    _same(points_at(pts, "train_loss"), truth)


def test_an_epoch_that_advances_stays_the_step(tmp_path):
    """The same header at each epoch naming an epoch that moves (``epoch=1``, ``epoch=2``, ...): the epoch is the
    records' position, as before."""
    out = []
    for e in range(1, 9):
        out.append(f"[7-MainThread ] [lib.loop:fit:10] 2026-12-07T16:51:{e:02d}.000000Z [info     ] Starting epoch "
                   f"   epoch={e}\n")
        out.append(f"[7-MainThread ] [lib.loop:fit:20] 2026-12-07T16:51:{e:02d}.500000Z [info     ] Epoch done "
                   f"   train_loss={1.0 / e:.6f}\n")
    pts = _live(tmp_path, "".join(out).encode(), [], name="adv.log")
    assert [s for s, _ in points_at(pts, "train_loss")] == list(range(1, 9)), pts


@pytest.mark.parametrize("run", [r for r in corpus_runs(FOLDER, "baal_") if not r.startswith("baal_al_")])
def test_the_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    data = (folder / "train.log").read_bytes()
    pts = _live(tmp_path, data, [], name="whole.log")
    live = _live(tmp_path, data, [int(c * len(data)) for c in (0.03, 0.2, 0.37, 0.55, 0.81)], name="live.log")
    assert json.dumps(live, sort_keys=True) == json.dumps(pts, sort_keys=True), run
    assert primary_names(pts) == ["train_loss"], run
    assert_at_truth(dict(zip(*pts["train_loss"], strict=True)), truth, run)


def labml_log(epochs: int, per_epoch: int = 256, parts: int = 8, seed: int = 0, width: int = 8) -> tuple[
        str, list[tuple[int, float]]]:
    """A labml-like monitor: per epoch the section ``Train`` redrawn with ``\\r`` at each part (ANSI-coloured,
    ``Train   12%\\t59.28ms``), ``Train...[DONE]``, then the global step at line start with thousands separators and the
    indicators (``   1,024:   loss.train: 0.271746 accuracy.train: 0.898438``). The truth: loss.train at each step."""
    rng = random.Random(seed)
    clear = "\r" + " " * 100 + "\r"
    out = [clear + "Training a cls MLP on 256 samples, 8 batches an epoch\n"]
    truth = []
    for e in range(1, epochs + 1):
        out.append(clear + "Train...")
        for p in range(1, parts + 1):
            out.append(clear + f"Train\x1b[35m{100 * p // parts:>5d}%\x1b[0m\x1b[34m\t{rng.random() * 60:.2f}ms\x1b[0m")
        out.append(clear + f"Train\x1b[32m...[DONE]\x1b[0m\x1b[34m\t{rng.random() * 30:.2f}ms\x1b[0m\n")
        g = e * per_epoch
        v = float(f"{math.exp(-e / 3) + rng.random() * 0.01:.6f}")
        truth.append((g, v))
        out.append(clear + f"\x1b[1m\x1b[33m{g:>{width},}:  \x1b[0m loss.train: \x1b[1m{v:.6f}\x1b[0m accuracy.train: "
                   f"\x1b[1m{0.5 + e / 40:.6f}\x1b[0m\r\n")
    return "".join(out), truth


@pytest.mark.parametrize("kw", [dict(epochs=10), dict(epochs=12, per_epoch=1000, parts=4, seed=1),
                                dict(epochs=6, per_epoch=12800, parts=5, seed=2, width=10)])
def test_a_splits_progress_in_percent_is_no_loss_a_grouped_step_one_number(tmp_path, kw):
    """labml's ``Train   12%`` is the section's progress (no ``train_loss`` of 12..100), its step ``1,024`` one
    number: ``loss.train`` at each global step, whole and in pieces."""
    text, truth = labml_log(**kw)
    pts = whole_and_pieces(tmp_path, text.encode(), "labml.log", seed=kw.get("seed", 0))
    assert "train_loss" not in pts and primary_names(pts) == ["loss.train"], sorted(pts)
    _same(points_at(pts, "loss.train"), truth)


@pytest.mark.parametrize("run", corpus_runs(FOLDER, "labml_"))
def test_the_labml_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    data = (folder / "train.log").read_bytes()
    pts = _live(tmp_path, data, [], name="whole.log")
    assert primary_names(pts) == [truth["loss_name"]], run
    assert_at_truth(dict(zip(*pts[truth["loss_name"]], strict=True)), truth, run)
