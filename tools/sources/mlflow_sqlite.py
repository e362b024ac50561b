"""An MLflow sqlite store (``mlflow.db``, what MLflow 3 writes by default), read-only, while the run writes it.

Read like a journal someone else is writing (SQLite's guidance for readers of a live database): the stdlib's
``sqlite3``, never a write, nothing held between checks, two statements a check. A rollback-journal reader's shared
lock is what makes the writer's commit wait (and MLflow fail with "database is locked" after its 20 s busy
timeout), so a check first reads without any lock: ``immutable`` while no ``-journal`` (``-wal``) file says a writer
is in a transaction, and the read stands only if afterwards there still is none and the file's change counter,
size and mtime are unchanged (a commit writes page 1, which holds the counter, first). After ``OPTIMISTIC_TRIES``
such tries a few ms apart (a writer busy all the time), or when a WAL writer has the database open (WAL readers
never make it wait), the read goes through sqlite's locks: ``mode=ro``, autocommit, rows in chunks of
``CHUNK_ROWS`` (a statement's shared lock lasts one chunk), a statement refused while the writer commits tried
again every ``POLL_S`` holding nothing. No file is ever created beside the store, but a WAL store's writer's
``-shm``, which a ``mode=ro`` reader uses.

Incremental: the cursor keeps the last ``rowid`` of the run's ``metrics`` rows that was read (rows are only
appended, so rowids grow) and that row; a check reads the rows after it through the ``(run_uuid)`` index. A
database replaced (another inode) or whose last-read row is not at its rowid any more (a VACUUM renumbers rowids)
is re-read from the start (``reset``).

The run: the one the reference names (``mlflow.db#<run_id>``), else the latest started active run, said in a note.
"""

from __future__ import annotations

import os
import sqlite3
import time
from urllib.parse import quote

from ..errors import BadInput, RunNotFound, SourceUnreachable, UnknownFormat
from ..points import BatchBuilder
from .base import Progress, ReadResult, RunInfo
from .files import FileSystem
from .mlflow_common import StepSequencer, chosen_note, config_subset, metric_value, run_state, total_steps_from_config

CURSOR_VERSION = 1
CHUNK_ROWS = 5000  # rows per statement: one short read transaction each
PART_ROWS = 2_000_000  # rows in one part of a long first read (stored before the next part is read)
BUSY_S = 10.0  # how long a statement waits for the writer's commits before giving up for this check
POLL_S = 0.003  # between tries while the writer commits: a short wait, so a busy writer does not starve the read
SQLITE_TIMEOUT_S = 0.02  # sqlite's own busy handler, before each of our tries
OPTIMISTIC_TRIES = 20  # lock-free reads tried (a few ms apart) before reading through sqlite's locks
MAX_PARAMS = 2000


