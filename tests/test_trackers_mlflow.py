"""MLflow stores as run sources, written by the real ``mlflow`` library: the sqlite ``mlflow.db`` (read-only, in
rollback-journal and WAL mode), the ``mlruns/`` file store, and a real ``mlflow server`` over REST (stopped:
UNREACHABLE)."""

from __future__ import annotations

import hashlib
import importlib.util
import math
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from training_check.tools.assess import assess_run
from training_check.tools.config import load_config
from training_check.tools.errors import RunNotFound, TrainingCheckError, UnknownFormat
from training_check.tools.reading import load_run
from training_check.tools.store import Store

from tests.conftest import require
from tests.tracker_runs import run as run_trackers

pytestmark = pytest.mark.timeout(600)


def _healthy(n: int, start: int = 0) -> list[list[float]]:
    return [[s, 2.5 * math.exp(-s / 80) + 0.3 + 0.01 * math.sin(s)] for s in range(start, n)]


def _val(n: int, start: int = 0) -> list[list[float]]:
    return [[s, 2.6 * math.exp(-s / 90) + 0.35] for s in range(start, n, 20)]


def _nan_run(n: int) -> list[list]:
    return [[s, 2.5 * math.exp(-s / 80) + 0.3] if s < n - 20 else [s, "nan"] for s in range(n)]


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    """A sqlite store and a file store, each with a healthy run and, started later, a run whose loss went NaN."""
    require(importlib.util.find_spec("mlflow") is not None, "the mlflow library (pip install -e '.[test]')")
    root = tmp_path_factory.mktemp("mlflow")
    db = root / "mlflow.db"
    spec = []
    for uri in (f"sqlite:///{db}", f"file:{root / 'mlruns'}"):
        spec += [{"mlflow": uri, "experiment": "demo", "run_name": "healthy", "params": {"lr": 3e-4, "max_steps": 300},
                  "metrics": {"train_loss": _healthy(200), "val_loss": _val(200)}},
                 {"mlflow": uri, "experiment": "demo", "run_name": "went-nan",
                  "metrics": {"train_loss": _nan_run(200)}, "no_step": {"epoch_time": [1.0, 1.1, 0.9]}}]
    ids = run_trackers(spec, root)
    return {"root": root, "db": db, "mlruns": root / "mlruns", "healthy": ids[0], "nan": ids[1],
            "files_healthy": ids[2], "files_nan": ids[3]}


def _copy_db(stores, tmp_path: Path) -> Path:
    dst = tmp_path / "mlflow.db"
    shutil.copyfile(stores["db"], dst)
    return dst


def _digest(p: Path) -> tuple[str, int]:
    return hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns


def _beside(p: Path) -> list[str]:
    return sorted(x.name for x in p.parent.iterdir() if x.name.startswith(p.name) and x != p)


def test_sqlite_store_latest_run_said_and_named_run(stores, tmp_path, store, config):
    db = _copy_db(stores, tmp_path)
    latest = assess_run(str(db), store=store, config=config)
    assert latest.verdict == "STOP", latest.summary  # the later run went NaN
    assert latest.notes[0].startswith(f"read MLflow run {stores['nan']} ('went-nan', experiment 'demo'), the "
                                      f"latest of 2 runs in {db}; name another as {db}#<run_id>"), latest.notes
    healthy = assess_run(f"{db}#{stores['healthy']}", store=store, config=config)
    assert healthy.verdict == "CONTINUE", healthy.summary
    assert healthy.key_metrics["train_loss"]["name"] == "train_loss"
    assert healthy.key_metrics["eval"]["name"] == "val_loss" and healthy.progress["step"] == 199
    data = load_run(f"{db}#{stores['healthy']}", store=store, config=config)
    assert data.source.kind == "mlflow_sqlite" and data.info.name == "healthy" and data.info.state == "finished"
    assert data.info.total_steps == 300 and data.info.config.get("lr") == 3e-4
    nan = load_run(str(db), store=store, config=config)
    col = nan.frame.series["train_loss"]
    assert col.index.tolist() == list(range(200)) and int(col.isna().sum()) == 20
    # logged without a step: all at step 0 in the store, read in logging order and said
    assert nan.frame.series["epoch_time"].index.tolist() == [0, 1, 2]
    assert any(n.startswith("logged without steps") and "epoch_time" in n for n in nan.notes)


