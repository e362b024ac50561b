"""The store under process death and concurrency: real subprocesses running assess_run + reschedule in a loop,
SIGKILLed mid-check, then restarted; two processes writing one store at once. No corruption, nothing lost."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from training_check.tools.sources import open_path_source
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.store import Store

from tests.helpers import as_points

# A worker: every loop appends to its log, assesses it, reschedules it, records a review and evidence, then
# prints the ids (only after they are committed). ``argv``: store path, log path, tag, loops (0 = forever).
WORKER = r"""
import sys, time
from training_check.tools.assess import assess_run
from training_check.tools.config import load_config
from training_check.tools.schedule import reschedule
from training_check.tools.store import Store
store_path, log, tag, loops = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
store, config = Store(store_path), load_config()
i = 0
while loops == 0 or i < loops:
    with open(log, "a") as f:
        for s in range(i * 50, i * 50 + 50):
            f.write(f"step={s} loss={4.0 / (s + 1) + 0.1:.6f}\n")
    a = assess_run(log, store=store, config=config)
    sch = reschedule(log, store=store, config=config, assessment_id=a.assessment_id)
    r = store.add_review(a.run_key, a.assessment_id, "m", None, "CONTINUE", "ok", {"tag": tag, "i": i})
    e = store.add_evidence(a.run_key, None, {"tag": tag, "i": i})
    print(f"{a.assessment_id} {r} {e} {sch.interval_minutes}", flush=True)
    i += 1
"""


def start_worker(store_path: Path, log: Path, tag: str, loops: int, home: Path) -> subprocess.Popen:
    env = {**os.environ, "TRAINING_CHECK_HOME": str(home)}
    return subprocess.Popen([sys.executable, "-c", WORKER, str(store_path), str(log), tag, str(loops)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=log.parent)


def integrity(store_path: Path) -> str:
    with sqlite3.connect(store_path) as c:
        return c.execute("PRAGMA integrity_check").fetchone()[0]



def check_all_present(store: Store, rows: list[str]) -> None:
    for row in rows:
        a_id, r_id, e_id, _ = row.split()
        assert store.get_assessment(a_id) is not None, f"assessment {a_id} lost"
        assert store.get_review(r_id) is not None, f"review {r_id} lost"
    with sqlite3.connect(store.path) as c:
        evidence = {r[0] for r in c.execute("SELECT id FROM evidence")}
    assert {row.split()[2] for row in rows} <= evidence


def test_fault_sigkill_mid_check_then_restart(tmp_path, tc_home):
    store_path = tc_home / "state.db"
    Store(store_path)
    log = tmp_path / "train.log"
    committed: list[str] = []
    for round_ in range(3):  # kill at three different moments
        proc = start_worker(store_path, log, f"r{round_}", 0, tc_home)
        while len(committed) < sum(2 + k * 2 for k in range(round_ + 1)):
            line = proc.stdout.readline()
            assert line, f"worker died: {proc.stderr.read()[-2000:]}"
            committed.append(line.strip())
        time.sleep(0.05 * (round_ + 1))  # land inside the next check
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        committed += [ln.strip() for ln in proc.stdout.read().splitlines() if ln.strip()]  # flushed before death
        proc.stdout.close()
        proc.stderr.close()
        assert integrity(store_path) == "ok"
        check_all_present(Store(store_path), committed)
    store = Store(store_path)
    key = f"file:{log}"
    sched = store.get_schedule(key)
    assert sched is not None, "the ladder (schedule) is gone after the kills"
    assert sched["interval"] in (5, 10, 20, 30, 60) and sched["rung"] in (-1, 0, 1, 2, 3)
    assert store.get_assessment(sched["assessment_id"]) is not None  # it points at a stored assessment
    # restart: a clean worker finishes its loops and the cache equals one undisturbed read of the whole log
    proc = start_worker(store_path, log, "after", 2, tc_home)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err[-2000:]
    committed += out.split("\n")[:-1]
    check_all_present(store, committed)
    src = open_path_source(LocalFileSystem(), str(log))
    assert as_points(store.load_source(src.source_id).batch) == as_points(src.read(None).batch)
    assert store.get_schedule(key) is not None
    assert integrity(store_path) == "ok"


def test_two_processes_writing_one_store_lose_nothing(tmp_path, tc_home):
    store_path = tc_home / "state.db"
    Store(store_path)
    logs = [tmp_path / "a" / "train.log", tmp_path / "b" / "train.log"]
    for p in logs:
        p.parent.mkdir()
    procs = [start_worker(store_path, p, p.parent.name, 6, tc_home) for p in logs]
    outs = []
    for proc in procs:
        out, err = proc.communicate(timeout=150)
        assert proc.returncode == 0, err[-2000:]
        outs += out.split("\n")[:-1]
    assert len(outs) == 12
    store = Store(store_path)
    check_all_present(store, outs)
    for p in logs:
        assert len(store.recent_assessments(f"file:{p}", 50)) == 6
        src = open_path_source(LocalFileSystem(), str(p))
        assert as_points(store.load_source(src.source_id).batch) == as_points(src.read(None).batch)
    assert integrity(store_path) == "ok"


def test_two_processes_reading_the_same_source_duplicate_nothing(tmp_path, tc_home):
    """Both processes race on one log's cursor: the compare-and-set cursor keeps one copy of each point."""
    store_path = tc_home / "state.db"
    Store(store_path)
    log = tmp_path / "train.log"
    log.write_text("".join(f"step={s} loss={1.0 / (s + 1):.6f}\n" for s in range(5000)))
    reader = (r"import sys; from training_check.tools.reading import load_run; "
              r"from training_check.tools.config import load_config; from training_check.tools.store import Store; "
              r"s = Store(sys.argv[1]); [load_run(sys.argv[2], store=s, config=load_config()) for _ in range(15)]")
    env = {**os.environ, "TRAINING_CHECK_HOME": str(tc_home)}
    procs = [subprocess.Popen([sys.executable, "-c", reader, str(store_path), str(log)], env=env,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    # the log grows while both read
    for k in range(10):
        with open(log, "a") as f:
            f.write("".join(f"step={s} loss={1.0 / (s + 1):.6f}\n" for s in range(5000 + k * 100, 5100 + k * 100)))
        time.sleep(0.05)
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err[-2000:]
    store = Store(store_path)
    from training_check.tools.config import load_config
    from training_check.tools.reading import load_run

    load_run(str(log), store=store, config=load_config())
    src = open_path_source(LocalFileSystem(), str(log))
    got = as_points(store.load_source(src.source_id).batch)
    assert got == as_points(src.read(None).batch)
    assert len(got["loss"]) == 6000
