"""A ClearML offline session (``Task.set_offline(True)``), on any FileSystem.

ClearML keeps each offline task in ``~/.clearml/cache/offline/offline-<id>/`` while it runs (zipped beside it as
``offline-<id>.zip`` when it closes): ``task.json`` (``id``, ``name``, ``hyperparams``: sections of
``{name: {"value": text}}``) and ``metrics.jsonl``, one JSON array of events a line (a batch per flush), appended
while the run runs. Read: its scalar reports (``"type": "training_stats_scalar"``: ``metric`` the title,
``variant`` the series, ``iter``, ``value``), named ``title/series`` as ClearML shows them; other events (plots,
vectors, images) are not metrics. The hyperparameters are the run's settings. Given as the session folder, a
file in it, its zip (recognised by its members, whatever its name), or a folder of sessions (the latest, or
``folder#offline-<id>``); a session folder is read by byte offset (incremental), a zip whole when it changed.
"""

from __future__ import annotations

from ..errors import BadInput, RunNotFound
from ..points import BatchBuilder
from .base import Progress, ReadResult, RunInfo
from .files import DirEntry, FileSystem
from .offline_stores import (
    LinesFile,
    bad_lines_note,
    chosen_note,
    needs_reset,
    newest,
    number,
    one_lines_file,
    read_records,
    read_small_json,
    step_of,
    zip_names,
)
from .wandb_local import config_subset, total_steps_from_config

CURSOR_VERSION = 1
TASK = "task.json"
METRICS = "metrics.jsonl"
MEMBERS = {TASK, METRICS}
SCALAR = "training_stats_scalar"
MAX_PARAMS = 200


def _is_session(names: dict[str, DirEntry]) -> bool:
    return TASK in names and METRICS in names and not names[METRICS].is_dir


def is_clearml_archive(fs: FileSystem, path: str, size: int) -> bool:
    return MEMBERS <= zip_names(fs, path, size)


def _session_id(name: str) -> str:
    return name.removesuffix(".zip")


def _is_session_name(name: str) -> bool:
    """``offline-<32 hex digits>`` (ClearML's offline task id), a folder or its ``.zip``; not W&B's
    ``offline-run-*``."""
    tail = _session_id(name).removeprefix("offline-")
    return name.startswith("offline-") and len(tail) == 32 and all(c in "0123456789abcdef" for c in tail)


def find_clearml(fs: FileSystem, path: str, names: dict[str, DirEntry], run_id: str | None
                 ) -> ClearmlOfflineSource | None:
    """The ClearML session a folder is, or the one it holds (session folders ``offline-<id>`` and their zips)."""
    if _is_session(names):
        return ClearmlOfflineSource(fs, path, None, chosen=None, run_id=run_id)
    if ".clearml" in names and names[".clearml"].is_dir:  # a home folder: its cache of offline sessions
        cache = fs.join(path, ".clearml", "cache", "offline")
        try:
            return find_clearml(fs, cache, {e.name: e for e in fs.listdir(cache)}, run_id)
        except RunNotFound:
            raise
        except Exception:
            return None
    sessions = newest(list(names.values()),
                      lambda e: _is_session_name(e.name) and (e.is_dir or e.name.endswith(".zip")))
    if not sessions:
        return None
    if run_id:
        want = run_id if run_id.startswith("offline-") else f"offline-{run_id}"
        sessions = [e for e in sessions if _session_id(e.name) == want]
    found: dict[str, tuple[str, str | None]] = {}  # session id -> (its folder, or its zip with the member)
    order: list[str] = []
    for e in sessions:
        sid = _session_id(e.name)
        where = fs.join(path, e.name)
        if e.is_dir:
            if not _is_session({x.name: x for x in fs.listdir(where)}):
                continue
            found[sid] = (where, None)  # the live folder wins over its zip
        elif sid not in found and is_clearml_archive(fs, where, e.size):
            found[sid] = (where, METRICS)
        else:
            continue
        if sid not in order:
            order.append(sid)
    if not order:
        if run_id:
            raise RunNotFound(f"no ClearML offline session {run_id} in {fs.describe(path)}")
        return None
    where, member = found[order[0]]
    pin = None if run_id else f"{fs.describe(path)}#<session id>"
    return ClearmlOfflineSource(fs, where, member, chosen=(fs.describe(path), len(order), pin))


def clearml_session_of_file(fs: FileSystem, path: str) -> ClearmlOfflineSource | None:
    """The session whose folder holds ``path`` (its ``metrics.jsonl`` or ``task.json``), when it is one."""
    folder, _, name = path.rstrip("/").rpartition("/")
    if not folder or name not in MEMBERS or not _is_session({e.name: e for e in fs.listdir(folder)}):
        return None
    return ClearmlOfflineSource(fs, folder, None, chosen=None)