def test_sqlite_store_is_never_written_rollback_and_wal(stores, tmp_path, store, config):
    db = _copy_db(stores, tmp_path)
    before = _digest(db)
    assess_run(str(db), store=store, config=config)
    assert _digest(db) == before and _beside(db) == []  # rollback journal (MLflow's default): no file made
    wal = tmp_path / "wal" / "mlflow.db"
    wal.parent.mkdir()
    shutil.copyfile(db, wal)
    con = sqlite3.connect(wal)
    assert con.execute("PRAGMA journal_mode=wal").fetchone()[0] == "wal"
    con.close()
    assert _beside(wal) == []  # WAL and no writer: MLflow's store at rest
    before = _digest(wal)
    a = assess_run(str(wal), store=store, config=config)
    assert a.verdict == "STOP" and _digest(wal) == before and _beside(wal) == []  # read immutable: no -shm, -wal
    # a writer has it open (WAL file present): read through its -shm, and what it committed is seen
    writer = sqlite3.connect(wal)
    writer.execute("INSERT INTO metrics (key, value, timestamp, run_uuid, step, is_nan) VALUES "
                   "('train_loss', 0.1, 1, ?, 500, 0)", (stores["nan"],))
    writer.commit()
    try:
        data = load_run(str(wal), store=store, config=config)
        assert data.frame.last_step == 500 and data.new_points == 1
    finally:
        writer.close()


def test_sqlite_incremental_reads_equal_one_full_read(stores, tmp_path, config):
    db = _copy_db(stores, tmp_path)
    ref = f"{db}#{stores['healthy']}"
    inc = Store(tmp_path / "inc.sqlite3")
    first = load_run(ref, store=inc, config=config)
    assert first.new_points == 200 + 10
    run_trackers([{"mlflow": f"sqlite:///{db}", "run_id": stores["healthy"],
                   "metrics": {"train_loss": _healthy(260, 200), "val_loss": _val(260, 200)}}], tmp_path)
    second = load_run(ref, store=inc, config=config)
    assert second.new_points == 60 + 3 and second.last_step_before == 199 and second.frame.last_step == 259
    full = load_run(ref, store=Store(tmp_path / "full.sqlite3"), config=config)
    for key in ("train_loss", "val_loss"):
        assert second.frame.series[key].equals(full.frame.series[key])
    assert load_run(ref, store=inc, config=config).new_points == 0


def test_sqlite_bad_input_is_one_line(stores, tmp_path, store, config):
    db = _copy_db(stores, tmp_path)
    with pytest.raises(RunNotFound) as e:
        load_run(f"{db}#0123456789abcdef0123456789abcdef", store=store, config=config)
    assert str(e.value).startswith(f"no MLflow run 0123456789abcdef0123456789abcdef in {db} (its latest runs: ")
    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    with pytest.raises(UnknownFormat, match="is an SQLite database but not an MLflow store"):
        load_run(str(other), store=store, config=config)
    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(db.read_bytes()[:100] + os.urandom(8192))
    with pytest.raises(TrainingCheckError) as e:
        load_run(str(corrupt), store=store, config=config)
    assert "\n" not in str(e.value) and "corrupt.db" in str(e.value)
    log = tmp_path / "train.log"
    log.write_text("step 1 loss 2\n")
    with pytest.raises(TrainingCheckError, match="names a run of an MLflow store"):
        load_run(f"{log}#abc", store=store, config=config)


