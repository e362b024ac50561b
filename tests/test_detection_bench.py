"""Smoke test of the replay detection benchmark (bench/detection.py) on a few runs of examples/corpus."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "corpus"
sys.path.insert(0, str(REPO / "bench"))

import baselines  # noqa: E402
import corpus_labels  # noqa: E402
import detection  # noqa: E402

NAN_RUN = "nan_regression_sgd_no_clip"
HEALTHY_RUN = "healthy_mlp_sgd_slow"
SPIKE_RUN = "spike_mlp_corrupt_batch"


def _label(name: str) -> dict:
    return json.loads((EXAMPLES / name / "label.json").read_text())


@pytest.fixture
def small_corpus(tmp_path) -> Path:
    """Three labelled runs copied out of examples/corpus: a NaN run, a healthy run, a recovered spike."""
    root = tmp_path / "corpus"
    for name in (NAN_RUN, HEALTHY_RUN, SPIKE_RUN):
        assert (EXAMPLES / name / "label.json").is_file(), f"examples/corpus/{name} is missing"
        shutil.copytree(EXAMPLES / name, root / name)
    return root


def test_labels_load_with_sources_and_categories(small_corpus):
    runs = {r.name: r for r in corpus_labels.load_corpus(small_corpus)}
    assert set(runs) == {NAN_RUN, HEALTHY_RUN, SPIKE_RUN}
    nan = runs[NAN_RUN]
    assert (nan.label, nan.category, nan.should_stop) == ("nan", "clear", True)
    assert Path(nan.path).is_file() and Path(nan.path).name == _label(NAN_RUN)["source"]
    assert runs[HEALTHY_RUN].category == "healthy" and runs[HEALTHY_RUN].onset_step is None
    assert runs[SPIKE_RUN].category == "healthy" and runs[SPIKE_RUN].should_stop is False


def test_replay_nan_run_stops_and_baselines_fire_at_the_first_nan(small_corpus):
    run = next(r for r in corpus_labels.load_corpus(small_corpus) if r.name == NAN_RUN)
    rep = detection.replay(run, n_checks=20)
    assert rep.error is None
    assert len(rep.checks) == len(rep.steps) >= 20
    assert rep.steps == sorted(rep.steps) and rep.steps[-1] == rep.span[1]
    stop = rep.first(("STOP",))
    assert stop is not None, f"no STOP on a NaN run: {rep.timeline()}"
    assert stop.step >= run.onset_step  # nothing is wrong before the labelled onset
    # the non-finite baseline fires exactly at the first NaN loss of the log's metrics.csv copy
    first_nan = _first_nonfinite_step(EXAMPLES / NAN_RUN / "metrics.csv")
    assert first_nan is not None and first_nan >= run.onset_step
    assert rep.baseline_fire["nonfinite"] == first_nan
    assert rep.baseline_stop("nonfinite") == next(s for s in rep.steps if s >= first_nan)


def _first_nonfinite_step(csv_path: Path) -> int | None:
    import csv
    import math

    for row in csv.DictReader(csv_path.open()):
        if row["train_loss"] and not math.isfinite(float(row["train_loss"])):
            return int(row["step"])
    return None


def test_replay_healthy_run_never_stops(small_corpus):
    run = next(r for r in corpus_labels.load_corpus(small_corpus) if r.name == HEALTHY_RUN)
    rep = detection.replay(run, n_checks=20)
    assert rep.error is None and len(rep.checks) >= 20
    assert rep.first(("STOP",)) is None, rep.timeline()
    assert rep.baseline_fire["nonfinite"] is None
    assert all(c.seconds > 0 for c in rep.checks)


def test_main_prints_table_and_writes_figures(small_corpus, tmp_path, capsys):
    out = tmp_path / "figures.json"
    assert detection.main([str(small_corpus), "--checks", "20", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    for name in (NAN_RUN, HEALTHY_RUN, SPIKE_RUN):
        assert name in printed
    assert "STOP recall" in printed and "false STOPs" in printed
    figures = json.loads(out.read_text())
    ours = next(s for s in figures["scores"] if s["system"] == detection.OURS)
    assert ours["clear_runs"] == 1 and ours["clear_stopped"] == 1 and ours["stop_recall"] == 1.0
    assert ours["nostop_runs"] == 2
    assert ours["mean_assess_s"] > 0
    systems = {s["system"] for s in figures["scores"]}
    assert systems == {detection.OURS, *(b.name for b in baselines.BASELINES)}
    nonfinite = next(s for s in figures["scores"] if s["system"] == "nonfinite")
    assert nonfinite["stop_recall"] == 1.0 and nonfinite["false_stops"] == 0
    runs = {r["name"]: r for r in figures["runs"]}
    assert len(runs[HEALTHY_RUN]["timeline"]) >= 20 and "S" not in runs[HEALTHY_RUN]["timeline"]


@pytest.fixture
def corpus_with_unreadable(small_corpus) -> Path:
    """The small corpus plus a must-stop run whose log cannot be read (its label names a log that is gone) and a
    healthy run that logs no metric, and a run folder without a label (the bench never sees it)."""
    broken = small_corpus / "zz_unreadable_nan"
    broken.mkdir()
    (broken / "label.json").write_text(json.dumps({"label": "nan", "onset_step": 10, "should_stop": True,
                                                   "total_steps": 100, "category": "clear", "source": "train.log"}))
    empty = small_corpus / "zz_no_metrics_healthy"
    empty.mkdir()
    (empty / "train.log").write_text("starting\nloading data\n")
    (empty / "label.json").write_text(json.dumps({"label": "healthy", "onset_step": None, "should_stop": False,
                                                  "total_steps": 100, "source": "train.log"}))
    (small_corpus / "zz_no_label").mkdir()
    return small_corpus


def test_an_unreadable_run_is_a_miss_in_every_denominator(corpus_with_unreadable, tmp_path, capsys):
    out = tmp_path / "figures.json"
    assert detection.main([str(corpus_with_unreadable), "--checks", "20", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    figures = json.loads(out.read_text())
    for s in figures["scores"]:  # the same for every system: a run nobody could read is nobody's success
        assert (s["clear_runs"], s["nostop_runs"], s["unreadable"]) == (2, 3, 2), s["system"]
        assert s["healthy_label_runs"] == 3 and s["missed_after_onset"] >= 1
    ours = next(s for s in figures["scores"] if s["system"] == detection.OURS)
    assert (ours["clear_stopped"], ours["stop_recall"]) == (1, 0.5)
    assert (ours["false_stops"], ours["healthy_label_false_stops"]) == (0, 0)
    misses = printed.split("where training-check misses a target:")[1].split("what this bench skipped")[0]
    assert "zz_unreadable_nan: clear must-stop, never STOP (unreadable: " in misses
    assert "zz_no_metrics_healthy: healthy, never judged (no metrics parsed)" in misses
    assert "STOP recall 50% < 95%" in misses
    assert "false STOPs, runs labelled healthy (0)" in printed and "unreadable runs (counted as misses)" in printed
    skipped = printed.split("what this bench skipped:")[1]
    assert "no label or manifest entry (not replayed): " in skipped and skipped.count("zz_no_label") == 1
    assert figures["skipped"] == [f"no label or manifest entry (not replayed): {corpus_with_unreadable}/zz_no_label"]


def test_only_lists_the_runs_it_left_out(small_corpus, capsys):
    replays, scores, skips = detection.run_corpora([str(small_corpus)], 20, only=NAN_RUN, progress=False)
    assert [r.run.name for r in replays] == [NAN_RUN]
    assert skips == [f"left out by --only: 2 runs ({HEALTHY_RUN}, {SPIKE_RUN})"]


def test_baseline_rules_on_known_series():
    import numpy as np
    import pandas as pd
    from training_check.tools.frame import MetricFrame
    from training_check.tools.objective import assign_roles

    steps = np.arange(1, 301)
    loss = 3.0 * np.exp(-steps / 100) + 1.0
    loss[200:] = 50.0  # a sustained jump at step 201, over 10x the first 100 values
    frame = MetricFrame({"train_loss": pd.Series(loss, index=steps)}, assign_roles(["train_loss"]))
    assert baselines.nonfinite_first(frame) is None
    assert baselines.megatron_spike_first(frame) == 201  # 50 >= 10 x max(first 100) = 39.7
    assert baselines.kill_loss_spike_first(frame, total_steps=300) == 205  # 5 outliers in a row
    assert baselines.wandb_zscore_first(frame) == 201
    assert baselines.early_stopping_first(frame) == 203  # no new best at 201, 202, 203


def test_word_lm_failure_step_maps_to_global_step(tmp_path):
    log = tmp_path / "wordlm.log"
    log.write_text("| epoch   1 |   200/ 2983 batches | lr 20.00 | ms/batch 11.61 | loss  5.90 | ppl   365.0\n")
    assert corpus_labels.map_failure_step("epoch 4, batch 1400", "diverged", log, None)[0] == 3 * 2983 + 1400
    assert corpus_labels.map_failure_step("918", "spike-recovered", log, None) == (918, "")
    got = corpus_labels.manifest_category({"label": "other", "why": "overfitting: val rises"})
    assert got == ("overfitting", "flag")
    assert corpus_labels.manifest_category({"label": "other", "why": "GAN losses"}) == ("other", "healthy")
    assert corpus_labels.manifest_category({"label": "nan", "why": ""}) == ("nan", "clear")
