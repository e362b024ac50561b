"""Does reading a live MLflow sqlite store make the run's own logging wait or fail?

A REAL MLflow run (a separate process, ``mlflow.log_metric`` every 10 ms into ``mlflow.db``) logs for
``--seconds`` (60 by default) while this process checks it (``assess_run`` on the db) every second; then the same
writer alone (the baseline). Both for the journal mode MLflow uses by default (rollback, ``delete``) and for WAL.
Prints, per case: the logging calls made and how many failed (must be 0), the writer's longest wait in one logging
call and its 99th percentile (goal: at most 50 ms, next to the baseline's), the checks made and their median time.

    python bench/mlflow_contention.py [--seconds 60] [--modes delete,wal]

Needs ``mlflow`` (the ``test`` extra). Run it on an otherwise quiet machine: the writer's longest call also
measures the machine's own hiccups (the baseline shows them).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WRITER = r"""
import json, math, os, sys, time
import mlflow
db, seconds, every = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
mlflow.set_tracking_uri(f"sqlite:///{db}")
mlflow.set_experiment("contention")
with mlflow.start_run(run_name="writer") as run:
    mlflow.log_metric("train_loss", 5.0, step=0)  # warm: the engine and its first statements
    print("READY", run.info.run_id, flush=True)
    sys.stdin.readline()  # go
    waits, failures, first_error = [], 0, None
    start = time.perf_counter()
    step = 1
    while time.perf_counter() - start < seconds:
        t0 = time.perf_counter()
        try:
            mlflow.log_metric("train_loss", 5.0 * math.exp(-step / 2000) + 0.01 * math.sin(step), step=step)
        except Exception as e:  # "database is locked" would land here
            failures += 1
            first_error = first_error or " ".join(str(e).split())[:200]
        dt = time.perf_counter() - t0
        waits.append(dt)
        step += 1
        rest = every - dt
        if rest > 0:
            time.sleep(rest)
print(json.dumps({"calls": len(waits), "failures": failures, "first_error": first_error, "waits": waits}), flush=True)
"""


def make_store(folder: Path, mode: str) -> Path:
    """A fresh mlflow.db made by MLflow itself (its schema migrations), in ``mode``."""
    db = folder / "mlflow.db"
    code = ("import mlflow, sys; mlflow.set_tracking_uri(f'sqlite:///{sys.argv[1]}'); "
            "mlflow.set_experiment('contention')")
    subprocess.run([sys.executable, "-c", code, str(db)], check=True, capture_output=True)
    con = sqlite3.connect(db)
    got = con.execute(f"PRAGMA journal_mode={mode}").fetchone()[0]
    con.close()
    if got.lower() != mode:
        raise SystemExit(f"could not set journal mode {mode} (got {got})")
    return db


STATEMENTS: list[float] = []  # how long each statement read under sqlite's locks ran: the longest a writer waits on it
LOCK_FREE: list[int] = []  # connections that read lock-free (immutable: no lock, the writer never waits on them)


class _TimedConnection:
    """A read connection whose statements are timed from start to their last row (a statement refused while the
    writer commits is not counted: it held nothing)."""

    def __init__(self, con: sqlite3.Connection):
        self._con = con

    def execute(self, sql: str, args: tuple = ()) -> _TimedCursor:
        t0 = time.perf_counter()
        return _TimedCursor(self._con.execute(sql, args), t0)

    def close(self) -> None:
        self._con.close()


class _TimedCursor:
    def __init__(self, cur: sqlite3.Cursor, t0: float):
        self._cur, self._t0 = cur, t0

    def fetchall(self) -> list:
        rows = self._cur.fetchall()
        STATEMENTS.append(time.perf_counter() - self._t0)
        return rows

    def close(self) -> None:
        self._cur.close()


def _timed_statements() -> None:
    """Time each read statement: its read lock lasts no longer, so a writer's commit waits no longer on it."""
    from training_check.tools.sources import mlflow_sqlite

    plain = mlflow_sqlite._Reader.__init__

    def init(self, path: str, optimistic: bool) -> None:
        plain(self, path, optimistic)
        if self.immutable:
            LOCK_FREE.append(1)
        else:
            self.con = _TimedConnection(self.con)

    mlflow_sqlite._Reader.__init__ = init


