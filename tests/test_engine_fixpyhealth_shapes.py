"""What examples/libraries_holdout68 showed (issue 32, fixpyhealth). A record is a banner line naming its split
(``--- Train epoch-0, step-8 ---``, ``--- Eval epoch-0, step-8 ---``: pyhealth's Trainer) followed by bare ``name:
value`` lines (``loss: 0.7016``, ``pr_auc: 0.7494``, ...) up to the next banner, blank or other line, tqdm bars
between the records. Both records print a bare ``loss:``: a split named in a record's banner (eval / val /
validation / test / dev, whatever the punctuation around it) is the split of every bare name in that record, so the
eval record's ``loss`` is ``eval_loss`` and the train loss is the train record's alone. Each read whole and in pieces
(past the first epochs: a first read of a young log's first epoch alone, its bar lines seen once there, places that
epoch by line order, as before: tests/test_read_determinism.py's KNOWN)."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest
from training_check.tools.parsers.banners import bare_named, split_banner

from .test_read_misses import _live, points_at, primary_names, whole_as_live

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout68"
sys.path.insert(0, str(REPO / "bench"))

import read_corpus  # noqa: E402

BAR = "\u2588"


def banner_log(epochs: int, per_epoch: int, val: bool = True, metrics: tuple[str, ...] = ("pr_auc", "roc_auc", "f1"),
               seed: int = 0, decimals: int = 4, blank: bool = True,
               train_banner: str = "--- Train epoch-{e}, step-{s} ---",
               eval_banner: str = "--- Eval epoch-{e}, step-{s} ---",
               best: bool = True) -> tuple[str, list[tuple[int, float]], list[tuple[int, float]]]:
    """A pyhealth-like log: its settings, then per epoch a tqdm bar (``Epoch e / E: 100%|...| n/n``), the train
    record under its banner (``loss: x``), an evaluation's bar and its record under its banner (``metrics`` then
    ``loss: y``), now and then a line of a new best, a blank line (``blank``). The truth: the train and the eval loss
    at the steps done, (e + 1) x ``per_epoch``."""
    rng = random.Random(seed)
    out = ["Training:\n", "Batch size: 32\n", f"Epochs: {epochs}\n", "\n"]
    train: list[tuple[int, float]] = []
    evals: list[tuple[int, float]] = []
    for e in range(epochs):
        s = (e + 1) * per_epoch
        out.append(f"\rEpoch {e} / {epochs}:   0%|          | 0/{per_epoch} [00:00<?, ?it/s]"
                   f"\rEpoch {e} / {epochs}: 100%|{BAR * 10}| {per_epoch}/{per_epoch} [00:00<00:00, 211.52it/s]\n")
        v = round(0.7 * math.exp(-s / 60) + 0.1 + rng.random() * 0.02, decimals)
        train.append((s, v))
        out += [train_banner.format(e=e, s=s) + "\n", f"loss: {v:.{decimals}f}\n"]
        if val:
            out.append(f"\rEvaluation:   0%|          | 0/2 [00:00<?, ?it/s]\rEvaluation: 100%|{BAR * 10}| 2/2 "
                       "[00:00<00:00, 183.37it/s]\n")
            out.append(eval_banner.format(e=e, s=s) + "\n")
            out += [f"{m}: {rng.random():.{decimals}f}\n" for m in metrics]
            w = round(0.75 * math.exp(-s / 80) + 0.15 + rng.random() * 0.02, decimals)
            evals.append((s, w))
            out.append(f"loss: {w:.{decimals}f}\n")
            if best and e % 3 == 0:
                out.append(f"New best {metrics[0] if metrics else 'loss'} score ({rng.random():.4f}) at epoch-{e}, "
                           f"step-{s}\n")
        if blank:
            out.append("\n")
    return "".join(out), train, evals


def _pieces_past_young(tmp_path: Path, data: bytes, name: str, seed: int, trials: int = 4) -> dict:
    """The points read whole, checked equal to reads in pieces cut anywhere (mid-line too) after the log's third
    epoch began."""
    whole = _live(tmp_path, data, [], name=f"whole_{name}")
    start = data.index(b"Epoch 2 /")
    rng = random.Random(seed)
    for t in range(trials):
        cuts = sorted(rng.sample(range(start, len(data)), 1 + 2 * t))
        live = _live(tmp_path, data, cuts, name=f"live{t}_{name}")
        assert json.dumps(live, sort_keys=True) == json.dumps(whole, sort_keys=True), (name, cuts)
    return whole


VARIANTS = [
    dict(epochs=10, per_epoch=8),
    dict(epochs=5, per_epoch=100, metrics=("accuracy",), decimals=6),
    dict(epochs=12, per_epoch=3, blank=False),
    dict(epochs=4, per_epoch=7, metrics=()),
    dict(epochs=6, per_epoch=5, metrics=("a", "b", "c", "d", "e", "f", "g"), decimals=2),
    dict(epochs=6, per_epoch=5, eval_banner="=== Validation ===", train_banner="=== Training ==="),
    dict(epochs=6, per_epoch=5, eval_banner="[test] epoch {e}", train_banner="[train] epoch {e}"),
    dict(epochs=6, per_epoch=5, eval_banner="*** dev ***", train_banner="*** train ***"),
    dict(epochs=6, per_epoch=5, eval_banner="Evaluation results:", train_banner="Training results:"),
    dict(epochs=7, per_epoch=11, eval_banner="##### VAL epoch={e} #####", train_banner="##### TRAIN epoch={e} #####"),
]


@pytest.mark.parametrize("kw", VARIANTS, ids=[str(i) for i in range(len(VARIANTS))])
def test_a_banner_naming_its_split_names_every_bare_name_of_its_record(tmp_path, kw):
    text, train, evals = banner_log(**kw, seed=len(str(kw)))
    pts = _pieces_past_young(tmp_path, text.encode(), "banner.log", seed=len(str(kw)))
    assert points_at(pts, "loss") == train, (points_at(pts, "loss")[:4], train[:4])
    assert points_at(pts, "eval_loss") == evals, (points_at(pts, "eval_loss")[:4], evals[:4])
    assert primary_names(pts) == ["loss"]
    assert not [k for k in pts if k.startswith("eval_") and k != "eval_loss" and "New best" not in k and not any(
        k == f"eval_{m}" for m in kw.get("metrics", ()))], sorted(pts)


def test_without_an_evaluation_the_bare_loss_is_the_train_loss(tmp_path):
    text, train, evals = banner_log(3, 10, val=False)
    assert not evals
    pts = whole_as_live(tmp_path, text.encode(), "noval.log", cuts=(0.55, 0.81))
    assert points_at(pts, "loss") == train and "eval_loss" not in pts


def test_a_train_banner_and_prose_name_no_evaluation(tmp_path):
    """Under a train banner the bare names stay the train's; a line of prose naming a split (more words than a banner)
    or printing a value heads no evaluation's record; only a bare ``name: value`` line goes on with one."""
    assert split_banner(b"--- Eval epoch-0, step-8 ---") and split_banner(b"=== Validation ===")
    assert split_banner(b"[dev]") and split_banner(b"Evaluation results:")
    assert not split_banner(b"--- Train epoch-0, step-8 ---")  # the train's
    assert not split_banner(b"--- Train/Val epoch-0 ---")  # both splits: no one split
    assert not split_banner(b"Loading the validation set from disk")  # prose
    assert not split_banner(b"val_loss: 0.52")  # a value: a record, no banner
    assert not split_banner(b"{'valid': 'full', 'test': 'full'}}]")  # a printed dict's end (RecBole's, wrapped)
    assert not split_banner(b"=== valid / test ===")  # two splits
    assert bare_named(b"loss: 0.7016") and bare_named(b"pr_auc: 0.7494") and bare_named(b"  valid loss = 1e-3")
    assert not bare_named(b"loss: 0.5 acc: 0.9") and not bare_named(b"Monitor: pr_auc")
    assert not bare_named(b"New best pr_auc score (0.7494) at epoch-0, step-8")
    lines = ["Loading the validation set from disk\n", "loss: 0.9\n"]
    for s in range(1, 9):
        lines += [f"step {s * 10}\n", "--- train ---\n", f"loss: {1 / s:.4f}\n", f"acc: {s / 10:.4f}\n"]
    pts = whole_as_live(tmp_path, "".join(lines).encode(), "train_banner.log", cuts=(0.3, 0.62))
    assert not [k for k in pts if k.startswith(("eval_", "val_"))], sorted(pts)


