"""What examples/libraries_holdout84 showed of tensorpack 0.11 (fixtensorpack). Its logger stamps every line with a
month and a day glued in four digits, a clock and the source location closing it (``[1207 13:58:21 @monitor.py:476]``;
glog's and absl's ``I1207 13:58:21.123456 12345 file.py:42]`` is the same shape with the level glued to it): a
preamble, none of its numbers a field (``1207`` was read as the step of every record). At each epoch's end it prints
``[...] Epoch 4 (global_step 64) finished, time:0.00562 second.``, maybe ``Model saved to ...``, then one statistic a
line sorted by name (``cross_entropy_loss: 0.26671``, ``lr: 0.01``, ``train_error: 0.11102``,
``validation_cross_entropy_loss: 0.21647``), each under the same preamble: one record at the epoch's global step (the
truth's epoch x ``steps_per_epoch``, a numbering bench/read_corpus.py scores as right). A ``total_cost`` (the cost plus
``regularize_loss``) beside the losses is the run's loss; a regularisation term is never the primary. Each read whole
and in pieces."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest
from training_check.tools.objective import assign_roles
from training_check.tools.parsers.banners import preamble_end
from training_check.tools.parsers.fields import stamp_end

from .test_read_misses import _live, corpus_runs, points_at, primary_names, whole_and_pieces

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout84"
sys.path.insert(0, str(REPO / "bench"))

import read_corpus  # noqa: E402

STAMPS = {
    "tensorpack": lambda t, src: f"[1207 13:{t // 60 % 60:02d}:{t % 60:02d} @{src}] ",
    "tensorpack_jan": lambda t, src: f"[0103 09:{t // 60 % 60:02d}:{t % 60:02d} @{src}] ",
    "glog": lambda t, src: f"I1207 13:{t // 60 % 60:02d}:{t % 60:02d}.{t * 7919 % 1000000:06d} 140390 {src}] ",
}


def tensorpack_log(epochs: int, spe: int, stamp: str = "tensorpack", seed: int = 0, val: bool = True,
                   saver: bool = True, extra: tuple[str, ...] = ("train_error",), nan_from: int | None = None,
                   total: bool = False) -> tuple[str, list[tuple[int, float]], list[tuple[int, float]], str]:
    """A tensorpack-like log: TensorFlow's absl lines, the logger's setup lines, then per epoch ``Start Epoch e``, a
    tqdm bar ``\\r``-joined on one line, ``Epoch e (global_step g) finished``, maybe ``Model saved``, an inference
    bar, and the statistics sorted by name, one a line, each under the logger's stamp (``stamp``). The truth: the
    loss at each epoch's global step, the validation loss there, and the loss's name."""
    rng = random.Random(seed)
    pre = STAMPS[stamp]
    loss = "total_cost" if total else "mse_loss" if seed % 2 else "cross_entropy_loss"
    t = 0
    out = ["I0000 00:00:1796651896.692072   13773 port.cc:153] oneDNN custom operations are on.\n",
           pre(t, "logger.py:92") + "Argv: train.py --val\n",
           pre(t, "base.py:207") + "Setup callbacks graph ...\n",
           pre(t, "inference_runner.py:95") + "[InferenceRunner] Will eval 4 iterations\n"]
    train: list[tuple[int, float]] = []
    evals: list[tuple[int, float]] = []
    for e in range(1, epochs + 1):
        t += 1 + rng.randrange(70)
        g = e * spe
        v = 2.5 * math.exp(-e / 4) + 0.2 + rng.random() * 0.1
        v = float("nan") if nan_from is not None and e >= nan_from else float(f"{v:.5g}")
        w = float(f"{3.0 * math.exp(-e / 5) + 0.3 + rng.random() * 0.1:.5g}")
        train.append((g, v))
        out.append(pre(t, "base.py:273") + f"Start Epoch {e} ...\n")
        out.append(f"\r  0%|          |0/{spe}[00:00<?,?it/s]\r100%|##########|{spe}/{spe}[00:00<00:00,76.65it/s]\n")
        out.append(pre(t, "base.py:282") + f"Epoch {e} (global_step {g}) finished, time:{rng.random():.3g} second.\n")
        if saver:
            out.append(pre(t, "saver.py:82") + f"Model saved to train_log/model-{g}.\n")
        stats = {loss: v, "lr": 0.01 * 2 ** e}
        if total:
            stats["cross_entropy_loss"] = float(f"{v * 0.9:.5g}")
            stats["regularize_loss"] = float(f"{0.06 + e * 0.001:.5g}")
        for x in extra:
            stats[x] = float(f"{rng.random() * 0.4:.5g}")
        if val:
            out.append("\r  0%|          |0/4[00:00<?,?it/s]\r100%|##########|4/4[00:00<00:00,389.40it/s]\n")
            stats["validation_" + loss] = w
            evals.append((g, w))
        for name in sorted(stats):
            x = stats[name]
            out.append(pre(t, "monitor.py:476") + f"{name}: {'nan' if math.isnan(x) else f'{x:.5g}'}\n")
    return "".join(out), train, evals, loss


def _whole_as_live(tmp_path, data: bytes, name: str) -> dict:
    """``whole_as_live``'s check (the same cuts), its points compared whatever order their names first came in: a
    read in pieces may give an epoch's ``validation_`` point a read before its loss's (carried to the next read),
    the same points in the end."""
    whole = _live(tmp_path, data, [], name=f"whole_{name}")
    live = _live(tmp_path, data, [int(c * len(data)) for c in (0.03, 0.2, 0.37, 0.55, 0.81)], name=f"live_{name}")
    assert json.dumps(live, sort_keys=True) == json.dumps(whole, sort_keys=True), name
    return whole


def _same(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> None:
    assert [s for s, _ in got] == [s for s, _ in want]
    for (_, a), (_, b) in zip(got, want, strict=True):
        assert (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-9 * max(1.0, abs(b)), (a, b)


def test_a_month_day_stamp_closed_by_a_source_location_is_a_preamble():
    line = b"[1207 13:58:21 @monitor.py:476] cross_entropy_loss: 0.26671"
    assert line[stamp_end(line):] == b" cross_entropy_loss: 0.26671"
    assert line[preamble_end(line):].strip() == b"cross_entropy_loss: 0.26671"
    line = b"[0103 09:00:01 @base.py:282] Epoch 4 (global_step 64) finished, time:0.00562 second."
    assert line[stamp_end(line):].startswith(b" Epoch 4 (global_step 64)")
    glog = b"I1207 13:58:21.123456 12345 file.py:42] loss: 0.5"
    assert glog[stamp_end(glog):] == b" loss: 0.5"
    # no source location closing it, or no month and day: no stamp (the numbers stay the record's)
    assert stamp_end(b"1207 13:58:21 loss: 3") == 0
    assert stamp_end(b"[1399 13:58:21 @monitor.py:476] loss: 3") == 0
    assert stamp_end(b"[1207 13:58:21 @monitor:476] loss: 3") == 0


@pytest.mark.parametrize("kw", [
    dict(epochs=8, spe=16),
    dict(epochs=12, spe=5, seed=1, val=False),
    dict(epochs=6, spe=8, seed=2, saver=False, extra=()),
    dict(epochs=10, spe=128, seed=3, stamp="tensorpack_jan", extra=("train_error", "accuracy")),
    dict(epochs=9, spe=6, seed=5, stamp="glog"),
    dict(epochs=12, spe=16, seed=7, nan_from=9),
])
def test_each_epochs_statistics_are_one_record_at_its_global_step(tmp_path, kw):
    text, train, evals, loss = tensorpack_log(**kw)
    data = text.encode()
    pts = _whole_as_live(tmp_path, data, "tp.log")
    _same(points_at(pts, loss), train)
    assert primary_names(pts) == [loss]
    if evals:
        _same(points_at(pts, "validation_" + loss), evals)
    assert all(s != 1207 and s != 103 for k in pts for s in pts[k][0])  # (the stamp's date no step)


def test_read_in_random_pieces_as_whole(tmp_path):
    text, train, _evals, loss = tensorpack_log(10, 16, seed=4)
    pts = whole_and_pieces(tmp_path, text.encode(), "rand.log", seed=3)
    _same(points_at(pts, loss), train)


def test_a_total_cost_beside_losses_is_the_loss_a_regularisation_term_never(tmp_path):
    text, train, _evals, loss = tensorpack_log(10, 16, seed=6, total=True)
    pts = _whole_as_live(tmp_path, text.encode(), "total.log")
    assert loss == "total_cost" and primary_names(pts) == ["total_cost"]
    _same(points_at(pts, "total_cost"), train)
    names = ["cross_entropy_loss", "regularize_loss"]
    assert [n for n, r in assign_roles(names).items() if r.primary] == ["cross_entropy_loss"]
    assert [n for n, r in assign_roles(["reg_loss", "loss"]).items() if r.primary] == ["loss"]
    assert [n for n, r in assign_roles(["l2_loss"]).items() if r.primary] == ["l2_loss"]  # (alone: the loss)


@pytest.mark.parametrize("run", corpus_runs(FOLDER, "tensorpack_"))
def test_the_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    data = (folder / "train.log").read_bytes()
    pts = _live(tmp_path, data, [], name="whole.log")
    start = data.index(b"Start Epoch 2 ")
    live = _live(tmp_path, data, [start + int(c * (len(data) - start)) for c in (0.03, 0.2, 0.37, 0.55, 0.81)],
                 name="live.log")
    assert json.dumps(live, sort_keys=True) == json.dumps(pts, sort_keys=True), run
    name = truth["loss_name"]
    assert primary_names(pts) == [name], run
    spe = int(truth["steps_per_epoch"])
    got = dict(zip(*pts[name], strict=True))
    for epoch, v in truth["train_loss"]:
        t, step = float(v), int(epoch) * spe  # (the epoch's global step: epoch x steps_per_epoch)
        assert step in got, (run, step)
        if math.isnan(t):
            assert math.isnan(got[step]), (run, step)
        elif math.isinf(t):
            assert got[step] == t, (run, step)
        else:
            assert abs(got[step] - t) <= read_corpus._tolerance(t, truth["tolerance"]), (run, step, t, got[step])
