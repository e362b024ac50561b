"""DVCLive folders written by the real ``dvclive`` library, and TensorBoard event files recognised by their bytes
whatever their name (a real event file from the shared corpus, renamed)."""

from __future__ import annotations

import importlib.util
import math
import shutil

import pytest
from training_check.tools.assess import assess_run
from training_check.tools.reading import load_run
from training_check.tools.sources import open_path_source
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.tfevents import is_tfevents_head, masked_crc32c
from training_check.tools.store import Store

from tests.conftest import require
from tests.tracker_runs import run as run_trackers

pytestmark = pytest.mark.timeout(300)


def _loss(n: int, start: int = 0) -> list[float]:
    return [2.5 * math.exp(-s / 60) + 0.3 + 0.01 * math.sin(s) for s in range(start, n)]


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    require(importlib.util.find_spec("dvclive") is not None, "the dvclive library (pip install -e '.[test]')")
    root = tmp_path_factory.mktemp("dvc")
    run_trackers([{"dvclive": str(root / "dvclive"),
                   "metrics": {"train/loss": _loss(150), "val_loss": [x + 0.05 for x in _loss(150)],
                               "train/acc": [min(0.99, 0.5 + s / 300) for s in range(150)]}}], root)
    return root


def test_dvclive_folder_read_by_step_with_roles(live, tmp_path, store, config):
    folder = tmp_path / "proj"
    shutil.copytree(live, folder)
    for ref in (folder / "dvclive", folder):  # the folder itself, or a project holding dvclive/
        a = assess_run(str(ref), store=store, config=config)
        assert a.verdict == "CONTINUE" and a.source["kind"] == "dvclive", a.summary
    data = load_run(str(folder / "dvclive"), store=store, config=config)
    assert data.frame.primary_loss == "train/loss" and data.frame.roles["val_loss"].role == "eval"
    assert data.frame.roles["train/acc"].direction == "max"
    assert data.frame.series["train/loss"].index.tolist() == list(range(150))


def test_dvclive_incremental_equals_full_and_garbage_rows_cost_their_row(live, tmp_path, config):
    folder = tmp_path / "dvclive"
    shutil.copytree(live / "dvclive", folder)
    inc = Store(tmp_path / "inc.sqlite3")
    first = load_run(str(folder), store=inc, config=config)
    assert first.new_points == 450
    run_trackers([{"dvclive": str(folder), "resume": True,
                   "metrics": {"train/loss": _loss(180, 150), "val_loss": [x + 0.05 for x in _loss(180, 150)]}}],
                 tmp_path)
    tsv = folder / "plots" / "metrics" / "train" / "loss.tsv"
    with open(tsv, "a") as f:
        f.write("not\ta number\n180\tNaN-ish\n\x00\x01\x02\n")
    with open(tsv, "a") as f:
        f.write("181\t0.4\n")
    second = load_run(str(folder), store=inc, config=config)
    assert second.new_points == 61 and second.frame.last_step == 181
    assert any(n.startswith("skipped 3 row(s) of DVCLive TSVs that are not metric rows: train/loss (3)")
               for n in second.notes), second.notes
    full = load_run(str(folder), store=Store(tmp_path / "full.sqlite3"), config=config)
    for key in ("train/loss", "val_loss", "train/acc"):
        assert second.frame.series[key].equals(full.frame.series[key]), key
    assert load_run(str(folder), store=inc, config=config).new_points == 0


def test_dvclive_folder_over_ssh(live, ssh_env, tmp_path, store, config):
    folder = tmp_path / "dvclive"
    shutil.copytree(live / "dvclive", folder)
    remote = load_run(ssh_env.url(str(folder)), store=store, config=config)
    local = load_run(str(folder), store=Store(tmp_path / "l.sqlite3"), config=config)
    assert remote.source.kind == "dvclive" and remote.source.id.startswith("dvclive:ssh://")
    for key in local.frame.series:
        assert remote.frame.series[key].equals(local.frame.series[key])


def test_dvclive_without_plots_reads_metrics_json(tmp_path, store, config):
    folder = tmp_path / "dvclive"
    folder.mkdir()
    (folder / "dvc.yaml").write_text("metrics:\n- metrics.json\n")
    (folder / "metrics.json").write_text('{"train": {"loss": 0.5}, "acc": "nan", "step": 7}')
    data = load_run(str(folder), store=store, config=config)
    assert data.frame.series["train/loss"].index.tolist() == [7] and math.isnan(data.frame.series["acc"].iloc[0])


@pytest.fixture
def real_events(corpus):
    files = sorted(corpus.glob("*/events.out.tfevents.*"))
    require(bool(files), "a TensorBoard event file in the shared corpus")
    return files[0]


@pytest.mark.parametrize("name", ["run.tfevents", "tfevents", "metrics", "train.log"])
def test_tensorboard_events_recognised_by_content_whatever_the_name(real_events, tmp_path, store, config, name):
    head = real_events.read_bytes()[:64]
    assert is_tfevents_head(head) and masked_crc32c(head[:8]) == int.from_bytes(head[8:12], "little")
    p = tmp_path / name
    shutil.copyfile(real_events, p)
    src = open_path_source(LocalFileSystem(), str(p))
    assert src.kind == "tfevents"
    expected = load_run(str(real_events), store=Store(tmp_path / "named.sqlite3"), config=config)
    got = load_run(str(p), store=store, config=config)
    assert got.source.kind == "tfevents" and sorted(got.frame.series) == sorted(expected.frame.series)
    for key in expected.frame.series:
        assert got.frame.series[key].equals(expected.frame.series[key])


def test_folder_with_an_event_file_of_any_name(real_events, tmp_path, store, config):
    run = tmp_path / "run"
    run.mkdir()
    shutil.copyfile(real_events, run / "host.tfevents")
    (run / "notes.tfevents.txt").write_text("step 1 loss 2\n")  # named so, but text: not an event file
    data = load_run(str(run), store=store, config=config)
    assert data.source.kind == "tfevents" and data.source.id.endswith("host.tfevents")


def test_text_and_binary_that_are_not_events_stay_what_they_are(tmp_path):
    log = tmp_path / "x.tfevents"
    log.write_text("".join(f"step {s} loss {1 / (s + 1):.4f}\n" for s in range(20)))
    assert open_path_source(LocalFileSystem(), str(log)).kind == "log"
    junk = b"\x10\x00\x00\x00\x00\x00\x00\x00\xde\xad\xbe\xef" + bytes(64)  # a length, then a wrong checksum
    assert not is_tfevents_head(junk)
