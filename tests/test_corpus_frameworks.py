"""The framework corpus (examples/frameworks: real HF Trainer, Lightning, Keras, scikit-learn, XGBoost, LightGBM,
PyTorch and Accelerate runs, stdout+stderr captured as redirected), read the way bench/read_corpus.py reads it.

Per run: its train loss is read, and the three replayed cron checks never STOP a healthy run and end a should-stop
run in STOP or ESCALATE. Over the corpus: in >= 95 % of the runs, >= 90 % of the truth's train-loss points (the
framework's own record) are read at the truth's steps with the printed precision. The corpus itself is checked
too: every truth value is printed in its log, so a miss is the reader's. And the bench's own bookkeeping: a
refused or missing file is a miss, never dropped; files the manifest does not name are listed as skipped.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from .corpus_checks import Corpus, read_corpus

REPO = Path(__file__).resolve().parents[1]
FRAMEWORKS = REPO / "examples" / "frameworks"
CORPUS = Corpus(FRAMEWORKS)
RUNS = CORPUS.runs


def test_the_corpus_covers_every_framework_and_both_kinds_of_run():
    assert {"transformers.Trainer", "lightning", "keras", "scikit-learn", "xgboost", "lightgbm", "torch",
            "accelerate"} <= CORPUS.frameworks()
    assert 40 <= len(RUNS) <= 80
    entries = CORPUS.entries
    assert sum(e["should_stop"] for e in entries) >= 10 and sum(not e["should_stop"] for e in entries) >= 25
    assert sum(f.stat().st_size for f in FRAMEWORKS.rglob("*") if f.is_file()) < 25 * 2**20


@pytest.mark.parametrize("run", RUNS)
def test_every_truth_value_is_printed_in_its_log(run):
    CORPUS.assert_truth_printed(run)


@pytest.mark.parametrize("run", RUNS)
def test_every_run_reads_its_loss(run):
    r = CORPUS.result(run)
    assert r.found is not None, f"{run}: {r.why}"


def test_train_loss_read_at_the_truths_steps_in_95_percent_of_runs():
    """Issue 19's bar: >= 90 % of the truth's points at the truth's steps, in >= 95 % of the files."""
    misses = CORPUS.misses()
    assert len(misses) <= 0.05 * len(RUNS), "\n".join(misses)


@pytest.mark.parametrize("run", RUNS)
def test_replayed_checks(run):
    CORPUS.assert_replayed_checks(run)


def _truth(steps: list[int], values: list, **kw) -> dict:
    return {"train_loss": [[s, v] for s, v in zip(steps, values, strict=True)], "tolerance": {"rel": 1e-3}, **kw}


def test_scoring_counts_points_only_at_the_truths_steps():
    truth = _truth([10, 20, 30, 40], [4.0, 3.5, "nan", 3.0], tolerance={"rel": 1e-3, "sig": 4})
    right = read_corpus.score_truth(np.array([10, 20, 30, 40]), np.array([4.001, 3.5, np.nan, 3.0]), truth)
    assert right == (4, 4, "truth")
    shifted = read_corpus.score_truth(np.array([1, 2, 3, 4]), np.array([4.0, 3.5, np.nan, 3.0]), truth)
    assert shifted[:2] == (0, 4)  # values right, steps wrong: no point found
    wrong = read_corpus.score_truth(np.array([10, 20, 30, 40]), np.array([4.01, 3.6, 1.0, 3.0]), truth)
    assert wrong[0] == 1  # 4.01 is off by more than 4 significant digits allow; 1.0 is not NaN


def test_scoring_accepts_epochs_or_batches_but_never_a_mix():
    truth = _truth([1, 2, 3], [0.5, 0.4, 0.3], step_unit="epoch (History index + 1)", steps_per_epoch=26)
    assert read_corpus.score_truth(np.array([26, 52, 78]), np.array([0.5, 0.4, 0.3]), truth)[0] == 3
    assert read_corpus.score_truth(np.array([1, 2, 3]), np.array([0.5, 0.4, 0.3]), truth)[0] == 3
    assert read_corpus.score_truth(np.array([1, 52, 3]), np.array([0.5, 0.4, 0.3]), truth)[0] == 2


def test_scoring_accepts_epochs_where_the_truth_counts_only_each_epochs_first_batch():
    """A truth in global batches (E x steps_per_epoch + B) whose every point is an epoch's batch 0 (the log prints one
    line an epoch, its length never shown): a read by epoch is right; where a point is another batch it is not."""
    unit = "global batch, 0-based (`Epoch: E | Batch: B`: E x steps_per_epoch + B)"
    truth = _truth([0, 10, 20], [0.5, 0.4, 0.3], step_unit=unit, steps_per_epoch=10)
    assert read_corpus.score_truth(np.array([0, 1, 2]), np.array([0.5, 0.4, 0.3]), truth)[0] == 3
    assert read_corpus.score_truth(np.array([0, 10, 20]), np.array([0.5, 0.4, 0.3]), truth)[0] == 3
    mixed = _truth([0, 5, 10], [0.5, 0.4, 0.3], step_unit=unit, steps_per_epoch=10)
    assert read_corpus.score_truth(np.array([0, 1, 2]), np.array([0.5, 0.4, 0.3]), mixed)[0] == 1


def test_a_refused_or_missing_file_is_a_miss_and_stray_files_are_listed(tmp_path, capsys):
    """Issue 23: an unreadable run stays in every denominator, and every file not scored is named."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    good = FRAMEWORKS / "sklearn_mlp_sgd_lr_high_nan"
    (folder / "ok").mkdir()
    (folder / "ok" / "train.log").write_bytes((good / "train.log").read_bytes())
    (folder / "ok" / "truth.json").write_bytes((good / "truth.json").read_bytes())
    (folder / "binary.log").write_bytes(bytes(range(256)) * 64)
    (folder / "stray.txt").write_text("step 1 loss 2.0\n")
    manifest = [{"file": "ok/train.log", "label": "nan", "should_stop": True},
                {"file": "binary.log", "label": "nan", "should_stop": True},
                {"file": "gone.log", "label": "healthy", "should_stop": False}]
    (folder / "manifest.jsonl").write_text("\n".join(json.dumps(m) for m in manifest) + "\n")
    assert read_corpus.main([str(folder)]) == 0
    out = capsys.readouterr().out
    assert "read: 1/3 files" in out
    assert "should-stop files: STOP 1, ESCALATE 0, missed 1 of 2" in out
    assert "unread: binary.log: unreadable:" in out and "unread: gone.log: missing" in out
    assert "missed stop: binary.log: UNREADABLE" in out
    assert "skipped (not in the manifest): stray.txt" in out
    assert "healthy files: false STOP 0 (target: none), ESCALATE 0 of 1" in out
