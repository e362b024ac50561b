"""A sweep of many local runs checked on worker processes (tools/check_pool.py): the same answer as on threads, the
same store records, redacted with what the caller knows. Real runs (the committed sweep mlp_cls-s2, 16 runs), real
worker processes from the fork server, the real store."""

from __future__ import annotations

import os
import secrets
import sqlite3
from pathlib import Path

from training_check.tools import check_pool
from training_check.tools.assess_runs import assess_runs
from training_check.tools.config import load_config
from training_check.tools.redact import remember_secret
from training_check.tools.store import Store

from .conftest import REPO, require

SWEEP = REPO / "examples" / "sweeps" / "mlp_cls-s2"


def write_sweep(folder: Path, lines: int) -> list[str]:
    """Every run of the committed sweep as a live run would have written its first ``lines`` records."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for src in sorted(SWEEP.glob("*.jsonl")):
        (folder / src.name).write_text("\n".join(src.read_text().splitlines()[:lines]) + "\n")
        out.append(str(folder / src.name))
    return out


def comparable(report) -> dict:
    """An answer without what differs between any two checks (ids, times)."""
    d = report.to_dict()
    d.pop("elapsed_s")
    for r in d["runs"]:
        r.pop("assessment_id", None)
    return d


def sweep_twice(runs_dir: Path, home: Path, workers: int) -> list[dict]:
    """Two checks of the sweep (20 then 40 records a run: a prune needs two in a row), into a store of its own."""
    os.environ["TRAINING_CHECK_HOME"] = str(home)
    config = load_config(cwd=home.parent)
    store = Store(config.store_path)
    out = []
    for lines in (20, 40):
        runs = write_sweep(runs_dir, lines)
        out.append(comparable(assess_runs(runs, store=store, config=config, total_steps=800,
                                          workers=workers)))
    return out


def test_the_sweep_answer_from_worker_processes_is_the_one_from_threads(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAINING_CHECK_HOME", str(tmp_path / "unused"))
    runs_dir = tmp_path / "sweep"
    config = load_config(cwd=tmp_path)
    assert check_pool.pool_size(write_sweep(runs_dir, 20), config, 8, workers=2) == 2
    on_threads = sweep_twice(runs_dir, tmp_path / "threads", 0)
    on_processes = sweep_twice(runs_dir, tmp_path / "processes", 2)
    assert on_processes == on_threads
    second = on_processes[1]
    assert second["sweep"]["compared"] == 16 and len(second["runs"]) + second.get("more", {}).get("runs", 0) == 16
    assert {r["verdict"] for r in second["runs"]} and all("relative" in r for r in second["runs"])


def test_a_worker_process_checks_in_a_process_of_its_own_with_the_callers_environment(tmp_path, monkeypatch, store,
                                                                                      config):
    monkeypatch.setenv("TC_POOL_PROBE", "from-the-caller")
    runs = write_sweep(tmp_path / "sweep", 20)
    pool = check_pool.open_pool(2, store, config)
    assert pool is not None
    try:
        assert pool.submit(os.getpid).result(timeout=60) != os.getpid()
        assert pool.submit(os.getenv, "TC_POOL_PROBE").result(timeout=60) == "from-the-caller"
        fut = check_pool.submit(pool, runs[0], True, 800)
        assert fut is not None
        line, objectives, run_key = fut.result(timeout=120)
    finally:
        pool.shutdown()
    assert line.verdict in ("CONTINUE", "WAIT", "ESCALATE", "STOP") and line.assessment_id
    assert objectives is not None and objectives.run == runs[0] and run_key == f"file:{runs[0]}"
    assert store.recent_assessments(run_key, 1)[0]["assessment_id"] == line.assessment_id  # the caller's store


def test_what_a_worker_process_stores_is_redacted_with_the_secrets_the_caller_learnt(tmp_path, monkeypatch, store,
                                                                                    config):
    secret = "tcPool" + secrets.token_hex(12)
    remember_secret(secret, "probe")  # learnt at run time (as a key read from a file is), not in the environment
    runs = write_sweep(tmp_path / secret, 20)
    rep = assess_runs(runs, store=store, config=config, total_steps=800, workers=2)
    assert rep.sweep is not None and rep.sweep["compared"] == 16
    with sqlite3.connect(store.path) as c:  # the workers' records: each run's assessment
        rows = c.execute("SELECT run_key, payload FROM assessments").fetchall()
    assert len(rows) == 16 and all(k.startswith("file:") and "[redacted probe]" in k for k, _ in rows)
    assert all(secret not in k and secret not in p and "[redacted probe]" in p for k, p in rows)



def test_the_sweep_records_are_redacted_and_still_found_by_their_runs(tmp_path, store, config):
    """A secret in the runs' folder reaches neither the sweep's memory nor its per-run judgements (raw rows), and the
    judgement is still found by the run it belongs to (what stop_run's prune guard reads)."""
    secret = "tcSweep" + secrets.token_hex(12)
    remember_secret(secret, "probe")
    for lines in (20, 40):
        runs = write_sweep(tmp_path / secret, lines)
        rep = assess_runs(runs, store=store, config=config, total_steps=800, workers=0)
    assert rep.sweep is not None and rep.sweep["compared"] == 16
    with sqlite3.connect(store.path) as c:
        rows = c.execute("SELECT sweep_key, payload FROM sweeps").fetchall()
        rows += c.execute("SELECT sweep_key || run_key, payload FROM sweep_judgements").fetchall()
    assert len(rows) >= 17 and all(secret not in k and secret not in p for k, p in rows)
    assert any("[redacted probe]" in p for _, p in rows)
    found = store.latest_sweep_judgement(f"file:{runs[0]}")
    assert found is not None and found["judgement_id"].startswith("swp") and secret not in str(found)

def _grandchildren() -> list[int]:
    """Processes whose parent is a child of this one (the fork server's workers), from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    children = {p for p, pp in parents.items() if pp == os.getpid()}
    return [p for p, pp in parents.items() if pp in children]


def test_runs_a_killed_worker_had_not_returned_are_checked_on_threads(tmp_path, monkeypatch):
    require(Path("/proc/self/stat").is_file(), "/proc (the workers are found there)")
    monkeypatch.setenv("TRAINING_CHECK_HOME", str(tmp_path / "unused"))
    expected = sweep_twice(tmp_path / "sweep", tmp_path / "threads", 0)[1]  # 20 then 40 records a run, on threads
    monkeypatch.setenv("TRAINING_CHECK_HOME", str(tmp_path / "killed"))
    config = load_config(cwd=tmp_path)
    store = Store(config.store_path)
    assess_runs(write_sweep(tmp_path / "sweep", 20), store=store, config=config, total_steps=800, workers=0)
    runs = write_sweep(tmp_path / "sweep", 40)
    killed: list[int] = []

    def kill_the_workers(done: float, total: float | None, what: str) -> None:
        if not killed:
            killed.extend(_grandchildren())
            for pid in killed:
                os.kill(pid, 9)  # the workers this call started (the fork server's children), by their ids

    rep = assess_runs(runs, store=store, config=config, total_steps=800, workers=2, progress=kill_the_workers)
    assert killed, "no worker process was running"
    assert comparable(rep) == expected