def test_file_store_over_ssh_and_sqlite_over_ssh_refused(stores, ssh_env, tmp_path, store, config):
    root = tmp_path / "mlruns"
    shutil.copytree(stores["mlruns"], root)
    remote = load_run(ssh_env.url(f"{root}#{stores['files_healthy']}"), store=store, config=config)
    local = load_run(f"{root}#{stores['files_healthy']}", store=Store(tmp_path / "l.sqlite3"), config=config)
    assert remote.source.kind == "mlflow_files" and remote.source.id.startswith("mlflow_files:ssh://")
    assert remote.frame.series["train_loss"].equals(local.frame.series["train_loss"])
    db = _copy_db(stores, tmp_path)
    with pytest.raises(TrainingCheckError, match="is an MLflow sqlite store on another machine: sqlite reads only "
                                                 "local files"):
        load_run(ssh_env.url(str(db)), store=store, config=config)


def test_file_store_latest_named_incremental_and_bad_lines(stores, tmp_path, config):
    root = tmp_path / "mlruns"
    shutil.copytree(stores["mlruns"], root)
    s = Store(tmp_path / "s.sqlite3")
    a = assess_run(str(root), store=s, config=config)
    assert a.verdict == "STOP" and a.notes[0].startswith(f"read MLflow run {stores['files_nan']} ('went-nan', "
                                                         f"experiment 'demo'), the latest of 2 runs in {root}")
    ref = f"{root}#{stores['files_healthy']}"
    first = load_run(ref, store=s, config=config)
    assert first.source.kind == "mlflow_files" and first.frame.primary_loss == "train_loss"
    assert first.frame.roles["val_loss"].role == "eval" and first.info.total_steps == 300
    run_trackers([{"mlflow": f"file:{root}", "run_id": stores["files_healthy"],
                   "metrics": {"train_loss": _healthy(230, 200)}}], tmp_path)
    metric = next(root.glob(f"*/{stores['files_healthy']}/metrics/train_loss"))
    with open(metric, "a") as f:
        f.write("garbage line here\n1796480330492 0.31 230\n")
    second = load_run(ref, store=s, config=config)
    assert second.new_points == 31 and second.frame.last_step == 230
    assert any(n.startswith("skipped 1 line(s) of MLflow metric files that are not metric rows: train_loss (1)")
               for n in second.notes), second.notes
    full = load_run(ref, store=Store(tmp_path / "full.sqlite3"), config=config)
    assert second.frame.series["train_loss"].equals(full.frame.series["train_loss"])
    # the run's own folder names it too
    run_dir = metric.parent.parent
    assert load_run(str(run_dir), store=s, config=config).frame.last_step == 230


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start_server(db: Path, port: int) -> subprocess.Popen:
    exe = Path(sys.executable).with_name("mlflow")
    require(exe.exists(), "the mlflow server command (pip install -e '.[test]')")
    proc = subprocess.Popen([str(exe), "server", "--backend-store-uri", f"sqlite:///{db}", "--host", "127.0.0.1",
                             "--port", str(port), "--workers", "1"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 150
    import httpx

    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.5)
    _stop(proc)
    pytest.fail("mlflow server did not start within 150 s")


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()


def test_tracking_server_over_rest_then_stopped_is_unreachable(stores, tmp_path, monkeypatch):
    db = _copy_db(stores, tmp_path)
    port = _free_port()
    monkeypatch.setenv("TRAINING_CHECK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"http://127.0.0.1:{port}")
    config = load_config(cwd=tmp_path)
    s = Store(config.store_path)
    proc = _start_server(db, port)
    try:
        latest = assess_run("mlflow:latest", store=s, config=config)
        assert latest.verdict == "STOP" and latest.source["kind"] == "mlflow_api"
        assert latest.notes[0] == (f"read MLflow run {stores['nan']} ('went-nan'), the latest in "
                                   f"http://127.0.0.1:{port}; name another as mlflow:<run_id>")
        ref = f"mlflow:{stores['healthy']}"
        over_rest = load_run(ref, store=s, config=config)
        local = load_run(f"{db}#{stores['healthy']}", store=Store(tmp_path / "local.sqlite3"), config=config)
        for key in ("train_loss", "val_loss"):
            assert over_rest.frame.series[key].equals(local.frame.series[key])
        assert assess_run(ref, store=s, config=config).verdict == "CONTINUE"
        # the run goes on: a check asks only the page after the last point read (MLflow's offset page token)
        run_trackers([{"mlflow": f"sqlite:///{db}", "run_id": stores["healthy"],
                       "metrics": {"train_loss": _healthy(240, 200)}}], tmp_path)
        from training_check.tools.sources import mlflow_api

        tokens: list = []
        plain = mlflow_api.MlflowApiSource._history

        def spy(self, key, progress, token=None):
            tokens.append((key, token))
            return plain(self, key, progress, token)

        monkeypatch.setattr(mlflow_api.MlflowApiSource, "_history", spy)
        grown = load_run(ref, store=s, config=config)
        assert grown.new_points == 40 and grown.frame.last_step == 239
        assert tokens == [("train_loss", "eyJvZmZzZXQiOiAxOTl9")]  # {"offset": 199}: one page, the new points
        full = load_run(ref, store=Store(tmp_path / "full.sqlite3"), config=config)
        assert grown.frame.series["train_loss"].equals(full.frame.series["train_loss"])
        nan = load_run(f"mlflow:{stores['nan']}", store=s, config=config)
        assert int(nan.frame.series["train_loss"].isna().sum()) == 20
        with pytest.raises(RunNotFound, match="has no such run"):
            load_run("mlflow:0123456789abcdef0123456789abcdef", store=s, config=config)
    finally:
        _stop(proc)
    t0 = time.monotonic()
    down = assess_run(ref, store=s, config=config)
    assert down.verdict == "UNREACHABLE" and time.monotonic() - t0 < 15
    assert down.summary.startswith(f"UNREACHABLE: cannot reach the MLflow server http://127.0.0.1:{port} while "
                                   f"looking up run {stores['healthy']}: "), down.summary
    assert "Connection refused (gave up after 3 tries in" in down.summary
    log = tmp_path / "train.log"
    log.write_text("".join(f"step {s} loss {2.5 * math.exp(-s / 80) + 0.3:.4f}\n" for s in range(200)))
    fb = assess_run(ref, store=s, config=config, fallback_log=str(log))
    assert fb.verdict == "CONTINUE" and "cannot reach the MLflow server" in (fb.fallback_reason or "")


def test_server_address_never_from_a_reference_or_a_project_file(tmp_path, monkeypatch):
    from training_check.tools.errors import BadInput
    from training_check.tools.runref import parse_run_ref

    for ref in ("mlflow:http://evil.example/x", "http://evil.example:5000/#/experiments/1/runs/abc",
                "mlflow:../../etc"):
        with pytest.raises(BadInput):
            parse_run_ref(ref)
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    monkeypatch.setenv("TRAINING_CHECK_HOME", str(tmp_path / "home"))
    (tmp_path / ".git").mkdir()
    (tmp_path / ".training-check.toml").write_text('[mlflow]\ntracking_uri = "http://evil.example"\n')
    config = load_config(cwd=tmp_path)
    assert config.mlflow_tracking_uri is None
    assert any("ignored [mlflow] tracking_uri" in w for w in config.warnings)
    with pytest.raises(BadInput, match="set MLFLOW_TRACKING_URI"):
        load_run("mlflow:latest", store=Store(tmp_path / "s.sqlite3"), config=config)


def test_tracking_uri_naming_a_local_store_reads_it(stores, tmp_path, monkeypatch):
    db = _copy_db(stores, tmp_path)
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{db}")
    monkeypatch.setenv("TRAINING_CHECK_HOME", str(tmp_path / "home"))
    config = load_config(cwd=tmp_path)
    data = load_run(f"mlflow:{stores['healthy']}", store=Store(config.store_path), config=config)
    assert data.source.kind == "mlflow_sqlite" and data.frame.last_step == 199


def test_reads_in_parts_equal_one_read(stores, tmp_path, config, monkeypatch):
    """A long first read comes in parts (each stored before the next): the same points as one read."""
    from training_check.tools.sources import appended, mlflow_sqlite

    db = _copy_db(stores, tmp_path)
    root = tmp_path / "mlruns"
    shutil.copytree(stores["mlruns"], root)
    refs = (f"{db}#{stores['healthy']}", f"{root}#{stores['files_healthy']}")
    whole = [load_run(r, store=Store(tmp_path / f"w{i}.sqlite3"), config=config) for i, r in enumerate(refs)]
    monkeypatch.setattr(mlflow_sqlite, "CHUNK_ROWS", 7)
    monkeypatch.setattr(mlflow_sqlite, "PART_ROWS", 30)
    monkeypatch.setattr(appended, "PART_BYTES", 300)
    for i, ref in enumerate(refs):
        parts = load_run(ref, store=Store(tmp_path / f"p{i}.sqlite3"), config=config)
        for key in ("train_loss", "val_loss"):
            assert parts.frame.series[key].equals(whole[i].frame.series[key]), (ref, key)


def test_sqlite_store_whose_table_was_rebuilt_is_read_anew(stores, tmp_path, store, config):
    """A migration that rebuilds the metrics table (as alembic's batch mode does on sqlite) renumbers the rowids:
    noticed by the last row read not being where it was, and read again whole; VACUUM keeps them: nothing new."""
    db = _copy_db(stores, tmp_path)
    ref = f"{db}#{stores['nan']}"
    first = load_run(ref, store=store, config=config)
    con = sqlite3.connect(db)
    con.execute("VACUUM")
    con.close()
    assert load_run(ref, store=store, config=config).new_points == 0
    con = sqlite3.connect(db)
    con.executescript(f"""
        CREATE TABLE m2 AS SELECT key, value, timestamp, run_uuid, step, is_nan FROM metrics
            ORDER BY run_uuid = '{stores['nan']}' DESC, rowid;
        DROP TABLE metrics;
        ALTER TABLE m2 RENAME TO metrics;
        CREATE INDEX index_metrics_run_uuid ON metrics (run_uuid);""")
    con.close()
    again = load_run(ref, store=store, config=config)
    assert any(n.endswith("re-read from the start") for n in again.notes), again.notes
    assert again.frame.series["train_loss"].equals(first.frame.series["train_loss"])
    assert load_run(ref, store=store, config=config).new_points == 0


def test_sqlite_read_waits_out_a_writers_commit_holding_nothing(stores, tmp_path, store, config):
    """A writer inside a transaction (its -journal there) or holding the exclusive lock: the read goes through
    sqlite's locks, waits the commit out without failing, and sees what was committed."""
    import threading

    db = _copy_db(stores, tmp_path)
    before = load_run(f"{db}#{stores['nan']}", store=store, config=config).frame.last_step
    writer = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    writer.execute("BEGIN EXCLUSIVE")
    writer.execute("INSERT INTO metrics (key, value, timestamp, run_uuid, step, is_nan) VALUES "
                   "('train_loss', 0.1, 1, ?, 700, 0)", (stores["nan"],))
    assert (tmp_path / "mlflow.db-journal").exists()
    done = threading.Timer(0.5, lambda: writer.execute("COMMIT"))
    done.start()
    t0 = time.monotonic()
    try:
        data = load_run(f"{db}#{stores['nan']}", store=store, config=config)
    finally:
        done.join()
        writer.close()
    assert before == 199 and data.frame.last_step == 700 and time.monotonic() - t0 >= 0.4
    assert _beside(db) == []


def test_sqlite_uncommitted_rows_are_never_read(stores, tmp_path, store, config):
    """A writer mid-transaction (its -journal there, not committed): the read sees the committed rows only, then the
    new one once committed, once."""
    db = _copy_db(stores, tmp_path)
    ref = f"{db}#{stores['nan']}"
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO metrics (key, value, timestamp, run_uuid, step, is_nan) VALUES "
                   "('train_loss', 0.1, 1, ?, 800, 0)", (stores["nan"],))
    assert (tmp_path / "mlflow.db-journal").exists()
    try:
        assert load_run(ref, store=store, config=config).frame.last_step == 199
    finally:
        writer.execute("COMMIT")
        writer.close()
    after = load_run(ref, store=store, config=config)
    assert after.frame.last_step == 800 and after.new_points == 1
