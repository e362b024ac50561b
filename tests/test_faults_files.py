"""File faults through the whole read path (load_run + store): after each fault the cached metrics equal an
undisturbed read of the same content, nothing lost or duplicated, and records written before the fault remain.

Cases: log growing while read, half-written last line, truncated, rotated, replaced, a .wandb file still being
written / cut mid-record, and a full disk for the store (RLIMIT_FSIZE in a real subprocess: SQLite hits EFBIG).
"""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from training_check.tools.reading import load_run
from training_check.tools.sources import open_path_source
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.store import Store

from tests.helpers import as_points

FS = LocalFileSystem()


def lines(start: int, stop: int, scale: float = 1.0) -> bytes:
    return "".join(f"step={i} loss={scale * 5.0 / (i + 1) + 0.1:.6f} lr=0.0003\n" for i in range(start, stop)).encode()



def undisturbed(content: bytes, tmp: Path, name: str = "reference.log") -> dict:
    """The points one fresh read of ``content`` gives."""
    ref = tmp / "undisturbed"
    ref.mkdir(exist_ok=True)
    p = ref / name
    p.write_bytes(content)
    return as_points(open_path_source(FS, str(p)).read(None).batch)


def cached(store: Store, path: Path) -> dict:
    return as_points(store.load_source(f"log:{path}").batch)


def assert_consistent(store: Store) -> None:
    with sqlite3.connect(store.path) as c:
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for sid, n in c.execute("SELECT source_id, n_points FROM sources"):
            stored = sum(r[0] for r in c.execute("SELECT n_points FROM chunks WHERE source_id=?", (sid,)))
            assert stored == n, f"{sid}: sources.n_points={n} but chunks hold {stored}"


@pytest.fixture
def prior(store):
    """An assessment recorded before the fault: it must survive."""
    return store.add_assessment("file:/before/fault", "CONTINUE", 10, {"verdict": "CONTINUE", "note": "before"})


def survived(store: Store, prior_id: str) -> None:
    got = store.get_assessment(prior_id)
    assert got is not None and got.get("note") == "before"
    assert_consistent(store)


