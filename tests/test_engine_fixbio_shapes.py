"""What examples/libraries_holdout72 showed (biotrainer 1.4.0, fixbio). An epoch's record is Python logging's lines,
each carrying the logger's preamble (a time stamp and its level): ``2026-12-07 08:33:31,751 INFO Epoch 0``, then
``... INFO Training results`` over one metric a line (``... INFO \\tloss: 2.79``, ``... INFO \\tmse: 2.79``), then
``... INFO Validation results`` over the validation's own ``\\tloss: 4.22`` lines. A record's lines may each carry
the preamble: a banner naming a split heads the bare ``name: value`` lines under it whatever preamble they share,
and an ``Epoch N`` line alone is the epoch of what follows (as without the preamble:
tests/test_engine_fixpyhealth_shapes.py, tests/test_engine_banners.py). Each read whole and in pieces (past the first
epochs, as there)"""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest
from training_check.tools.parsers.banners import bare_named, preamble_end, split_banner

from .test_read_misses import _live, points_at, primary_names

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout72"
sys.path.insert(0, str(REPO / "bench"))

import read_corpus  # noqa: E402

STAMPS = {
    "comma": lambda t: f"2026-12-07 08:{t // 60 % 60:02d}:{t % 60:02d},{t * 37 % 1000:03d} INFO ",
    "dot": lambda t: f"2026-12-07 08:{t // 60 % 60:02d}:{t % 60:02d}.{t * 37 % 1000:03d} INFO ",
    "plain": lambda t: f"2026/12/07 08:{t // 60 % 60:02d}:{t % 60:02d} INFO ",
    "bracket": lambda t: f"[2026-12-07 08:{t // 60 % 60:02d}:{t % 60:02d},{t * 7 % 1000:03d}] INFO: ",
}


def stamped_log(epochs: int, metrics: tuple[str, ...] = ("mse", "rmse"), stamp: str = "comma", seed: int = 0,
                decimals: int = 2, train_banner: str = "Training results", eval_banner: str = "Validation results",
                between: bool = True, tab: str = "\t") -> tuple[str, list[tuple[int, float]], list[tuple[int, float]]]:
    """A biotrainer-like log: its pipeline's lines, then per epoch ``Epoch e`` (0-based), the train record under
    ``train_banner`` (``loss`` then ``metrics``, one a line), the validation's under ``eval_banner``, a checkpoint's
    line (``between``), every line behind the logger's preamble (``stamp``). The truth: the
    train and the validation loss at each epoch."""
    rng = random.Random(seed)
    pre = STAMPS[stamp]
    t = 0
    out = [pre(t) + "** Running the training routine **\n", pre(t) + "Using seed: 0\n",
           pre(t) + "Number of features (i.e. embedding dimension): 21\n", pre(t) + "Executing step: TrainingStep\n"]
    train: list[tuple[int, float]] = []
    evals: list[tuple[int, float]] = []
    for e in range(epochs):
        t += 1 + rng.randrange(3)
        v = round(2.5 * math.exp(-e / 4) + 0.2 + rng.random() * 0.1, decimals)
        w = round(3.0 * math.exp(-e / 5) + 0.3 + rng.random() * 0.1, decimals)
        train.append((e, v))
        evals.append((e, w))
        out.append(pre(t) + f"Epoch {e}\n")
        for banner, loss in ((train_banner, v), (eval_banner, w)):
            out.append(pre(t) + banner + "\n")
            out.append(pre(t) + f"{tab}loss: {loss:.{decimals}f}\n")
            out += [pre(t) + f"{tab}{m}: {rng.random():.{decimals}f}\n" for m in metrics]
        if between:
            out.append(pre(t) + f"Checkpoint(s) will be stored at /tmp/run-{seed}/ckpt.safetensors\n")
    out.append(pre(t) + f"Total training time for split hold_out: {0.64 * epochs} [s]\n")
    out.append(pre(t) + "Running final evaluation on the best model\n")
    return "".join(out), train, evals


