"""Neptune offline runs (``neptune.init_run(mode="offline")``: ``.neptune/offline/run__.../data-N.log`` operation
logs), read with the stdlib through ``load_run`` and the MCP tools. Neptune's client is too heavy for the ``test``
extra (29 packages): the stores are the ones its generator wrote for real (bench/tracker_stores/, committed in
examples/trackers2)."""

from __future__ import annotations

import json
import shutil

import anyio
import pytest
from training_check.tools.assess import assess_run
from training_check.tools.errors import BadInput, RunNotFound
from training_check.tools.reading import load_run
from training_check.tools.store import Store

from tests.mcp_client import mcp_session
from tests.offline_trackers import CORPUS

pytestmark = pytest.mark.timeout(300)


def _copy(name: str, dest) -> tuple:
    """(the copied project folder, its run folder, the logged train loss)."""
    shutil.copytree(CORPUS / name, dest)
    run = next((dest / ".neptune" / "offline").iterdir())
    return dest, run, json.loads((dest / "truth.json").read_text())["train_loss"]


def _points(data, key):
    s = data.frame.series[key]
    return [[int(i), float(v)] for i, v in zip(s.index, s.values, strict=True)]


def test_run_read_by_project_store_run_folder_and_log_file(tmp_path, config):
    project, run, logged = _copy("neptune_healthy", tmp_path / "proj")
    uuid = json.loads((run / "metadata.json").read_text())["containerId"]
    for ref in (project, project / ".neptune", project / ".neptune" / "offline", run, run / "data-1.log"):
        data = load_run(str(ref), store=Store(tmp_path / f"{ref.name}.sqlite3"), config=config)
        assert data.source.kind == "neptune_offline", ref
        assert _points(data, "train/loss") == logged
        assert data.frame.primary_loss == "train/loss" and data.frame.roles["val/loss"].role == "eval"
        assert data.info.name == "neptune-healthy" and data.info.config["lr"] == 0.02
        assert data.chosen and uuid in data.chosen
    latest = load_run(str(project), store=Store(tmp_path / "latest.sqlite3"), config=config)
    assert "the latest" in latest.chosen and latest.notes[0] == latest.chosen
    named = load_run(f"{project / '.neptune' / 'offline'}#{uuid}", store=Store(tmp_path / "n.sqlite3"),
                     config=config)
    assert "the latest" not in named.chosen and _points(named, "train/loss") == logged
    with pytest.raises(RunNotFound, match="no Neptune offline run 0000") as e:
        load_run(f"{project / '.neptune' / 'offline'}#0000", store=Store(tmp_path / "x.sqlite3"), config=config)
    assert "\n" not in str(e.value)


def test_latest_of_several_runs(tmp_path, store, config):
    project, _, _ = _copy("neptune_healthy", tmp_path / "proj")
    other = next((CORPUS / "neptune_diverged" / ".neptune" / "offline").iterdir())
    shutil.copytree(other, project / ".neptune" / "offline" / other.name)
    data = load_run(str(project), store=store, config=config)
    created = {json.loads((r / "metadata.json").read_text())["createdAt"]: r.name
               for r in (project / ".neptune" / "offline").iterdir()}
    assert created[max(created)].split("__")[1] in data.chosen and "of 2 runs" in data.chosen


def test_assess_and_the_mcp_tools(tmp_path, store, config, tc_home):
    healthy, _, _ = _copy("neptune_healthy", tmp_path / "h")
    diverged, _, _ = _copy("neptune_diverged", tmp_path / "d")
    a = assess_run(str(healthy), store=store, config=config)
    assert a.verdict in ("CONTINUE", "WAIT") and a.source["kind"] == "neptune_offline", a.summary

    async def main():
        async with mcp_session(tc_home) as s:
            m = await s.ok("read_metrics", {"run": str(diverged), "max_points": 20})
            assert {"train/loss", "val/loss"} <= {x["name"] for x in m["metrics"]} and m["last_step"] == 80
            b = await s.ok("assess_run", {"run": str(diverged)})
            assert b["verdict"] in ("STOP", "ESCALATE"), b

    anyio.run(main)


def test_incremental_reads_and_a_new_log_file(tmp_path, config):
    _, run, logged = _copy("neptune_healthy", tmp_path / "proj")
    log = run / "data-1.log"
    lines = log.read_bytes().splitlines(keepends=True)
    half = len(lines) // 2
    log.write_bytes(b"".join(lines[:half]) + lines[half][:30])  # the last operation half written
    inc = Store(tmp_path / "inc.sqlite3")
    first = load_run(str(run), store=inc, config=config)
    with open(log, "ab") as f:
        f.write(lines[half][30:] + b"".join(lines[half + 1:]))
    second = load_run(str(run), store=inc, config=config)
    assert first.new_points > 0 and second.last_step_before == first.frame.last_step
    assert _points(second, "train/loss") == logged
    # Neptune starts a new file when one is full (data-<first version>.log): only its operations are new
    more = [{"obj": {"type": "LogFloats", "path": ["train", "loss"], "values": [{"value": 0.5, "step": 81, "ts": 1},
                                                                                {"value": 0.4, "step": 82, "ts": 1}]},
             "version": 1000, "at": 1},
            {"obj": {"type": "LogFloats", "path": ["train", "loss"], "values": [{"value": "x", "step": 83}]},
             "version": 1001, "at": 1}]
    (run / "data-1000.log").write_text("".join(json.dumps(m) + "\n" for m in more) + "\x00garbage\n")
    third = load_run(str(run), store=inc, config=config)
    assert third.new_points == 2 and third.frame.last_step == 82
    assert any(n.startswith("skipped 2 operation(s)") for n in third.notes), third.notes  # "x", the garbage
    assert load_run(str(run), store=inc, config=config).new_points == 0
    full = load_run(str(run), store=Store(tmp_path / "full.sqlite3"), config=config)
    assert full.frame.series["train/loss"].equals(third.frame.series["train/loss"])


def test_values_without_steps_in_appending_order(tmp_path, store, config):
    _, run, _ = _copy("neptune_healthy", tmp_path / "proj")
    ops = [{"obj": {"type": "LogFloats", "path": ["score"], "values": [{"value": v, "step": None, "ts": 1}]},
            "version": 2000 + i, "at": 1} for i, v in enumerate((3.0, 2.0, 1.0))]
    with open(run / "data-1.log", "a") as f:
        f.write("".join(json.dumps(o) + "\n" for o in ops))
    data = load_run(str(run), store=store, config=config)
    assert _points(data, "score") == [[0, 3.0], [1, 2.0], [2, 1.0]]
    assert "logged without steps, read in logging order: score" in data.notes, data.notes


def test_foreign_and_broken_files_in_one_line(tmp_path, store, config):
    _, run, _ = _copy("neptune_healthy", tmp_path / "proj")
    (run / "data-1.log").write_bytes(b"\x00\xff" * 5000 + b"\n" + b"[" * 100_000 + b"\n")
    data = load_run(str(run), store=store, config=config)  # every line garbage: no point, said, no crash
    assert not data.frame.series
    assert any(n.startswith("skipped 2 operation(s)") for n in data.notes), data.notes
    deep = tmp_path / "deep"
    shutil.copytree(run, deep)
    (deep / "data-1.log").write_text('{"obj": ' * 70 + "1" + "}" * 70 + "\n")
    assert any("skipped 1" in n for n in load_run(str(deep), store=Store(tmp_path / "d.sqlite3"),
                                                   config=config).notes)
    with pytest.raises(BadInput) as e:
        load_run(f"{run / 'metadata.json'}#abc", store=store, config=config)
    assert "\n" not in str(e.value)

