"""The calibration table's floors (bench/calibration.py), held on a subset replayed as cron checks it: the runs that
stop learning long before their end (examples/stalls) and their healthy controls, with a few runs of each other
kind. The full table is the bench; this subset keeps the test near a minute. A deliberately broken threshold
(a params value monkeypatched) must show as a broken floor."""

from __future__ import annotations

import sys
from dataclasses import replace

import pytest
from training_check.tools.signals import divergence

from .conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

import calibration  # noqa: E402
import detection  # noqa: E402

EXAMPLES = REPO / "examples"
SUBSET = {
    "stalls": None,  # every run: the four kinds and their healthy controls
    "causes": ("lr_too_high_1", "numerical_1", "bad_batch_1", "loss_scale_overflow_1", "lr_schedule_4"),
    "corpus": ("healthy_mlp_sgd_slow", "healthy_gru_constant", "healthy_mlp_step_decay", "nan_regression_sgd_no_clip",
               "healthy_mlp_adam_fast"),
}
CHECKS = 12
# What the code holds on this subset (the full table's floors are calibration.FLOORS)
SUBSET_FLOORS = {
    "false_stops": ("<=", 0),
    "early_stops": ("<=", 0),
    "flagged_share": (">=", 1.0),
    "stop_recall": (">=", 1.0),
    "escalate_share_healthy": ("<=", 0.05),
    "cause_right_share": (">=", 0.95),  # 17/17 on 2026-12-05
    "confident_right_share": (">=", 0.9),  # 12/12
    "confident": (">=", 12),
}
STALL_KINDS = ("exp_per_iter", "bias_only", "lr_typo", "ddp_per_iter")


def _runs() -> list[calibration.CalRun]:
    out = []
    for folder, names in SUBSET.items():
        runs = calibration.calibration_runs(EXAMPLES / folder)
        out += [r for r in runs if names is None or r.name in names]
    return out


def _replay(runs) -> list[calibration.Outcome]:
    return [calibration.outcome(detection.replay(r, CHECKS)) for r in runs]


@pytest.fixture(scope="module")
def runs() -> list[calibration.CalRun]:
    runs = _runs()
    kinds = {r.kind for r in runs}
    assert set(STALL_KINDS) <= kinds, f"examples/stalls lacks a kind: {sorted(kinds)}"
    assert sum(r.category == "healthy" for r in runs) >= 8
    return runs


@pytest.fixture(scope="module")
def outcomes(runs) -> list[calibration.Outcome]:
    return _replay(runs)


def test_the_subset_holds_its_floors(outcomes):
    _, _, total = calibration.table(outcomes)
    totals = total.figures()
    assert calibration.floor_breaches(totals, SUBSET_FLOORS) == [], totals


def test_every_run_that_stopped_learning_early_is_flagged_and_no_control_is_stopped(outcomes):
    for o in outcomes:
        if o.run.kind in STALL_KINDS:
            assert o.flag is not None, f"{o.run.name} never flagged: {o.timeline}"
            assert o.stop is None or not o.early_stop, f"{o.run.name}: early STOP {o.timeline}"
        if o.run.category == "healthy":
            assert o.stop is None, f"{o.run.name}: false STOP {o.timeline}"


def test_a_broken_threshold_shows_as_a_broken_floor(runs, monkeypatch):
    """A divergence signal made jumpy (a rise of half a noise unit, 1 % above the best) STOPs healthy runs: the floor
    check names the regression."""
    jumpy = replace(divergence.DEFAULT, noise_k=0.5, rel_jump=0.01, floor_k=0.0, min_rise_noise=0.0,
                    progress_share=0.0, sustain_share=0.0, sustain_min=1, massive=1.0, sustain_massive=1)
    monkeypatch.setattr(divergence.check, "__defaults__", (jumpy,))
    healthy = [r for r in runs if r.category == "healthy"]
    _, _, total = calibration.table(_replay(healthy))
    breaches = calibration.floor_breaches(total.figures(), SUBSET_FLOORS)
    assert any(b.startswith("false_stops") for b in breaches), breaches


def test_floor_breaches_names_each_broken_floor():
    totals = {"false_stops": 2, "early_stops": 0, "stop_recall": 0.5, "flagged_share": None}
    out = calibration.floor_breaches(totals, {"false_stops": ("<=", 0), "early_stops": ("<=", 0),
                                              "stop_recall": (">=", 0.95), "flagged_share": (">=", 0.9)})
    assert out == ["false_stops = 2, floor <= 0", "stop_recall = 50%, floor >= 95%"]


def test_a_manifest_folder_takes_should_stop_and_cause(tmp_path):
    """Any folder with a manifest.jsonl in the corpora's format is a calibration folder: should_stop decides the
    category, a cause field the known cause."""
    src = EXAMPLES / "causes" / "lr_too_high_1" / "train.jsonl"
    (tmp_path / "a.jsonl").write_bytes(src.read_bytes())
    (tmp_path / "b.jsonl").write_bytes((EXAMPLES / "causes" / "overfitting_1" / "train.jsonl").read_bytes())
    (tmp_path / "manifest.jsonl").write_text(
        '{"file": "a.jsonl", "label": "diverged", "should_stop": true, "cause": "lr_too_high"}\n'
        '{"file": "b.jsonl", "label": "healthy", "should_stop": false}\n')
    runs = {r.name: r for r in calibration.calibration_runs(tmp_path)}
    assert (runs["a.jsonl"].category, runs["a.jsonl"].cause, runs["a.jsonl"].kind) == ("clear", "lr_too_high",
                                                                                        "diverged")
    assert (runs["b.jsonl"].category, runs["b.jsonl"].cause) == ("healthy", None)