VARIANTS = [
    dict(epochs=12),
    dict(epochs=6, metrics=("accuracy", "macro-precision", "micro-recall", "matthews-corr-coeff"), decimals=4),
    dict(epochs=15, metrics=(), stamp="dot"),
    dict(epochs=8, stamp="plain", between=False),
    dict(epochs=9, stamp="bracket", decimals=3),
    dict(epochs=10, metrics=("a", "b", "c", "d", "e", "f", "g"), tab="    "),
    dict(epochs=7, eval_banner="Evaluation:", train_banner="Training:"),
    dict(epochs=11, eval_banner="=== Validation ===", train_banner="=== Train ===", stamp="dot"),
]


@pytest.mark.parametrize("kw", VARIANTS, ids=[str(i) for i in range(len(VARIANTS))])
def test_stamped_records_under_an_epoch_line_and_split_banners(tmp_path, kw):
    text, train, evals = stamped_log(**kw, seed=len(str(kw)))
    data = text.encode()
    whole = _live(tmp_path, data, [], name="whole.log")
    assert points_at(whole, "loss") == train, (points_at(whole, "loss")[:4], train[:4])
    assert points_at(whole, "eval_loss") == evals, (points_at(whole, "eval_loss")[:4], evals[:4])
    assert primary_names(whole) == ["loss"]
    rng = random.Random(len(data))
    start = data.index(b"Epoch 2\n")  # (past the first epochs: a first read of a young log's first epoch alone
    # places it by line order, as without the preamble: tests/test_read_determinism.py's KNOWN)
    for t in range(4):  # cut anywhere after, mid-line too
        cuts = sorted(rng.sample(range(start, len(data)), 1 + 2 * t))
        live = _live(tmp_path, data, cuts, name=f"live{t}.log")
        assert json.dumps(live, sort_keys=True) == json.dumps(whole, sort_keys=True), cuts


def test_the_preamble_is_no_part_of_a_banner_nor_of_a_bare_line():
    """A banner or a bare line behind the logger's preamble is one still, the lines as the engine holds them too (a
    clock's milliseconds ungrouped); a line whose preamble is followed by prose, a value or two splits is not."""
    for pre in (b"2026-12-07 08:33:31,751 INFO ", b"2026-12-07 08:33:31751 INFO ", b"[2026-12-07 08:33:31] INFO: ",
                b"12/07/2026 08:33:31 WARNING "):
        assert preamble_end(pre + b"x") == len(pre.rstrip()), pre
        assert split_banner(pre + b"Validation results") and split_banner(pre + b"=== Eval ===")
        assert not split_banner(pre + b"Training results") and not split_banner(pre + b"Train/Val results")
        assert not split_banner(pre + b"Loading the validation set from disk now")
        assert bare_named(pre + b"\tloss: 2.79") and bare_named(pre + b"\tmacro-precision: 0.20")
        assert not bare_named(pre + b"Using seed: 0 and more") and not bare_named(pre + b"Read 200 entries.")
    assert preamble_end(b"3 4 5 loss: 3") == 0 and preamble_end(b"12:30:11 - loss: 3") == 0 and preamble_end(b"") == 0
    assert preamble_end(b"2026-12-07 08:33:31,751") == 0  # (nothing after it: no line of a record)


def _runs() -> list[str]:
    return sorted(p.name for p in FOLDER.glob("biotrainer_*") if (p / "truth.json").is_file())


@pytest.mark.parametrize("run", _runs())
def test_the_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    data = (folder / "train.log").read_bytes()
    pts = _live(tmp_path, data, [], name="whole.log")
    start = data.index(b"INFO Epoch 2\n")
    live = _live(tmp_path, data, [start + int(c * (len(data) - start)) for c in (0.03, 0.2, 0.37, 0.55)],
                 name="live.log")
    assert json.dumps({k: live[k] for k in ("loss", "eval_loss")}) == json.dumps(
        {k: pts[k] for k in ("loss", "eval_loss")}), run
    got = dict(zip(*pts["loss"], strict=True))
    for step, v in truth["train_loss"]:
        t = float(v)
        if math.isnan(t):
            assert math.isnan(got[step]), (run, step)
        elif math.isinf(t):
            assert got[step] == t, (run, step)
        else:
            assert abs(got[step] - t) <= read_corpus._tolerance(t, truth["tolerance"]), (run, step, t, got[step])
    assert len(pts["eval_loss"][0]) == len(truth["train_loss"]), run
    assert primary_names(pts) == ["loss"]
