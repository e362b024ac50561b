"""The state store: one embedded SQLite file (WAL) shared by every server process.

Holds each source's read cursor and a cache of the points already read (so a
check reads only what is new), the assessments, reviews, schedules and
evidence. Every record is written redacted (``_record``, ``_text``): no secret
reaches the file, its WAL or a dump. Each thread using a Store has its own connection (opened on first use,
kept while the Store lives: a connection closed is a WAL checkpoint paid), so the
store is safe to use from the worker threads MCP runs synchronous tools in, and
from several processes.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import secrets
import shutil
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import StoreError
from .points import PointBatch
from .redact import redact, redact_json

log = logging.getLogger("training_check.store")

# Each entry migrates the schema from version i to i + 1. Never edit a shipped entry: append.
MIGRATIONS: list[str] = [
    # v1: read cursors, the point cache, assessments
    """
    CREATE TABLE sources (
        source_id TEXT PRIMARY KEY,
        run_key TEXT NOT NULL,
        cursor TEXT,
        info TEXT,
        n_points INTEGER NOT NULL DEFAULT 0,
        last_step INTEGER,
        updated_at REAL NOT NULL
    );
    CREATE TABLE chunks (
        source_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        n_points INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (source_id, seq)
    );
    CREATE TABLE assessments (
        id TEXT PRIMARY KEY,
        run_key TEXT NOT NULL,
        created_at REAL NOT NULL,
        step INTEGER,
        verdict TEXT NOT NULL,
        payload TEXT NOT NULL
    );
    CREATE INDEX assessments_run ON assessments (run_key, created_at);
    """,
    # v2: reviews, schedules, evidence
    """
    CREATE TABLE reviews (
        id TEXT PRIMARY KEY,
        run_key TEXT NOT NULL,
        assessment_id TEXT,
        created_at REAL NOT NULL,
        model TEXT,
        prompt_hash TEXT,
        decision TEXT NOT NULL,
        reason TEXT,
        payload TEXT NOT NULL
    );
    CREATE INDEX reviews_run ON reviews (run_key, created_at);
    CREATE TABLE schedules (
        run_key TEXT PRIMARY KEY,
        payload TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE evidence (
        id TEXT PRIMARY KEY,
        run_key TEXT NOT NULL,
        created_at REAL NOT NULL,
        path TEXT,
        payload TEXT NOT NULL
    );
    CREATE INDEX evidence_run ON evidence (run_key, created_at);
    """,
    # v3: each source's bounded history (tools/history.py), kept beside the raw points so a check reads only it
    """
    CREATE TABLE summaries (
        source_id TEXT PRIMARY KEY,
        data BLOB NOT NULL
    );
    """,
    # v4: sweeps (tools/sweep): each sweep's memory between checks, each run's latest relative judgement
    """
    CREATE TABLE sweeps (
        sweep_key TEXT PRIMARY KEY,
        payload TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE sweep_judgements (
        id TEXT PRIMARY KEY,
        sweep_key TEXT NOT NULL,
        run_key TEXT NOT NULL,
        created_at REAL NOT NULL,
        recommend TEXT NOT NULL,
        payload TEXT NOT NULL
    );
    CREATE INDEX sweep_judgements_run ON sweep_judgements (run_key, created_at);
    """,
    # v5: a steady run's sweep curves (tools/recheck.py): what a sweep compares, kept while its judgement stands
    """
    CREATE TABLE steady_curves (
        source_id TEXT PRIMARY KEY,
        key TEXT NOT NULL,
        data BLOB NOT NULL
    );
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)
COMPACT_LOOKBACK = 64  # newest chunks a compaction looks at (a binary counter of 1M-point chunks needs about 20)
CHUNK_POINTS = 1 << 20  # points per stored chunk at most (a long first read is split: SQLite caps a blob near 1 GB)


class _Damaged(StoreError):
    """The database file is not a database, or is malformed: moved aside when the store is opened."""

    def __init__(self, reason: str):
        super().__init__(f"the store is damaged ({reason})")
        self.reason = reason


def _is_damage(e: sqlite3.Error) -> bool:
    text = str(e).lower()
    return "not a database" in text or "malformed" in text or "file is encrypted" in text


def _is_full(e: sqlite3.Error) -> bool:
    text = str(e).lower()
    return "full" in text or getattr(e, "sqlite_errorcode", None) == 13 or "file too large" in text


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(6)}"


