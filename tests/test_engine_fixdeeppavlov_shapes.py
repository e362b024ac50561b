"""A JSON record nested one level under a split's key (examples/libraries_holdout81, fixdeeppavlov: deeppavlov's
``python -m deeppavlov train``): ``{"train": {"eval_examples_count": 32, "metrics": {"accuracy": 0.28}, "epochs_done":
1, "batches_seen": 10, "loss": 1.08}}`` and ``{"valid": {..., "impatience": 1}}`` between logger lines and tqdm
fragments. The record is that split's (``split_records.py``): its ``metrics`` named for the split (``accuracy``,
``val_accuracy``), its step from its own counters: one report an epoch at the epoch counter (``epochs_done``), several
an epoch (or train reports skipping epochs) at the batch counter (``batches_seen``); whole and in pieces alike."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from training_check.tools.objective import assign_roles

from .conftest import REPO
from .test_read_misses import corpus_runs, whole_and_pieces, whole_as_live

_NOISE = ("2026-12-07 14:00:02.908 INFO in 'deeppavlov.core.trainers.nn_trainer'['nn_trainer'] at line 211: "
          "Did not improve on the accuracy of 0.3125")


def _rec(split: str, body: dict) -> str:
    return json.dumps({split: body})


def _log(rng: random.Random, epochs: int, bpe: int, every: int, val: bool, names=("epochs_done", "batches_seen"),
         splits=("train", "valid")) -> tuple[str, list[tuple[int, float]], list[tuple[int, float]]]:
    """A deeppavlov-like log: train reports once an epoch (``every`` 0) or every ``every`` batches, a validation
    each epoch (``val``), tqdm fragments and logger lines between, the final evaluations without counters. Returns the
    text, the train loss at its truth's steps and the validation accuracy at its steps."""
    ek, bk = names
    tr, va = splits
    out, train, valid = [], [], []
    step_of = (lambda e, b: e) if every == 0 else (lambda e, b: b)

    def v_rec(e: int, b: int) -> None:
        acc = round(rng.uniform(0.2, 1.0), 4)
        out.append(_rec(va, {"eval_examples_count": 80, "metrics": {"accuracy": acc, "f1_macro": acc / 2},
                             "time_spent": "0:00:01", ek: e, bk: b, "impatience": rng.randint(0, 3),
                             "patience_limit": 100}))
        valid.append((step_of(e, b), acc))

    if val:
        v_rec(0, 0)
    b = 0
    for e in range(1, epochs + 1):
        for _ in range(bpe):
            b += 1
            if every and b % every == 0:
                loss = rng.uniform(0.01, 3.0) * 10 ** rng.randint(-2, 2)
                out.append("0it [00:00, ?it/s]" + f"{rng.randint(1, 9)}it [00:00, {rng.uniform(10, 500):.2f}it/s]")
                out.append(_rec(tr, {"eval_examples_count": 32, "metrics": {"accuracy": 0.5}, "time_spent": "0:00:01",
                                     ek: e - 1, bk: b, "train_examples_seen": b * 32, "loss": loss}))
                train.append((b, loss))
        if not every:
            loss = rng.uniform(0.01, 3.0) * 10 ** rng.randint(-2, 2)
            out.append(_rec(tr, {"eval_examples_count": 32, "metrics": {"accuracy": 0.5}, "time_spent": "0:00:01",
                                 ek: e, bk: b, "train_examples_seen": b * 32, "loss": loss}))
            train.append((e, loss))
        out.append(_NOISE)
        if val:
            v_rec(e, b)
    for s in (tr, va, "test"):
        out.append(_rec(s, {"eval_examples_count": 80, "metrics": {"accuracy": 0.9}, "time_spent": "0:00:01"}))
    return "\n".join(out) + "\n", train, valid


def _loss_name(pts: dict) -> str:
    names = [k for k, r in assign_roles(list(pts)).items() if r.primary]
    assert len(names) == 1, sorted(pts)
    return names[0]


