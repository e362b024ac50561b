"""A Neptune offline run (``neptune.init_run(mode="offline")``), on any FileSystem.

Neptune 1.x keeps each offline run in ``.neptune/offline/run__<run uuid>__<pid>__<random>/``: ``metadata.json``
(``mode``, ``containerId``, ``containerType``, ``createdAt``) and the operation log ``data-<first version>.log``
(a new file when one grows past its size cap), one JSON operation a line, appended while the run runs:
``{"obj": {"type": "LogFloats", "path": ["train", "loss"], "values": [{"value", "step", "ts"}]}, "version", "at"}``.
Read: a series field's appended values (``LogFloats``) at their steps, named by the field's path
(``train/loss``); values appended without a step in appending order; the run's ``parameters`` and other assigned
numbers and strings (``AssignFloat``/``AssignInt``/``AssignString``/``AssignBool``, not ``sys/``) as its
settings, ``sys/name`` as its name, ``sys/failed`` as its state. Each log file by byte offset (incremental);
the run given as its folder, a file in it, ``.neptune/``, its ``offline/`` folder or the folder holding
``.neptune/`` (the latest run, or ``folder#<run uuid>``).
"""

from __future__ import annotations

from ..errors import RunNotFound
from ..points import BatchBuilder
from .base import Progress, ReadResult, RunInfo
from .files import DirEntry, FileSystem
from .offline_stores import (
    LinesFile,
    Sequencer,
    bad_lines_note,
    chosen_note,
    needs_reset,
    newest,
    number,
    read_records,
    read_small_json,
    step_of,
)
from .wandb_local import config_subset, total_steps_from_config

CURSOR_VERSION = 1
METADATA = "metadata.json"
DATA_DIR = ".neptune"
MODES = ("offline", "async")  # the same operation logs (an async run's are removed once the server has them)
MAX_DATA_FILES = 1000
ASSIGN = ("AssignFloat", "AssignInt", "AssignString", "AssignBool")


def _data_files(entries: list[DirEntry]) -> list[tuple[int, DirEntry]]:
    out = []
    for e in entries:
        if not e.is_dir and e.name.startswith("data-") and e.name.endswith(".log") and e.name[5:-4].isdigit():
            out.append((int(e.name[5:-4]), e))
    return sorted(out, key=lambda t: t[0])[:MAX_DATA_FILES]


def _is_run(names: dict[str, DirEntry]) -> bool:
    return METADATA in names and bool(_data_files(list(names.values())))


def _run_uuid(folder_name: str) -> str:
    parts = folder_name.split("__")
    return parts[1] if len(parts) >= 2 and parts[0] in ("run", "model", "project", "model_version") else folder_name


def find_neptune(fs: FileSystem, path: str, names: dict[str, DirEntry], run_id: str | None
                 ) -> NeptuneOfflineSource | None:
    """The Neptune run a folder is or holds; None when it holds none."""
    if _is_run(names):
        return NeptuneOfflineSource(fs, path, chosen=None, run_id=run_id)
    folder = None
    if DATA_DIR in names and names[DATA_DIR].is_dir:
        path, names = fs.join(path, DATA_DIR), {e.name: e for e in fs.listdir(fs.join(path, DATA_DIR))}
    for mode in MODES:
        if mode in names and names[mode].is_dir:
            folder = fs.join(path, mode)
            break
    if folder is None and any(n.startswith("run__") and e.is_dir for n, e in names.items()):
        folder = path
    if folder is None:
        return None
    runs = newest(fs.listdir(folder), lambda e: e.is_dir and "__" in e.name)
    if run_id:
        runs = [e for e in runs if _run_uuid(e.name) == run_id or e.name == run_id]
        if not runs:
            raise RunNotFound(f"no Neptune offline run {run_id} in {fs.describe(folder)}")
        return NeptuneOfflineSource(fs, fs.join(folder, runs[0].name), chosen=None)
    best: tuple[str, str] | None = None
    n = 0
    for e in runs:
        meta = read_small_json(fs, fs.join(folder, e.name, METADATA))
        if not isinstance(meta, dict):
            continue
        n += 1
        created = str(meta.get("createdAt") or "")
        if best is None or created > best[0]:
            best = (created, e.name)
    if best is None:
        return None
    return NeptuneOfflineSource(fs, fs.join(folder, best[1]),
                                chosen=(fs.describe(folder), n, f"{fs.describe(folder)}#<run uuid>"))


def neptune_run_of_file(fs: FileSystem, path: str) -> NeptuneOfflineSource | None:
    """The run whose folder holds ``path`` (its ``data-N.log`` or ``metadata.json``), when it is one."""
    folder, _, name = path.rstrip("/").rpartition("/")
    if not folder or not (name == METADATA or (name.startswith("data-") and name.endswith(".log"))):
        return None
    names = {e.name: e for e in fs.listdir(folder)}
    meta = read_small_json(fs, fs.join(folder, METADATA)) if METADATA in names else None
    if not _is_run(names) or not isinstance(meta, dict) or "containerId" not in meta:
        return None
    return NeptuneOfflineSource(fs, folder, chosen=None)


