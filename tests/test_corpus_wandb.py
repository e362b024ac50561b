"""The CPU-trained corpus logged through the real wandb (offline): same points and same verdicts as its log files.

For a subset of ``examples/corpus`` (one run per label, every log format the
corpus uses), the run's ``metrics.csv`` copy is logged through the real
``wandb`` library in offline mode, one ``wandb.log(row, step=step)`` call per
csv row with only the cells the row holds (an empty cell is "not logged at this
step"; the text ``nan`` is a logged NaN). The ``.wandb`` file read back through
``load_run`` must hold exactly the csv's points, and ``assess_run`` must give
the wandb run the same final verdict and the same replayed verdict timeline as
the run's own log file (each source judged with its own fresh store).
"""

from __future__ import annotations

import csv
import dataclasses
import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from training_check.tools.assess import assess_run
from training_check.tools.config import Config, load_config
from training_check.tools.frame import MetricFrame
from training_check.tools.points import parse_number
from training_check.tools.reading import load_run
from training_check.tools.store import Store

from tests.conftest import require
from tests.wandb_runs import STEP_ARG, write_offline_run

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "corpus"
sys.path.insert(0, str(REPO / "bench"))

import corpus_labels  # noqa: E402
import detection  # noqa: E402

REPLAY_CHECKS = 10
# one run per label, covering every log format of the corpus (the format each run's own log has)
SUBSET = (
    "healthy_gpt_cosine",  # healthy, Megatron log
    "nan_regression_late_blowup",  # nan, llm.c main.log (loss finite, then NaN)
    "nan_fp16_no_loss_scaler",  # nan, Megatron log (NaN from the first step)
    "diverged_lstm_sgd_lr_too_high",  # diverged, Lightning metrics.csv (the copy is metrics_copy.csv)
    "plateau_frozen_weights",  # plateau, HF trainer_state.json
    "overfit_tiny_mlp",  # overfitting, JSONL
    "lrsched_jump_100x",  # lr-schedule, key=value log
    "spike_mlp_corrupt_batch",  # spike-recovered, llm.c main.log
)


@dataclasses.dataclass
class CorpusRun:
    """One labelled corpus run, its metrics.csv copy and the offline wandb run written from it."""

    run: corpus_labels.LabelledRun
    csv_path: Path
    rows: list[dict]
    wandb_dir: Path


def metrics_copy(run_dir: Path) -> Path:
    """The step + metric-column copy of a run's metrics (``metrics_copy.csv`` when the log is itself a metrics.csv)."""
    copy = run_dir / "metrics_copy.csv"
    return copy if copy.is_file() else run_dir / "metrics.csv"


def csv_rows(path: Path) -> list[dict]:
    """One wandb.log row per csv row: the cells it holds (empty = not logged at this step), ``nan`` kept as NaN."""
    rows = []
    with path.open(newline="") as fh:
        for record in csv.DictReader(fh):
            step = int(record.pop("step"))
            row: dict = {}
            for key, text in record.items():
                if text is None or not text.strip():
                    continue
                value = parse_number(text)
                assert value is not None, f"{path}: cell {key}={text!r} at step {step} is not a number"
                row[key] = value
            row[STEP_ARG] = step
            rows.append(row)
    return rows


def fresh_home(base: Path) -> tuple[Config, Store]:
    """A config and store under their own TRAINING_CHECK_HOME, so no source sees another's cache or assessments."""
    base.mkdir(parents=True, exist_ok=True)
    config = load_config(cwd=base, env={"TRAINING_CHECK_HOME": str(base)})
    return config, Store(config.store_path)


def read_frame(run: str, home: Path) -> MetricFrame:
    config, store = fresh_home(home)
    return load_run(run, store=store, config=config).frame


@pytest.fixture(scope="module")
def labelled() -> dict[str, corpus_labels.LabelledRun]:
    return {r.name: r for r in corpus_labels.load_corpus(EXAMPLES)}