def _same(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> None:
    assert [s for s, _ in got] == [s for s, _ in want]
    for (_, v), (_, t) in zip(got, want, strict=True):
        assert (math.isnan(t) and math.isnan(v)) or v == t


@pytest.mark.parametrize("seed", range(6))
def test_reports_once_an_epoch_are_at_the_epoch_several_an_epoch_at_the_batch(tmp_path, seed):
    rng = random.Random(seed)
    every = [0, 0, 1, 2, 3][seed % 5] if seed < 5 else 0
    bpe = rng.randint(max(2, 2 * every), 12)
    text, train, valid = _log(rng, rng.randint(3, 9), bpe, every, val=seed % 2 == 0)
    pts = whole_and_pieces(tmp_path, text.encode(), f"dp{seed}.log", seed=seed)
    _same(list(zip(*pts[_loss_name(pts)], strict=True)), train)
    if valid:
        got = dict(zip(*pts["val_accuracy"], strict=True))
        assert [(s, got[s]) for s, _ in valid[:-1]] == valid[:-1]  # the last epoch's: the final evaluation's too
    assert "accuracy" in pts and "test_accuracy" in pts


def test_other_counter_and_split_names_read_the_same(tmp_path):
    """``epoch`` / ``global_step`` counters under ``train`` / ``eval`` keys: the same shape, the same steps."""
    rng = random.Random(7)
    for every in (0, 2):
        text, train, valid = _log(rng, 5, 6, every, val=True, names=("epoch", "global_step"),
                                  splits=("train", "eval"))
        pts = whole_as_live(tmp_path, text.encode(), f"gs{every}.log")
        _same(list(zip(*pts[_loss_name(pts)], strict=True)), train)
        assert [s for s in pts["eval_accuracy"][0]] == sorted({s for s, _ in valid})


def test_train_reports_skipping_epochs_are_at_the_batch(tmp_path):
    """Every 15 batches of 10 an epoch: the epoch counter moves by 1 or 2, never staying: still batches."""
    rng = random.Random(3)
    out, want, b = [], [], 0
    for k in range(1, 9):
        b = 15 * k
        loss = rng.uniform(0.1, 2.0)
        out.append(_rec("train", {"epochs_done": (b - 1) // 10, "batches_seen": b, "loss": loss}))
        want.append((b, loss))
    pts = whole_as_live(tmp_path, ("\n".join(out) + "\n").encode(), "skip.log")
    _same(list(zip(*pts[_loss_name(pts)], strict=True)), want)


def test_a_nan_after_one_finite_value_is_read_at_its_batch(tmp_path):
    out = [_rec("train", {"epochs_done": 0, "batches_seen": 2, "loss": 8.4e21})]
    out += [_rec("train", {"epochs_done": 0, "batches_seen": 2 * k, "loss": float("nan")}) for k in range(2, 12)]
    pts = whole_as_live(tmp_path, ("\n".join(out) + "\n").encode(), "nan.log")
    steps, vals = pts[_loss_name(pts)]
    assert steps == list(range(2, 24, 2)) and vals[0] == 8.4e21 and all(math.isnan(v) for v in vals[1:])


def _targets() -> list[Path]:
    folder = REPO / "examples" / "libraries_holdout81"
    return [folder / run / "train.log" for run in corpus_runs(folder, "deeppavlov_")]


@pytest.mark.parametrize("path", _targets(), ids=lambda p: p.parent.name)
def test_the_corpus_files_at_the_truths_steps(tmp_path, path):
    truth = json.loads((path.parent / "truth.json").read_text())
    tol = truth["tolerance"]
    pts = whole_as_live(tmp_path, path.read_bytes(), "run.log")
    got = dict(zip(*pts[_loss_name(pts)], strict=True))
    for s, t in truth["train_loss"]:
        v = got[int(s)]
        t = float(t)
        assert (math.isnan(t) and math.isnan(v)) or abs(v - t) <= tol["rel"] * abs(t), (s, v, t)