class NeptuneOfflineSource:
    """One Neptune offline run, kind ``"neptune_offline"``."""

    kind = "neptune_offline"

    def __init__(self, fs: FileSystem, run_dir: str, *, chosen: tuple[str, int, str] | None,
                 run_id: str | None = None):
        self.fs, self.run_dir = fs, run_dir
        meta = read_small_json(fs, fs.join(run_dir, METADATA))
        meta = meta if isinstance(meta, dict) else {}
        self.run_id = str(meta.get("containerId") or _run_uuid(run_dir.rstrip("/").rsplit("/", 1)[-1]))[:80]
        if run_id and run_id != self.run_id:
            raise RunNotFound(f"{fs.describe(run_dir)} is Neptune run {self.run_id}, not {run_id}")
        where, n, pin = chosen if chosen else (fs.describe(run_dir), None, None)
        self.chosen = chosen_note("Neptune offline", self.run_id, None, where, n, pin)
        self.source_id = f"neptune_offline:{fs.describe(run_dir)}"

    def describe(self) -> str:
        return f"Neptune offline run {self.run_id} in {self.fs.describe(self.run_dir)}"

    def _files(self) -> list[LinesFile]:
        return [LinesFile(e.name, self.fs.join(self.run_dir, e.name), None, e.size, e.mtime)
                for _, e in _data_files(self.fs.listdir(self.run_dir))]

    def read(self, cursor: dict | None = None, progress: Progress | None = None) -> ReadResult:
        cur = cursor if cursor and cursor.get("v") == CURSOR_VERSION else {}
        files = self._files()
        known = dict(cur.get("files") or {})
        gone = [k for k in known if k not in {f.key for f in files}]
        # a log file whose operations were all sent is removed (async mode): its points are read; a file that shrank
        # was rewritten: everything again
        if needs_reset(files, known):
            cur = {"reset": True}
        builder = BatchBuilder()
        ops = _Operations(builder, dict(cur.get("state") or {}))
        got = read_records(self.fs, files, cur.get("files"), ops.record)
        for k in gone:
            got.files.pop(k, None)
        reset = got.reset or bool(cur.get("reset"))
        notes = [n for n in (bad_lines_note(got.bad, "operation(s) of the Neptune log"), ops.seq.note()) if n]
        if reset:
            notes.insert(0, f"an operation log of {self.fs.describe(self.run_dir)} was rewritten: re-read from the "
                            f"start")
        state = ops.state()
        config = state.get("config") or {}
        info = RunInfo(name=state.get("name") or None, state=state.get("state"), config=config_subset(config),
                       total_steps=total_steps_from_config(config))
        return ReadResult(builder.build(), {"v": CURSOR_VERSION, "files": got.files, "state": state},
                          reset=reset, info=info, notes=notes, more=got.more)


class _Operations:
    """Neptune's operations, one at a time, into points; what a later read needs is kept in ``state()``."""

    def __init__(self, builder: BatchBuilder, state: dict):
        self.builder = builder
        self.seq = Sequencer(state.get("seq"))
        self.name = state.get("name")
        self.run_state = state.get("state")
        self.config: dict = dict(state.get("config") or {})

    def state(self) -> dict:
        return {"seq": self.seq.state, "name": self.name, "state": self.run_state, "config": self.config}

    def record(self, op: object) -> int:
        obj = op.get("obj") if isinstance(op, dict) else None
        if not isinstance(obj, dict):
            return 1
        path = obj.get("path")
        if not isinstance(path, list) or not path or not all(isinstance(p, str) for p in path) or len(path) > 16:
            return 1
        key = "/".join(path)[:500]
        kind = obj.get("type")
        if kind == "LogFloats":
            values = obj.get("values")
            if not isinstance(values, list):
                return 1
            bad = 0
            steps, vals = self.builder.column(key)
            for v in values:
                x = number(v.get("value")) if isinstance(v, dict) else None
                if x is None:
                    bad += 1
                    continue
                steps.append(self.seq.step(key, step_of(v.get("step"))))
                vals.append(x)
            return bad
        if kind in ASSIGN:
            value = obj.get("value")
            if key == "sys/name" and isinstance(value, str):
                self.name = value[:200]
            elif key == "sys/failed" and isinstance(value, bool):
                self.run_state = "failed" if value else self.run_state
            elif key == "sys/state" and isinstance(value, str):
                self.run_state = value[:40].lower()
            elif path[0] not in ("sys", "source_code", "monitoring") and len(self.config) < 200:
                self.config[key.removeprefix("parameters/")] = value if not isinstance(value, str) else value[:200]
        return 0
