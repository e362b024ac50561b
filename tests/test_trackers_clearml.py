"""ClearML offline sessions written by the real ``clearml`` (``Task.set_offline(True)``: a session folder of JSON
event lines, zipped when the task closes), read with the stdlib through ``load_run`` and the MCP tools: while the
training runs (only the new reports each read), by folder, zip or file, and a broken or foreign one in one line."""

from __future__ import annotations

import json
import shutil
import zipfile

import anyio
import pytest
from training_check.tools.assess import assess_run
from training_check.tools.errors import RunNotFound, TrainingCheckError
from training_check.tools.reading import load_run
from training_check.tools.store import Store

from tests.mcp_client import mcp_session
from tests.offline_trackers import Paused, train

pytestmark = pytest.mark.timeout(600)


def _points(data, key):
    s = data.frame.series[key]
    return [[int(i), float(v)] for i, v in zip(s.index, s.values, strict=True)]


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """A training read at its pause (40 of 80 steps) and again once it ended: (first read, second, folder, truth,
    the store of those reads)."""
    root = tmp_path_factory.mktemp("clearml")
    from training_check.tools.config import load_config

    config = load_config(cwd=root)
    store = Store(root / "inc.sqlite3")
    run = Paused("clearml", root / "run", pause_at=40)
    try:
        sessions = root / "run" / ".clearml" / "cache" / "offline"
        first = load_run(str(root / "run"), store=store, config=config)  # the HOME holding .clearml/
        logged = run.go()
    finally:
        run.kill()
    second = load_run(str(root / "run"), store=store, config=config)
    return first, second, root / "run", logged, sessions


def test_read_while_the_training_runs_only_new_points(live, tmp_path, config):
    first, second, _, logged, _ = live
    assert first.source.kind == "clearml_offline" and _points(first, "loss/train") == logged[:40]
    assert second.last_step_before == 40 and second.new_points >= 40
    assert _points(second, "loss/train") == logged
    assert second.frame.primary_loss == "loss/train" and second.frame.roles["loss/validation"].role == "eval"
    assert second.info.name == "clearml-healthy" and second.info.config["lr"] == 0.02


def test_folder_zip_and_file_of_a_closed_session(live, tmp_path, config):
    _, second, home, logged, sessions = live
    folder = next(p for p in sessions.iterdir() if p.is_dir())
    archive = folder.with_suffix(".zip")
    alone = tmp_path / "renamed.bin"  # an archive is told by its members, whatever its name
    shutil.copyfile(archive, alone)
    for ref in (sessions, folder, folder / "metrics.jsonl", archive, alone):
        data = load_run(str(ref), store=Store(tmp_path / f"{ref.name}.sqlite3"), config=config)
        assert data.source.kind == "clearml_offline", ref
        assert _points(data, "loss/train") == logged
        assert folder.name in data.chosen
    assert "the latest" in load_run(str(home), store=Store(tmp_path / "l.sqlite3"), config=config).chosen
    named = load_run(f"{sessions}#{folder.name}", store=Store(tmp_path / "n.sqlite3"), config=config)
    assert "the latest" not in named.chosen and _points(named, "loss/train") == logged
    with pytest.raises(RunNotFound, match="no ClearML offline session"):
        load_run(f"{sessions}#offline-0", store=Store(tmp_path / "x.sqlite3"), config=config)


@pytest.fixture(scope="module")
def diverged(tmp_path_factory):
    root = tmp_path_factory.mktemp("clearml_div")
    train("clearml", "diverged", root)
    return root  # the HOME holding .clearml/


def test_assess_and_the_mcp_tools(live, diverged, store, config, tc_home):
    healthy = assess_run(str(live[2]), store=store, config=config)
    assert healthy.verdict in ("CONTINUE", "WAIT") and healthy.source["kind"] == "clearml_offline", healthy.summary

    async def main():
        async with mcp_session(tc_home) as s:
            m = await s.ok("read_metrics", {"run": str(diverged), "max_points": 20})
            assert {"loss/train", "loss/validation"} <= {x["name"] for x in m["metrics"]} and m["last_step"] == 80
            a = await s.ok("assess_run", {"run": str(diverged)})
            assert a["verdict"] in ("STOP", "ESCALATE"), a

    anyio.run(main)


def test_bad_lines_cost_their_line_and_broken_archives_one_line(live, tmp_path, store, config):
    folder = next(p for p in live[4].iterdir() if p.is_dir())
    copy = tmp_path / "offline-copy"
    shutil.copytree(folder, copy)
    with open(copy / "metrics.jsonl", "a") as f:
        f.write('{"not": "a batch"}\n[{"cut": \n\x00\xff\n')  # an object, a cut line, bytes: 3 bad lines
        f.write(json.dumps([{"type": "training_stats_scalar", "metric": "loss", "variant": "train", "iter": 81,
                             "value": 0.01},
                            {"type": "training_stats_scalar", "metric": "loss", "variant": "train", "iter": "x",
                             "value": 1}]) + "\n")
    data = load_run(str(copy), store=store, config=config)
    assert data.frame.last_step == 81
    assert any(n.startswith("skipped 3 line(s) of metrics.jsonl") for n in data.notes), data.notes
    assert any(n.startswith("skipped 1 ClearML scalar report(s)") for n in data.notes), data.notes
    broken = tmp_path / "broken.zip"
    broken.write_bytes(folder.with_suffix(".zip").read_bytes()[:300])
    no_task = tmp_path / "no_task.zip"
    with zipfile.ZipFile(no_task, "w") as zf:
        zf.writestr("metrics.jsonl", b"[]\n")
        zf.writestr("task.json", b"\xff\xfe")
    for path, what in ((broken, "not a readable zip archive"), (no_task, "not a ClearML offline session")):
        with pytest.raises(TrainingCheckError, match=what) as e:
            load_run(str(path), store=store, config=config)
        assert "\n" not in str(e.value)