def test_an_eval_record_cut_by_a_read_goes_on_in_the_next(tmp_path):
    """A read ending inside an evaluation's record (after its ``pr_auc`` line, before its ``loss``): the next read's
    first bare lines go on with that record, at every cut of one record."""
    text, train, evals = banner_log(6, 4, seed=3)
    data = text.encode()
    whole = _live(tmp_path, data, [], name="whole.log")
    at = data.index(b"--- Eval epoch-3")
    end = data.index(b"\n\n", at)
    for c in range(at, end, 7):
        live = _live(tmp_path, data, [data.index(b"Epoch 2 /"), c], name=f"cut{c}.log")
        assert live == whole, c
    assert points_at(whole, "eval_loss") == evals


def _pyhealth_runs() -> list[str]:
    return sorted(p.name for p in FOLDER.glob("pyhealth_*") if (p / "truth.json").is_file())


@pytest.mark.parametrize("run", _pyhealth_runs())
def test_the_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    data = (folder / "train.log").read_bytes()
    pts = _pieces_past_young(tmp_path, data, "train.log", seed=len(run), trials=2)
    got = dict(zip(*pts["loss"], strict=True))
    assert sorted(got) == [s for s, _ in truth["train_loss"]], run
    for step, v in truth["train_loss"]:
        t = float(v)
        if math.isnan(t):
            assert math.isnan(got[step]), (run, step)
        else:
            assert abs(got[step] - t) <= read_corpus._tolerance(t, truth["tolerance"]), (run, step, t)
    if truth.get("eval_loss"):
        ev = dict(zip(*pts["eval_loss"], strict=True))
        assert sorted(ev) == [s for s, _ in truth["eval_loss"]], run
        assert all(abs(ev[s] - float(v)) <= 1e-6 for s, v in truth["eval_loss"]), run
    else:
        assert "eval_loss" not in pts
    assert primary_names(pts) == ["loss"]