@pytest.fixture(scope="module", params=SUBSET)
def corpus_run(request, labelled, tmp_path_factory) -> CorpusRun:
    require(importlib.util.find_spec("wandb") is not None, "the wandb package (real offline runs)")
    name = request.param
    assert name in labelled, f"examples/corpus/{name} is missing or has no label.json"
    run = labelled[name]
    path = metrics_copy(EXAMPLES / name)
    rows = csv_rows(path)
    base = tmp_path_factory.mktemp(f"wandb-{name}")
    wandb_dir = write_offline_run(base, rows, project="tc-corpus", name=name,
                                  config={"total_steps": run.total_steps, "label": run.label})
    return CorpusRun(run, path, rows, wandb_dir)


def _points(frame: MetricFrame) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    return {k: (s.index.to_numpy(dtype=np.int64), s.to_numpy(dtype=np.float64)) for k, s in frame.series.items()}


def test_rows_follow_the_csv(corpus_run):
    """The rows logged are the csv's non-empty cells: sparse eval keys, NaN where the csv says nan."""
    rows = corpus_run.rows
    steps = [r[STEP_ARG] for r in rows]
    assert steps == sorted(set(steps)), "one wandb.log call per step, steps increasing (as wandb requires)"
    text = corpus_run.csv_path.read_text()
    n_nan = sum(1 for r in rows for k, v in r.items() if k != STEP_ARG and math.isnan(v))
    assert n_nan == sum(cell.strip().lower() == "nan" for line in text.splitlines()[1:] for cell in line.split(","))
    if corpus_run.run.label == "nan":
        assert any(math.isnan(r.get("train_loss", 0.0)) for r in rows), "a nan run logs a NaN train loss"
    n_keys = {k for r in rows for k in r} - {STEP_ARG}
    if any(k.startswith("val_") for k in n_keys):  # evals are logged at fewer steps than the train loss
        assert sum("val_loss" in r for r in rows) < sum("train_loss" in r for r in rows)


def test_wandb_points_equal_csv_points(corpus_run, tmp_path):
    """load_run on the offline wandb run gives the csv's points: same keys, steps and values (NaN as NaN), same
    roles."""
    from_wandb = read_frame(str(corpus_run.wandb_dir), tmp_path / "home-wandb")
    from_csv = read_frame(str(corpus_run.csv_path), tmp_path / "home-csv")
    w, c = _points(from_wandb), _points(from_csv)
    assert sorted(w) == sorted(c)
    for key in c:
        np.testing.assert_array_equal(w[key][0], c[key][0], err_msg=f"{corpus_run.run.name}: steps of {key}")
        np.testing.assert_array_equal(w[key][1], c[key][1], err_msg=f"{corpus_run.run.name}: values of {key}")
    assert from_wandb.roles == from_csv.roles
    assert from_wandb.primary_loss == from_csv.primary_loss
    if corpus_run.run.label == "nan":
        assert np.isnan(w[from_wandb.primary_loss][1]).any(), "the logged NaN loss survives wandb"


def test_wandb_verdicts_equal_log_verdicts(corpus_run, tmp_path):
    """The final verdict and a replay of ~10 checks (as_of_step) are the same on the wandb run and the log file."""
    run = corpus_run.run
    finals = {}
    for source, path in (("log", run.path), ("wandb", str(corpus_run.wandb_dir))):
        config, store = fresh_home(tmp_path / f"home-final-{source}")
        finals[source] = assess_run(path, store=store, config=config, total_steps=run.total_steps)
    assert finals["wandb"].source["kind"] == "wandb_local" and finals["log"].source["kind"] == "log"
    assert finals["wandb"].verdict == finals["log"].verdict, (
        f"{run.name}: wandb {finals['wandb'].summary!r} vs log {finals['log'].summary!r}")

    log_replay = detection.replay(run, n_checks=REPLAY_CHECKS)
    wandb_replay = detection.replay(dataclasses.replace(run, path=str(corpus_run.wandb_dir)), n_checks=REPLAY_CHECKS)
    assert log_replay.error is None and wandb_replay.error is None, (log_replay.error, wandb_replay.error)
    assert len(wandb_replay.checks) == REPLAY_CHECKS
    assert wandb_replay.steps == log_replay.steps
    assert wandb_replay.timeline() == log_replay.timeline(), (
        f"{run.name}: wandb {wandb_replay.timeline()} vs log {log_replay.timeline()} at steps {log_replay.steps}")
    assert "!" not in wandb_replay.timeline()
    assert wandb_replay.checks[-1].verdict == finals["wandb"].verdict