def test_fault_log_growing_while_read(tmp_path, store, config, prior):
    full = lines(0, 3000)
    p = tmp_path / "train.log"
    p.write_bytes(b"")
    cuts = [0, 5, 4096, 4097, 20000, 20001, len(full) // 2, len(full) - 7, len(full)]
    for a, b in itertools.pairwise(cuts):
        with open(p, "ab") as f:
            f.write(full[a:b])
        load_run(str(p), store=store, config=config)  # even 5 bytes ("step=", no whole line yet) read cleanly
    assert cached(store, p) == undisturbed(full, tmp_path)
    assert len(cached(store, p)["loss"]) == 3000
    survived(store, prior)


def test_fault_half_written_last_line(tmp_path, store, config, prior):
    full = lines(0, 500)
    p = tmp_path / "train.log"
    cut = full.rfind(b"loss=", 0, len(full) - 5)  # inside the last line, after its step
    p.write_bytes(full[:cut])
    d1 = load_run(str(p), store=store, config=config)
    assert d1.frame.last_step == 498  # the partial line "step=499 " is not read as a point
    assert 499 not in [s for s, _ in cached(store, p)["loss"]]
    with open(p, "ab") as f:
        f.write(full[cut:])
    d2 = load_run(str(p), store=store, config=config)
    assert d2.new_points == 2 and d2.frame.last_step == 499  # the last line's loss and lr
    assert cached(store, p) == undisturbed(full, tmp_path)
    survived(store, prior)


def test_fault_log_truncated_and_restarted(tmp_path, store, config, prior):
    p = tmp_path / "train.log"
    p.write_bytes(lines(0, 800))
    load_run(str(p), store=store, config=config)
    restarted = lines(0, 120, scale=2.0)  # the job restarted and truncated its log (`>` instead of `>>`)
    with open(p, "r+b") as f:
        f.truncate(0)
        f.write(restarted)
    d = load_run(str(p), store=store, config=config)
    assert d.frame.last_step == 119
    assert cached(store, p) == undisturbed(restarted, tmp_path)
    survived(store, prior)


def test_fault_log_rotated(tmp_path, store, config, prior):
    p = tmp_path / "train.log"
    p.write_bytes(lines(0, 300))
    load_run(str(p), store=store, config=config)
    with open(p, "ab") as f:  # written after our read but before rotation: must not be lost
        f.write(lines(300, 400))
    os.rename(p, tmp_path / "train.log.1")
    p.write_bytes(lines(400, 650))
    d = load_run(str(p), store=store, config=config)
    assert d.frame.last_step == 649
    assert cached(store, p) == undisturbed(lines(0, 650), tmp_path)
    survived(store, prior)


def test_fault_log_replaced(tmp_path, store, config, prior):
    p = tmp_path / "train.log"
    p.write_bytes(lines(0, 400))
    load_run(str(p), store=store, config=config)
    other = lines(0, 400, scale=3.0)  # same size, different content: a new file put in place
    tmp = tmp_path / "train.log.tmp"
    tmp.write_bytes(other)
    os.replace(tmp, p)
    load_run(str(p), store=store, config=config)
    assert cached(store, p) == undisturbed(other, tmp_path)
    survived(store, prior)


def test_fault_incremental_equals_one_read_after_every_fault_in_sequence(tmp_path, store, config, prior):
    """Growing, half line, rotation in one run's life: the cache equals one read of everything ever written."""
    p = tmp_path / "train.log"
    written = b""

    def append(data: bytes) -> None:
        nonlocal written
        with open(p, "ab") as f:
            f.write(data)
        written += data

    append(lines(0, 100))
    load_run(str(p), store=store, config=config)
    chunk = lines(100, 200)
    append(chunk[:37])
    load_run(str(p), store=store, config=config)
    append(chunk[37:])
    load_run(str(p), store=store, config=config)
    os.rename(p, tmp_path / "train.log.1")
    append(lines(200, 260))
    load_run(str(p), store=store, config=config)
    assert cached(store, p) == undisturbed(written, tmp_path)


# -- .wandb still being written / cut mid-record ------------------------------------------------------------------

@pytest.fixture(scope="module")
def wandb_run(tmp_path_factory):
    from tests.wandb_runs import wandb_file, write_offline_run

    rows = [{"loss": 4.0 / (i + 1) + 0.05, "lr": 3e-4, "acc": i / 400} for i in range(400)]
    run_dir = write_offline_run(tmp_path_factory.mktemp("wandb-fault"), rows, name="fault-run")
    return wandb_file(run_dir)


def test_fault_wandb_cut_mid_record_then_completed(wandb_run, tmp_path, store, config, prior):
    data = wandb_run.read_bytes()
    full = as_points(open_path_source(FS, str(wandb_run)).read(None).batch)
    assert len(full["loss"]) == 400
    for frac in (0.31, 0.57, 0.83):
        grow = tmp_path / f"cut-{frac}" / "run-x.wandb"
        grow.parent.mkdir()
        cut = int(len(data) * frac)
        grow.write_bytes(data[:cut])  # the writer is mid-record
        first = load_run(str(grow), store=store, config=config)
        with open(grow, "ab") as f:
            f.write(data[cut:])
        load_run(str(grow), store=store, config=config)
        got = as_points(store.load_source(open_path_source(FS, str(grow)).source_id).batch)
        assert got == full, f"cut at {frac}"
        assert first.frame.last_step is None or first.frame.last_step < 399
    survived(store, prior)


def test_fault_wandb_cut_forever_gives_the_complete_records_only(wandb_run, tmp_path, store, config):
    data = wandb_run.read_bytes()
    grow = tmp_path / "run-cut.wandb"
    grow.write_bytes(data[: len(data) // 2 + 13])
    d = load_run(str(grow), store=store, config=config)
    full = as_points(open_path_source(FS, str(wandb_run)).read(None).batch)
    n = len(as_points(store.load_source(open_path_source(FS, str(grow)).source_id).batch)["loss"])
    assert 0 < n < 400
    assert as_points(store.load_source(open_path_source(FS, str(grow)).source_id).batch)["loss"] == full["loss"][:n]
    assert d.frame.last_step == n - 1


# -- full disk for the store --------------------------------------------------------------------------------------

_CHILD = r"""
import resource, signal, sys, json
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG instead of killing us
limit = int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from training_check.tools.config import load_config
from training_check.tools.errors import TrainingCheckError
from training_check.tools.reading import load_run
from training_check.tools.store import Store
config = load_config()
try:
    d = load_run(sys.argv[2], store=Store(sys.argv[1]), config=config)
    print(json.dumps({"ok": True, "new": d.new_points}))
except TrainingCheckError as e:
    print(json.dumps({"ok": False, "type": type(e).__name__, "message": str(e)}))
"""


def test_fault_store_disk_full(tmp_path, tc_home, store, config, prior):
    p = tmp_path / "train.log"
    p.write_bytes(lines(0, 200))
    load_run(str(p), store=store, config=config)
    before = cached(store, p)
    with open(p, "ab") as f:  # a big append: its cache chunk cannot fit in what is left of the "disk"
        f.write(lines(200, 60000))
    size = max(os.path.getsize(store.path), os.path.getsize(str(store.path) + "-wal")
               if os.path.exists(str(store.path) + "-wal") else 0)
    env = {**os.environ, "TRAINING_CHECK_HOME": str(tc_home)}
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(store.path), str(p), str(size + 8192)],
                          capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["ok"] is False and out["type"] == "StoreError", out
    # RLIMIT_FSIZE makes the write fail with EFBIG, which SQLite reports as an I/O error (not SQLITE_FULL)
    assert out["message"] == (f"store write failed ({store.path}): disk I/O error; nothing was changed; check the file "
                              f"and TRAINING_CHECK_HOME")
    assert "Traceback" not in proc.stderr
    # nothing half-written: the cache and the cursor are as before the failed write
    assert cached(store, p) == before
    survived(store, prior)
    # space comes back: the next read picks up exactly what was missed
    load_run(str(p), store=store, config=config)
    assert cached(store, p) == undisturbed(lines(0, 60000), tmp_path)
    assert_consistent(store)