def _fingerprint(path: str) -> tuple[int, int, int, bytes, bytes]:
    """What any write to the database file changes: inode, size, mtime, and the header's file change counter
    (bytes 24-27, incremented by every commit in rollback-journal mode, in page 1, which a commit writes first);
    with the header's format numbers (bytes 18-19: 1 rollback journal, 2 WAL)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        head = os.pread(fd, 28, 0)
    finally:
        os.close(fd)
    return st.st_ino, st.st_size, st.st_mtime_ns, head[24:28], head[18:20]


class _Reader:
    """One read's connection, short autocommit statements only.

    ``optimistic``: read ``immutable`` (no lock taken, no file created) when no writer is in a transaction: a WAL
    database with no ``-wal`` file, or a rollback-journal one with no ``-journal`` file (the writer's journal lives
    from its first change to its commit's end); the read stands only if, after it, still no journal is there and
    the fingerprint (change counter, size, mtime) is the same, so no commit (nor a spilled page) touched the file
    meanwhile. Otherwise (or not optimistic): ``mode=ro``, sqlite's own locking (a WAL reader uses the writer's
    ``-shm``; a rollback-journal reader's shared lock lasts one statement)."""

    def __init__(self, path: str, optimistic: bool):
        self.path = path
        self.before = _fingerprint(path)
        self.wal = self.before[4] == b"\x02\x02"
        journal = path + ("-wal" if self.wal else "-journal")
        self.journal = journal
        self.immutable = optimistic and not os.path.exists(journal)
        flags = "immutable=1" if self.immutable else "mode=ro"
        self.con = sqlite3.connect(f"file:{quote(path)}?{flags}", uri=True, timeout=SQLITE_TIMEOUT_S,
                                   isolation_level=None, check_same_thread=False)

    def rows(self, sql: str, args: tuple = ()) -> list[tuple]:
        """Every row of one statement (its read lock released when it returns); while the writer commits
        ("database is locked"), tried again every few ms for up to ``BUSY_S``: a reader waiting holds no lock."""
        deadline = time.monotonic() + BUSY_S
        while True:
            try:
                cur = self.con.execute(sql, args)
                try:
                    return cur.fetchall()  # the statement runs to its end: its read lock is released here
                finally:
                    cur.close()
            except sqlite3.OperationalError as e:
                low = str(e).lower()
                if ("locked" not in low and "busy" not in low) or time.monotonic() > deadline:
                    raise
                time.sleep(POLL_S)

    def stands(self) -> bool:
        """Whether what was read holds: always through sqlite's locks; an immutable read only if no writer began a
        transaction or touched the file meanwhile."""
        return not self.immutable or (not os.path.exists(self.journal) and _fingerprint(self.path) == self.before)

    def close(self) -> None:
        self.con.close()


def _error(e: Exception, where: str) -> Exception:
    text = " ".join(str(e).split())[:200]
    low = text.lower()
    if "locked" in low or "busy" in low:
        return SourceUnreachable(f"{where} was locked by its writer for over {BUSY_S:g} s; read again at the next "
                                 f"check")
    if "no such table" in low or "no such column" in low:
        return UnknownFormat(f"{where} is an SQLite database but not an MLflow store ({text}): pass an mlflow.db "
                             f"written by MLflow")
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        return UnknownFormat(f"{where} is not a readable SQLite database ({text}); pass the mlflow.db MLflow writes")
    if "readonly" in low or "read-only" in low or "unable to open" in low:
        return SourceUnreachable(f"cannot open {where} read-only ({text}); an unfinished write (a crashed writer's "
                                 f"journal) is recovered by MLflow's next write")
    return SourceUnreachable(f"cannot read {where}: {text}")


class MlflowSqliteSource:
    """One MLflow run in an sqlite store on this machine, kind ``"mlflow_sqlite"``."""

    kind = "mlflow_sqlite"

    def __init__(self, path: str, run_id: str | None = None):
        self.path = path
        self._run_name: str | None = None
        self._status: str | None = None
        self.run_id, self.chosen = self._choose(run_id)  # chosen: which run was read, said with every answer
        self.source_id = f"mlflow_sqlite:{path}#{self.run_id}"

    def describe(self) -> str:
        return f"MLflow run {self.run_id} in {self.path}"

    def _with_reader(self, fn):
        """``fn(reader)`` on a fresh read-only connection, closed after: lock-free (immutable) when no writer is in a
        transaction and none began one meanwhile, tried ``OPTIMISTIC_TRIES`` times a few ms apart; else through
        sqlite's locks (``mode=ro``), whose shared lock lasts one statement."""
        tries = OPTIMISTIC_TRIES
        attempt = 0
        while True:
            optimistic = attempt < tries
            attempt += 1
            try:
                reader = _Reader(self.path, optimistic)
            except (OSError, sqlite3.Error) as e:
                raise _error(e, self.path) from None
            try:
                if optimistic and not reader.immutable:
                    if reader.wal:  # a WAL writer has it open: its readers never make it wait
                        tries = 0
                    else:
                        time.sleep(POLL_S)  # a writer is in a transaction: look again after it
                    continue
                out = fn(reader)
                if reader.stands():
                    return out
            except sqlite3.Error as e:
                if not reader.immutable:
                    raise _error(e, self.path) from None
                # a torn immutable read may fail any way: read again
            finally:
                reader.close()
            time.sleep(POLL_S)

    def _choose(self, run_id: str | None) -> tuple[str, str]:
        """The run (named, else the latest started active one) and the sentence saying so; its name and status kept
        for the read's info. One statement."""
        which = "r.run_uuid = ?" if run_id else "r.lifecycle_stage = 'active'"
        sql = ("SELECT r.run_uuid, r.name, e.name, r.status, (SELECT count(*) FROM runs WHERE lifecycle_stage = "
               "'active') FROM runs r LEFT JOIN experiments e ON e.experiment_id = r.experiment_id "
               f"WHERE {which} ORDER BY r.start_time DESC, r.rowid DESC LIMIT 1")

        def pick(r: _Reader) -> tuple[str, str]:
            rows = r.rows(sql, (run_id,) if run_id else ())
            if not rows and run_id:
                latest = [x[0] for x in r.rows("SELECT run_uuid FROM runs ORDER BY start_time DESC LIMIT 3")]
                raise RunNotFound(f"no MLflow run {run_id} in {self.path} (its latest runs: "
                                  f"{', '.join(latest) or 'none'})")
            if not rows:
                raise RunNotFound(f"{self.path} holds no MLflow run yet: start one, or check the path")
            uuid, name, exp, status, n = rows[0]
            self._run_name, self._status = name, status
            return uuid, chosen_note(uuid, name, exp, self.path, n, None if run_id else f"{self.path}#<run_id>")

        return self._with_reader(pick)

    def read(self, cursor: dict | None = None, progress: Progress | None = None) -> ReadResult:
        cur = cursor if cursor and cursor.get("v") == CURSOR_VERSION and cursor.get("run") == self.run_id else None
        try:
            inode = os.stat(self.path).st_ino
        except OSError as e:
            raise _error(e, self.path) from None
        if cur and cur.get("inode") != inode:
            cur = {"replaced": True}
        return self._with_reader(lambda r: self._read(r, cur, inode, progress))

    def _read(self, r: _Reader, cur: dict | None, inode: int, progress: Progress | None) -> ReadResult:
        """The run's rows after the cursor's, in statements of ``CHUNK_ROWS``. The first statement starts at the
        last row read (``rowid >=``): when that row is not there any more (a table rebuilt, the store replaced),
        every row is read again (``reset``)."""
        notes: list[str] = []
        reset = bool(cur and cur.get("replaced"))
        if reset:
            cur = None
        after = int(cur["rowid"]) if cur and cur.get("last") else 0
        seq = StepSequencer((cur or {}).get("seq"))
        last = (cur or {}).get("last")
        builder = BatchBuilder()
        read = 0
        more = False
        check = last is not None  # the first row must be the last one read
        while True:
            rows = r.rows("SELECT rowid, key, value, step, is_nan FROM metrics WHERE run_uuid = ? AND rowid >= ? "
                          "ORDER BY rowid LIMIT ?", (self.run_id, after if check else after + 1, CHUNK_ROWS))
            if check:
                check = False
                if not rows or rows[0][0] != after or _row_mark(rows[0][1:]) != last:
                    reset, after, last, seq, builder = True, 0, None, StepSequencer(), BatchBuilder()
                    continue
                rows = rows[1:]
                full = len(rows) == CHUNK_ROWS - 1
            else:
                full = len(rows) == CHUNK_ROWS
            for rowid, key, value, step, is_nan in rows:
                try:
                    builder.add(seq.step(str(key), int(step)), str(key), metric_value(value, is_nan))
                except (TypeError, ValueError, OverflowError):
                    pass  # a row that is not a metric costs that row
                after = rowid
            if rows:
                last = _row_mark(rows[-1][1:])
            read += len(rows)
            if not full:
                break
            builder.flush()
            if read >= PART_ROWS:
                more = True
                break
            if progress is not None:
                progress(float(read), None, f"reading MLflow run {self.run_id}")
        if reset:
            notes.append(f"{self.path} was replaced or rewritten: run {self.run_id} re-read from the start")
        info = self._info(r, first=cur is None or reset)
        note = seq.note()
        if note:
            notes.append(note)
        cursor = {"v": CURSOR_VERSION, "run": self.run_id, "rowid": after, "inode": inode, "seq": seq.state,
                  "last": last}
        return ReadResult(builder.build(), cursor, reset=reset, info=info, notes=notes, more=more)

    def _info(self, r: _Reader, first: bool) -> RunInfo:
        """Name and state from the run's row read when choosing it; its params (which do not change) on the first
        read only."""
        params: dict = {}
        if first:
            params = {str(k): _param(v) for k, v in r.rows("SELECT key, value FROM params WHERE run_uuid = ? LIMIT ?",
                                                            (self.run_id, MAX_PARAMS))}
        return RunInfo(name=self._run_name, state=run_state(self._status), config=config_subset(params),
                       total_steps=total_steps_from_config(params))


def _row_mark(row: tuple) -> list:
    """(key, value, step, is_nan) of a row, as the cursor keeps it (JSON: the value as text)."""
    key, value, step, is_nan = row
    return [str(key), repr(value), int(step), int(bool(is_nan))]


def _param(text: object) -> object:
    """A param's text as the number it spells, else the text (MLflow keeps params as strings)."""
    s = str(text)
    try:
        return int(s)
    except ValueError:
        pass
    try:
        return float(s)
    except ValueError:
        return s


def open_mlflow_sqlite(fs: FileSystem, path: str, run_id: str | None, local: bool) -> MlflowSqliteSource:
    """The run's source; ``fs.stat`` first: a FIFO, a device or a link out of the run folder is refused as for any
    run file."""
    fs.stat(path)
    if not local:
        raise BadInput(f"{path} is an MLflow sqlite store on another machine: sqlite reads only local files; run "
                       f"`mlflow server --backend-store-uri sqlite:///{path}` there and set MLFLOW_TRACKING_URI, or "
                       f"read a copy")
    return MlflowSqliteSource(path, run_id)


__all__ = ["MlflowSqliteSource", "open_mlflow_sqlite"]
