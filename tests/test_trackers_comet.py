"""Comet ML offline experiments written by the real ``comet_ml`` (``OfflineExperiment``: a .zip of JSON
messages), read with the stdlib through ``load_run`` and the MCP tools: by the archive, its folder or the unzipped
files, incrementally, and a broken or foreign archive in one line."""

from __future__ import annotations

import json
import shutil
import zipfile

import anyio
import pytest
from training_check.tools.assess import assess_run
from training_check.tools.errors import BadInput, RunNotFound, TrainingCheckError
from training_check.tools.reading import load_run
from training_check.tools.store import Store

from tests.mcp_client import mcp_session
from tests.offline_trackers import train

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("comet")
    return {s: (root / s, train("comet", s, root / s)) for s in ("healthy", "diverged")}


def _points(data, key):
    s = data.frame.series[key]
    return [[int(i), float(v)] for i, v in zip(s.index, s.values, strict=True)]


def test_archive_read_by_folder_archive_and_unzipped_files(runs, tmp_path, store, config):
    folder, logged = runs["healthy"]
    archive = next((folder / "comet").glob("*.zip"))
    unzipped = tmp_path / "unzipped"
    zipfile.ZipFile(archive).extractall(unzipped)
    for ref in (folder / "comet", archive, unzipped, unzipped / "messages.json"):
        data = load_run(str(ref), store=Store(tmp_path / f"{ref.name}.sqlite3"), config=config)
        assert data.source.kind == "comet_offline", ref
        assert _points(data, "train_loss") == logged
        assert data.frame.primary_loss == "train_loss" and data.frame.roles["val_loss"].role == "eval"
        assert data.info.name == "comet-healthy" and data.info.config["lr"] == 0.02
        assert data.frame.series["epoch"].iloc[-1] == 4  # the epoch given with each value: 16 steps an epoch
    data = load_run(str(folder / "comet"), store=store, config=config)
    experiment = json.loads(zipfile.ZipFile(archive).read("experiment.json"))["offline_id"]
    assert data.chosen and experiment in data.chosen and "the latest" in data.chosen and data.notes[0] == data.chosen
    named = load_run(f"{folder / 'comet'}#{experiment}", store=Store(tmp_path / "named.sqlite3"), config=config)
    assert "the latest" not in (named.chosen or "") and _points(named, "train_loss") == logged
    with pytest.raises(RunNotFound, match="no Comet offline experiment abc123"):
        load_run(f"{folder / 'comet'}#abc123", store=store, config=config)


def test_assess_healthy_and_diverged(runs, store, config):
    healthy = assess_run(str(runs["healthy"][0] / "comet"), store=store, config=config)
    assert healthy.verdict in ("CONTINUE", "WAIT") and healthy.source["kind"] == "comet_offline", healthy.summary
    diverged = assess_run(str(runs["diverged"][0] / "comet"), store=store, config=config)
    assert diverged.verdict in ("STOP", "ESCALATE"), diverged.summary


def test_through_the_mcp_tools(runs, tc_home):
    ref = str(runs["diverged"][0] / "comet")

    async def main():
        async with mcp_session(tc_home) as s:
            m = await s.ok("read_metrics", {"run": ref, "max_points": 20})
            assert {"train_loss", "val_loss"} <= {x["name"] for x in m["metrics"]} and m["last_step"] == 80
            a = await s.ok("assess_run", {"run": ref})
            assert a["verdict"] in ("STOP", "ESCALATE"), a

    anyio.run(main)


def test_unzipped_messages_read_incrementally(runs, tmp_path, config):
    archive = next((runs["healthy"][0] / "comet").glob("*.zip"))
    zf = zipfile.ZipFile(archive)
    lines = zf.read("messages.json").splitlines(keepends=True)
    folder = tmp_path / "live"
    folder.mkdir()
    (folder / "experiment.json").write_bytes(zf.read("experiment.json"))
    half = len(lines) // 2
    (folder / "messages.json").write_bytes(b"".join(lines[:half]) + lines[half][:20])  # a line being written
    inc = Store(tmp_path / "inc.sqlite3")
    first = load_run(str(folder), store=inc, config=config)
    with open(folder / "messages.json", "ab") as f:
        f.write(lines[half][20:] + b"".join(lines[half + 1:]) + b"{not json\n")
    second = load_run(str(folder), store=inc, config=config)
    full = load_run(str(archive), store=Store(tmp_path / "full.sqlite3"), config=config)
    assert 0 < first.new_points and first.new_points + second.new_points == full.new_points
    assert second.last_step_before == first.frame.last_step
    for key in full.frame.series:
        assert second.frame.series[key].equals(full.frame.series[key]), key
    assert any(n.startswith("skipped 1 line(s) of messages.json") for n in second.notes), second.notes
    assert load_run(str(folder), store=inc, config=config).new_points == 0


def test_broken_and_foreign_archives_in_one_line(runs, tmp_path, store, config):
    archive = next((runs["healthy"][0] / "comet").glob("*.zip"))
    broken = tmp_path / "broken.zip"
    broken.write_bytes(archive.read_bytes()[:200])
    foreign = tmp_path / "other.zip"
    with zipfile.ZipFile(foreign, "w") as zf:
        zf.writestr("weights.bin", b"\x00" * 100)
    no_meta = tmp_path / "no_meta.zip"
    with zipfile.ZipFile(no_meta, "w") as zf:
        zf.writestr("messages.json", b"")
        zf.writestr("experiment.json", b"[not an object")
    for path, what in ((broken, "not a readable zip archive"), (foreign, "not a tracker's offline store"),
                       (no_meta, "not a Comet offline experiment")):
        with pytest.raises(TrainingCheckError, match=what) as e:
            load_run(str(path), store=store, config=config)
        assert "\n" not in str(e.value) and path.name in str(e.value)


def test_metric_name_cap(runs, tmp_path, store, config):
    folder = tmp_path / "many"
    folder.mkdir()
    archive = next((runs["healthy"][0] / "comet").glob("*.zip"))
    shutil.copyfileobj(zipfile.ZipFile(archive).open("experiment.json"), open(folder / "experiment.json", "wb"))
    with open(folder / "messages.json", "w") as f:
        for i in range(20_001):
            f.write(json.dumps({"type": "metric_msg", "payload": {"metric": {
                "metricName": f"m{i}", "metricValue": 1.0, "step": 1}}}) + "\n")
    with pytest.raises(BadInput, match="more than 20000 distinct metric names") as e:
        load_run(str(folder), store=store, config=config)
    assert "\n" not in str(e.value)


def test_member_size_cap_checked_before_reading(runs, tmp_path, store, config):
    archive = next((runs["healthy"][0] / "comet").glob("*.zip"))
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w") as zf:
        zf.writestr("experiment.json", zipfile.ZipFile(archive).read("experiment.json"))
        zf.writestr("messages.json", b"{}\n")
    data = bytearray(bomb.read_bytes())
    at = data.rfind(b"PK\x01\x02")  # the central directory entry of messages.json (written last)
    data[at + 24:at + 28] = (3 << 30).to_bytes(4, "little")  # its declared uncompressed size: 3 GB
    bomb.write_bytes(bytes(data))
    with pytest.raises(BadInput, match="uncompressed, over the 1024 MB cap") as e:
        load_run(str(bomb), store=store, config=config)
    assert "\n" not in str(e.value)