def open_clearml_archive(fs: FileSystem, path: str, run_id: str | None) -> ClearmlOfflineSource:
    return ClearmlOfflineSource(fs, path, METRICS, chosen=None, run_id=run_id)


class ClearmlOfflineSource:
    """One ClearML offline session, kind ``"clearml_offline"``: its folder (``member`` None) or its zip."""

    kind = "clearml_offline"

    def __init__(self, fs: FileSystem, path: str, member: str | None, *, chosen: tuple[str, int, str | None] | None,
                 run_id: str | None = None):
        self.fs, self.path, self.member = fs, path, member
        task = read_small_json(fs, path, TASK) if member else read_small_json(fs, fs.join(path, TASK))
        if not isinstance(task, dict):
            raise BadInput(f"{fs.describe(path)} has no readable {TASK}: not a ClearML offline session (name the "
                           f"offline-<id> folder or zip ClearML wrote)")
        self.task = task
        self.run_id = str(task.get("id") or _session_id(path.rstrip("/").rsplit("/", 1)[-1]))[:80]
        if run_id and run_id not in (self.run_id, self.run_id.removeprefix("offline-")):
            raise RunNotFound(f"{fs.describe(path)} is ClearML session {self.run_id}, not {run_id}")
        name = task.get("name") if isinstance(task.get("name"), str) else None
        where, n, pin = chosen if chosen else (fs.describe(path), None, None)
        self.chosen = chosen_note("ClearML offline", self.run_id, name, where, n, pin)
        self.source_id = f"clearml_offline:{fs.describe(path)}"

    def describe(self) -> str:
        return f"ClearML offline session {self.run_id} in {self.fs.describe(self.path)}"

    def _files(self) -> list[LinesFile]:
        return one_lines_file(self.fs, self.path, self.member, METRICS)

    def read(self, cursor: dict | None = None, progress: Progress | None = None) -> ReadResult:
        cur = cursor if cursor and cursor.get("v") == CURSOR_VERSION else {}
        files = self._files()
        reset = needs_reset(files, cur.get("files") or {})
        if reset:
            cur = {}
        builder = BatchBuilder()
        events = _Events(builder)
        got = read_records(self.fs, files, cur.get("files"), events.record)
        notes = [n for n in (bad_lines_note(got.bad, "line(s) of metrics.jsonl"),) if n]
        if events.skipped:
            notes.append(f"skipped {events.skipped} ClearML scalar report(s) without a numeric value or iteration")
        if reset:
            notes.insert(0, f"{self.fs.describe(self.path)} was rewritten: re-read from the start")
        params = _hyperparams(self.task)
        info = RunInfo(name=self.task.get("name") if isinstance(self.task.get("name"), str) else None,
                       config=config_subset(params), total_steps=total_steps_from_config(params))
        return ReadResult(builder.build(), {"v": CURSOR_VERSION, "files": got.files}, reset=reset, info=info,
                          notes=notes, more=got.more)


def _hyperparams(task: dict) -> dict:
    """``hyperparams``' values (ClearML keeps them as text) as numbers where they are, by their names."""
    out: dict = {}
    sections = task.get("hyperparams")
    if not isinstance(sections, dict):
        return out
    for section in sections.values():
        if not isinstance(section, dict):
            continue
        for name, p in section.items():
            if len(out) >= MAX_PARAMS:
                return out
            value = p.get("value") if isinstance(p, dict) else None
            if isinstance(value, str) and isinstance(name, str):
                x = number(value)
                out[name] = (int(x) if x == int(x) and "." not in value else x) if x is not None and x == x \
                    and abs(x) < 2 ** 62 else value[:80]
    return out


class _Events:
    """ClearML's event batches, one line at a time, into points (scalar reports only)."""

    def __init__(self, builder: BatchBuilder):
        self.builder = builder
        self.skipped = 0

    def record(self, batch: object) -> int:
        if not isinstance(batch, list):
            return 1
        for ev in batch:
            if not isinstance(ev, dict) or ev.get("type") != SCALAR:
                continue
            title, series = ev.get("metric"), ev.get("variant")
            value, step = number(ev.get("value")), step_of(ev.get("iter"))
            if not isinstance(title, str) or not isinstance(series, str) or value is None or step is None:
                self.skipped += 1
                continue
            self.builder.add(step, f"{title[:250]}/{series[:250]}", value)
        return 0