def one_case(mode: str, seconds: float, with_reader: bool, every: float) -> dict:
    from training_check.tools.assess import assess_run
    from training_check.tools.config import load_config
    from training_check.tools.store import Store

    STATEMENTS.clear()
    LOCK_FREE.clear()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db = make_store(folder, mode)
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(seconds), str(every)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert writer.stdin is not None and writer.stdout is not None
        ready = writer.stdout.readline()
        if not ready.startswith("READY"):
            raise SystemExit(f"the writer did not start: {ready!r} {writer.stderr.read() if writer.stderr else ''}")
        env = {**os.environ, "TRAINING_CHECK_HOME": str(folder / "home")}
        config = load_config(cwd=tmp, env=env)
        store = Store(config.store_path)
        checks: list[float] = []
        verdicts: dict[str, int] = {}
        check_errors: list[str] = []
        writer.stdin.write("go\n")
        writer.stdin.flush()
        start = time.perf_counter()
        while with_reader and time.perf_counter() - start < seconds:
            t0 = time.perf_counter()
            try:
                a = assess_run(str(db), store=store, config=config)
                verdicts[a.verdict] = verdicts.get(a.verdict, 0) + 1
            except Exception as e:
                check_errors.append(" ".join(str(e).split())[:160])
            checks.append(time.perf_counter() - t0)
            time.sleep(max(0.0, 1.0 - (time.perf_counter() - t0)))
        out, err = writer.communicate(timeout=seconds + 120)
        last = out.strip().splitlines()[-1] if out.strip() else ""
        try:
            result = json.loads(last)
        except ValueError:
            raise SystemExit(f"the writer failed: {err[-2000:]}") from None
        waits = sorted(result["waits"])
        left = sorted(p.name for p in folder.iterdir() if p.name.startswith("mlflow.db") and p.name != "mlflow.db")
        return {
            "mode": mode, "reader": with_reader, "calls": result["calls"], "failures": result["failures"],
            "first_error": result["first_error"], "max_ms": 1000 * waits[-1],
            "p99_ms": 1000 * waits[int(0.99 * (len(waits) - 1))], "median_ms": 1000 * statistics.median(waits),
            "over_50ms": sum(w > 0.05 for w in waits), "checks": len(checks),
            "check_median_ms": 1000 * statistics.median(checks) if checks else None,
            "check_max_ms": 1000 * max(checks) if checks else None, "verdicts": verdicts,
            "check_errors": check_errors[:3], "files_left": left,
            "statements": len(STATEMENTS), "statement_max_ms": 1000 * max(STATEMENTS) if STATEMENTS else 0.0,
            "lock_free": len(LOCK_FREE),
        }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="how long each case logs (default 60)")
    ap.add_argument("--modes", default="delete,wal", help="journal modes to try (default delete,wal)")
    ap.add_argument("--every", type=float, default=0.010, help="seconds between logging calls (default 0.010)")
    args = ap.parse_args(argv)
    _timed_statements()
    rows = []
    for mode in [m.strip().lower() for m in args.modes.split(",") if m.strip()]:
        for with_reader in (True, False):
            r = one_case(mode, args.seconds, with_reader, args.every)
            rows.append(r)
            who = "checks every 1 s" if with_reader else "no reader (baseline)"
            print(f"{mode:6s} {who:22s} logging calls {r['calls']:6d}  failed {r['failures']}  "
                  f"writer's longest call {r['max_ms']:7.1f} ms  p99 {r['p99_ms']:6.1f} ms  median "
                  f"{r['median_ms']:5.1f} ms  calls over 50 ms {r['over_50ms']}"
                  + (f"  | checks {r['checks']} (median {r['check_median_ms']:.0f} ms, max "
                     f"{r['check_max_ms']:.0f} ms) {r['verdicts']}" if with_reader else ""), flush=True)
            if with_reader:
                why = ("in WAL mode a reader never makes the writer's commit wait" if mode == "wal"
                       else "a writer's commit waits on a reader no longer")
                print(f"       reader: {r['lock_free']} connections read lock-free; {r['statements']} statements under "
                      f"sqlite's locks, the longest {r['statement_max_ms']:.1f} ms ({why})")
            if r["first_error"]:
                print(f"       first logging error: {r['first_error']}")
            if r["check_errors"]:
                print(f"       check errors: {r['check_errors']}")
            print(f"       files beside mlflow.db after the case: {r['files_left'] or 'none'}")
    failed = sum(r["failures"] for r in rows)
    print(f"logging calls failed in all cases: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