@dataclass
class CachedSource:
    cursor: dict | None = None
    batch: PointBatch = field(default_factory=PointBatch)
    info: dict = field(default_factory=dict)
    updated_at: float | None = None


@dataclass
class CachedSummary:
    """A source's cursor and bounded history, without its raw points."""

    cursor: dict | None = None
    info: dict = field(default_factory=dict)
    history: bytes | None = None
    n_points: int = 0
    known: bool = False  # the source has been read before


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), default=str, allow_nan=True)


def _record(obj: Any) -> str:
    """A record's JSON with every secret redacted (``tools/redact.py``, which also finds a value in its JSON-escaped
    forms): the one way an assessment, review, schedule or evidence record (or a source's info) is written."""
    return redact_json(_dumps(obj))


def _text(value: str | None) -> str | None:
    """A record's text column (run key, reason, model, path), redacted like its JSON."""
    return None if value is None else redact(value)


class Store:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.warnings: list[str] = []
        self._local = threading.local()  # this thread's connection, and the path it is to
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as e:
            if e.errno not in (errno.EROFS, errno.EACCES, errno.EPERM) or not self._use_temporary_copy(e):
                raise StoreError(f"cannot create the store folder {self.path.parent}: {e.strerror}; "
                                 f"set TRAINING_CHECK_HOME to a writable folder") from None
        if not self._writable() and not self._use_temporary_copy(None):
            raise StoreError(f"the store folder {self.path.parent} is not writable; set TRAINING_CHECK_HOME to a "
                             f"writable folder")
        if self.path.exists() and self.path.stat().st_size == 0 and not Path(f"{self.path}-wal").exists():
            self._warn(f"the store {self.path} was empty (truncated?): starting a new one; earlier assessments, "
                       f"reviews and schedules are not in it")
        try:
            self.migrate()
        except _Damaged as e:
            self._move_aside(e.reason)
            self.migrate()
        self._private_files()

    # -- opening: damaged, read-only, permissions ------------------------------------------
    def _warn(self, text: str) -> None:
        self.warnings.append(text)
        log.warning("%s", text)

    def _writable(self) -> bool:
        folder = self.path.parent
        try:
            probe = folder / f".write-probe-{os.getpid()}-{secrets.token_hex(3)}"
            probe.touch(mode=0o600)
            probe.unlink()
            return not self.path.exists() or os.access(self.path, os.W_OK)
        except OSError:
            return False

    def _use_temporary_copy(self, err: OSError | None) -> bool:
        """A read-only home: work on a private temporary copy (reads work; nothing is kept)."""
        tmp = Path(tempfile.mkdtemp(prefix="training-check-store-"))
        copy = tmp / self.path.name
        try:
            for suffix in ("", "-wal"):
                src = Path(f"{self.path}{suffix}")
                if src.is_file():
                    shutil.copyfile(src, f"{copy}{suffix}")
        except OSError:
            pass
        why = err.strerror if err is not None else "not writable"
        self._warn(f"the store folder {self.path.parent} is read-only ({why}): using a temporary copy at {copy}; "
                   f"nothing recorded now will be kept (set TRAINING_CHECK_HOME to a writable folder)")
        self.path = copy
        return True

    def _move_aside(self, reason: str) -> None:
        self._drop()
        stamp = time.strftime("%Y%m%dT%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{secrets.token_hex(2)}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(f"{self.path}{suffix}")
            if src.exists():
                try:
                    src.rename(f"{aside}{suffix}")
                except OSError as e:
                    raise StoreError(f"the store {self.path} is damaged ({reason}) and cannot be moved aside: "
                                     f"{e.strerror}; move or delete it") from None
        self._warn(f"the store {self.path} was damaged ({reason}): moved aside to {aside}, starting a new one")

    def _private_files(self) -> None:
        for f in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm")):
            try:
                if f.exists() and f.stat().st_mode & 0o077:
                    os.chmod(f, 0o600)
            except OSError:
                pass

    # -- connections ------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is not None and self._local.path == self.path:
            return conn
        self._drop()
        conn = self._open()
        self._local.conn, self._local.path = conn, self.path
        return conn

    def _drop(self) -> None:
        """Close this thread's connection (after an error, or before the file is moved)."""
        conn = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            try:
                conn.close()
            except sqlite3.Error:
                pass

    def _open(self) -> sqlite3.Connection:
        try:
            if not self.path.exists():  # 0600; SQLite gives the WAL and shm files the database file's mode
                os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600))
        except OSError:
            pass  # connect reports what is wrong
        try:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            conn.execute("PRAGMA busy_timeout=30000")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            return conn
        except sqlite3.DatabaseError as e:
            if _is_damage(e):
                raise _Damaged(str(e)) from None
            raise self._open_error(e) from None
        except sqlite3.Error as e:
            raise self._open_error(e) from None

    def _disk_full(self) -> bool:
        try:
            st = os.statvfs(self.path.parent)
        except OSError:
            return False
        return st.f_bavail * st.f_frsize < 256 * 1024

    def _open_error(self, e: sqlite3.Error) -> StoreError:
        if _is_full(e) or self._disk_full():
            return StoreError(f"cannot open the store {self.path}: the disk is full ({e}); nothing was changed; "
                              f"free disk space")
        return StoreError(f"cannot open the store {self.path}: {e}; check the file and TRAINING_CHECK_HOME")

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        conn = self._connect()
        try:
            yield conn
        except sqlite3.Error as e:
            self._drop()
            raise StoreError(f"store read failed ({self.path}): {e}") from None

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One atomic write transaction (BEGIN IMMEDIATE: writers queue instead of failing). Callers make their
        blobs and JSON before it: a transaction holds every other writer of the file."""
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:  # SQLite already rolled back after a full disk: keep the first error
                    try:
                        conn.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                raise
        except sqlite3.DatabaseError as e:
            self._drop()
            if _is_damage(e) and not _is_full(e):
                raise _Damaged(str(e)) from None
            raise self._write_error(e) from None
        except sqlite3.Error as e:
            self._drop()
            raise self._write_error(e) from None
        except BaseException:
            if conn.in_transaction:  # never leave this thread's connection inside a transaction
                self._drop()
            raise

    def _write_error(self, e: sqlite3.Error) -> StoreError:
        if _is_full(e) or self._disk_full():
            return StoreError(f"store write failed ({self.path}): the disk is full ({e}); nothing was changed; "
                              f"free disk space")
        return StoreError(f"store write failed ({self.path}): {e}; nothing was changed; check the file and "
                          f"TRAINING_CHECK_HOME")

    def migrate(self) -> int:
        """Bring the file to SCHEMA_VERSION, from any earlier version; returns the version found."""
        try:  # the usual case, a store already at this version: no write transaction
            row = self._connect().execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            if row and int(row[0]) == SCHEMA_VERSION:
                return SCHEMA_VERSION
        except (sqlite3.Error, ValueError):
            self._drop()  # no meta table yet, or damage: the write below creates it or says what is wrong
        with self._write() as c:
            c.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            row = c.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            found = int(row[0]) if row else 0
            if found > SCHEMA_VERSION:
                raise StoreError(f"the store {self.path} has schema version {found}, newer than this "
                                 f"training-check ({SCHEMA_VERSION}): upgrade training-check")
            for version in range(found, SCHEMA_VERSION):
                for stmt in MIGRATIONS[version].split(";"):
                    if stmt.strip():
                        c.execute(stmt)
            c.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        return found

    def schema_version(self) -> int:
        with self._read() as c:
            return int(c.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0])

    # -- cursors and the point cache ------------------------------------------------------
    def load_source(self, source_id: str) -> CachedSource:
        with self._read() as c:
            row = c.execute("SELECT cursor, info, updated_at FROM sources WHERE source_id=?", (source_id,)).fetchone()
            if not row:
                return CachedSource()
            blobs = [r[0] for r in c.execute("SELECT data FROM chunks WHERE source_id=? ORDER BY seq", (source_id,))]
        batch = PointBatch.concat([PointBatch.from_bytes(b) for b in blobs]) if blobs else PointBatch()
        return CachedSource(json.loads(row[0]) if row[0] else None, batch, json.loads(row[1] or "{}"), row[2])

    def source_state(self, source_id: str) -> tuple[str, int] | None:
        """The source's stored cursor (as stored) and point count, without its history: what says whether two
        checks read the same points."""
        with self._read() as c:
            row = c.execute("SELECT cursor, n_points FROM sources WHERE source_id=?", (source_id,)).fetchone()
        return (str(row[0] or ""), int(row[1])) if row else None

    def load_summary(self, source_id: str) -> CachedSummary:
        with self._read() as c:
            row = c.execute("SELECT cursor, info, n_points FROM sources WHERE source_id=?", (source_id,)).fetchone()
            if not row:
                return CachedSummary()
            hist = c.execute("SELECT data FROM summaries WHERE source_id=?", (source_id,)).fetchone()
        return CachedSummary(json.loads(row[0]) if row[0] else None, json.loads(row[1] or "{}"),
                             bytes(hist[0]) if hist else None, int(row[2]), True)

    def save_read(self, source_id: str, run_key: str, expected_cursor: dict | None, new_cursor: dict,
                  batch: PointBatch, *, reset: bool = False, info: dict | None = None,
                  history: bytes | None = None) -> bool:
        """Append ``batch`` and move the cursor, atomically, only if the cursor is still ``expected_cursor``.

        Returns False (and changes nothing) when another process moved the cursor
        first: the caller then reloads the cache, which already holds those points.
        """
        pieces = [(piece.n_points, piece.to_bytes()) for piece in _pieces(batch)] if not batch.is_empty() else []
        cursor_text, info_text, key_text = _dumps(new_cursor), _record(info) if info else None, _text(run_key)
        last = batch.max_step()
        with self._write() as c:  # what is computed is computed before: the transaction holds the file's writers
            row = c.execute("SELECT cursor, n_points FROM sources WHERE source_id=?", (source_id,)).fetchone()
            current = json.loads(row[0]) if row and row[0] else None
            if current != expected_cursor:
                return False
            if reset:
                c.execute("DELETE FROM chunks WHERE source_id=?", (source_id,))
            n_before = 0 if (reset or not row) else int(row[1])
            if pieces:
                seq = c.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM chunks WHERE source_id=?",
                                (source_id,)).fetchone()[0]
                for n_points, blob in pieces:
                    c.execute("INSERT INTO chunks (source_id, seq, n_points, data) VALUES (?, ?, ?, ?)",
                              (source_id, seq, n_points, blob))
                    seq += 1
            if history is not None:  # None: the stored history stands (nothing new)
                c.execute("INSERT OR REPLACE INTO summaries (source_id, data) VALUES (?, ?)", (source_id, history))
            elif reset:
                c.execute("DELETE FROM summaries WHERE source_id=?", (source_id,))
            c.execute(
                "INSERT INTO sources (source_id, run_key, cursor, info, n_points, last_step, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(source_id) DO UPDATE SET cursor=excluded.cursor, "
                "info=COALESCE(excluded.info, sources.info), n_points=excluded.n_points, "
                "last_step=COALESCE(excluded.last_step, sources.last_step), updated_at=excluded.updated_at",
                (source_id, key_text, cursor_text, info_text, n_before + batch.n_points, last, time.time()),
            )
            if not batch.is_empty():
                self._compact(c, source_id)
        return True

    @staticmethod
    def _compact(c: sqlite3.Connection, source_id: str) -> None:
        """Merge the newest chunks as a binary counter carries: the newest ones become one while the chunk before
        them is under twice their size (and the result within CHUNK_POINTS). The small chunks stay few (about log2
        of CHUNK_POINTS over a check's points) and a point is rewritten about that many times in its life, never
        at every check: compaction costs what is new."""
        rows = c.execute("SELECT seq, n_points FROM chunks WHERE source_id=? ORDER BY seq DESC LIMIT ?",
                         (source_id, COMPACT_LOOKBACK)).fetchall()
        k, total = 1, rows[0][1] if rows else 0
        while k < len(rows) and rows[k][1] < 2 * total and total + rows[k][1] <= CHUNK_POINTS:
            total += rows[k][1]
            k += 1
        if k < 2:
            return
        first = rows[k - 1][0]
        blobs = [r[0] for r in c.execute("SELECT data FROM chunks WHERE source_id=? AND seq>=? ORDER BY seq",
                                         (source_id, first))]
        merged = PointBatch.concat([PointBatch.from_bytes(b) for b in blobs])
        c.execute("DELETE FROM chunks WHERE source_id=? AND seq>=?", (source_id, first))
        c.execute("INSERT INTO chunks (source_id, seq, n_points, data) VALUES (?, ?, ?, ?)",
                  (source_id, first, merged.n_points, merged.to_bytes()))

    # -- records (assessments, reviews, evidence) -----------------------------------------
    def add_assessment(self, run_key: str, verdict: str, step: int | None, payload: dict,
                       assessment_id: str | None = None) -> str:
        aid = assessment_id or new_id("asm")
        run_key = redact(run_key)
        text = _record({**payload, "assessment_id": aid, "run_key": run_key})
        with self._write() as c:
            c.execute("INSERT INTO assessments (id, run_key, created_at, step, verdict, payload) VALUES (?,?,?,?,?,?)",
                      (aid, run_key, time.time(), step, verdict, text))
        return aid

    def add_assessments(self, rows: list[tuple[str, str, str, int | None, dict]]) -> None:
        """Several assessments ``(assessment_id, run_key, verdict, step, payload)`` in one transaction (a many-run
        check's judgements that stand, stored again as its own)."""
        now = time.time()
        values = []
        for aid, run_key, verdict, step, payload in rows:
            run_key = redact(run_key)
            values.append((aid, run_key, now, step, verdict,
                           _record({**payload, "assessment_id": aid, "run_key": run_key})))
        if not values:
            return
        with self._write() as c:
            c.executemany("INSERT INTO assessments (id, run_key, created_at, step, verdict, payload) "
                          "VALUES (?,?,?,?,?,?)", values)

    def get_assessment(self, assessment_id: str) -> dict | None:
        with self._read() as c:
            row = c.execute("SELECT payload, created_at FROM assessments WHERE id=?", (assessment_id,)).fetchone()
        return {**json.loads(row[0]), "created_at": row[1]} if row else None

    def recent_assessments(self, run_key: str, limit: int = 20) -> list[dict]:
        """Newest first."""
        with self._read() as c:
            rows = c.execute("SELECT payload, created_at FROM assessments WHERE run_key=? "
                             "ORDER BY created_at DESC, rowid DESC LIMIT ?", (redact(run_key), limit)).fetchall()
        return [{**json.loads(p), "created_at": t} for p, t in rows]

    def add_review(self, run_key: str, assessment_id: str | None, model: str | None, prompt_hash: str | None,
                   decision: str, reason: str, payload: dict) -> str:
        rid = new_id("rev")
        run_key, model, reason = redact(run_key), _text(model), redact(reason)
        payload = {**payload, "review_id": rid, "run_key": run_key, "assessment_id": assessment_id,
                   "model": model, "prompt_hash": prompt_hash, "decision": decision, "reason": reason}
        with self._write() as c:
            c.execute("INSERT INTO reviews (id, run_key, assessment_id, created_at, model, prompt_hash, decision, "
                      "reason, payload) VALUES (?,?,?,?,?,?,?,?,?)",
                      (rid, run_key, assessment_id, time.time(), model, prompt_hash, decision, reason,
                       _record(payload)))
        return rid

    def get_review(self, review_id: str) -> dict | None:
        with self._read() as c:
            row = c.execute("SELECT payload, created_at FROM reviews WHERE id=?", (review_id,)).fetchone()
        return {**json.loads(row[0]), "created_at": row[1]} if row else None

    def recent_reviews(self, run_key: str, limit: int = 20) -> list[dict]:
        with self._read() as c:
            rows = c.execute("SELECT payload, created_at FROM reviews WHERE run_key=? "
                             "ORDER BY created_at DESC, rowid DESC LIMIT ?", (redact(run_key), limit)).fetchall()
        return [{**json.loads(p), "created_at": t} for p, t in rows]

    def get_schedule(self, run_key: str) -> dict | None:
        with self._read() as c:
            row = c.execute("SELECT payload FROM schedules WHERE run_key=?", (redact(run_key),)).fetchone()
        return json.loads(row[0]) if row else None

    def put_schedule(self, run_key: str, payload: dict) -> None:
        with self._write() as c:
            c.execute("INSERT INTO schedules (run_key, payload, updated_at) VALUES (?,?,?) ON CONFLICT(run_key) "
                      "DO UPDATE SET payload=excluded.payload, updated_at=excluded.updated_at",
                      (redact(run_key), _record(payload), time.time()))

    def add_evidence(self, run_key: str, path: str | None, payload: dict) -> str:
        eid = new_id("evd")
        with self._write() as c:
            c.execute("INSERT INTO evidence (id, run_key, created_at, path, payload) VALUES (?,?,?,?,?)",
                      (eid, redact(run_key), time.time(), _text(path), _record({**payload, "evidence_id": eid})))
        return eid

    def evidence_for(self, run_key: str, limit: int = 20) -> list[dict]:
        with self._read() as c:
            rows = c.execute("SELECT payload, created_at, path FROM evidence WHERE run_key=? "
                             "ORDER BY created_at DESC, rowid DESC LIMIT ?", (redact(run_key), limit)).fetchall()
        return [{**json.loads(p), "created_at": t, "path": path} for p, t, path in rows]

    # -- sweeps ------------------------------------------------------------------------------
    def get_sweep(self, sweep_key: str) -> dict | None:
        """The sweep's stored memory (tools/sweep/policy.SweepMemory as a dict) and what else was kept with it."""
        with self._read() as c:
            row = c.execute("SELECT payload FROM sweeps WHERE sweep_key=?", (redact(sweep_key),)).fetchone()
        return json.loads(row[0]) if row else None

    def put_sweep(self, sweep_key: str, payload: dict, judgements: list[tuple[str, str, dict]]) -> dict[str, str]:
        """Store the sweep's memory and, per run, its relative judgement ``(run_key, recommend, payload)``, in one
        transaction; returns each run key's judgement id."""
        now = time.time()
        ids: dict[str, str] = {}
        rows = []
        for run_key, recommend, data in judgements:
            jid = ids[run_key] = new_id("swp")
            rows.append((jid, _text(sweep_key), _text(run_key), now, recommend,
                         _record({**data, "judgement_id": jid, "sweep_key": sweep_key, "run_key": run_key})))
        text = _record(payload)  # a run's path or a reason may hold a secret: redacted like every record
        with self._write() as c:
            c.execute("INSERT INTO sweeps (sweep_key, payload, updated_at) VALUES (?,?,?) ON CONFLICT(sweep_key) "
                      "DO UPDATE SET payload=excluded.payload, updated_at=excluded.updated_at",
                      (_text(sweep_key), text, now))
            c.executemany("INSERT INTO sweep_judgements (id, sweep_key, run_key, created_at, recommend, payload) "
                          "VALUES (?,?,?,?,?,?)", rows)
        return ids

    def latest_sweep_judgement(self, run_key: str) -> dict | None:
        """The run's newest relative judgement in any sweep (what ``stop_run`` may act on when pruning is enabled)."""
        with self._read() as c:
            row = c.execute("SELECT payload, created_at FROM sweep_judgements WHERE run_key=? "
                            "ORDER BY created_at DESC, rowid DESC LIMIT 1", (redact(run_key),)).fetchone()
        return {**json.loads(row[0]), "created_at": row[1]} if row else None

    # -- a steady run's curves (tools/recheck.py) ----------------------------------------------
    def put_curves(self, source_id: str, key: str, data: bytes) -> None:
        """What a sweep compares of the source's run, for the judgement ``key`` names (one per source)."""
        with self._write() as c:
            c.execute("INSERT INTO steady_curves (source_id, key, data) VALUES (?,?,?) ON CONFLICT(source_id) "
                      "DO UPDATE SET key=excluded.key, data=excluded.data", (_text(source_id), key, data))

    def get_curves(self, source_id: str, key: str) -> bytes | None:
        """The source's curves stored for ``key``; None when none are, or they are for another judgement."""
        with self._read() as c:
            row = c.execute("SELECT data FROM steady_curves WHERE source_id=? AND key=?",
                            (_text(source_id), key)).fetchone()
        return bytes(row[0]) if row else None

    def run_keys(self) -> list[str]:
        with self._read() as c:
            keys = {r[0] for r in c.execute("SELECT run_key FROM assessments")}
            keys |= {r[0] for r in c.execute("SELECT run_key FROM sources")}
            keys |= {r[0] for r in c.execute("SELECT run_key FROM schedules")}
        return sorted(keys)


def _pieces(batch: PointBatch) -> Iterator[PointBatch]:
    """``batch`` in pieces of at most CHUNK_POINTS points (each key's points stay in order across the pieces)."""
    if batch.n_points <= CHUNK_POINTS:
        yield batch
        return
    from .points import Column

    for key, col in batch.columns.items():
        for a in range(0, len(col), CHUNK_POINTS):
            yield PointBatch({key: Column(col.steps[a:a + CHUNK_POINTS], col.values[a:a + CHUNK_POINTS])})

