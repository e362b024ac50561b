"""A Comet ML offline experiment (``comet_ml.OfflineExperiment(offline_directory=...)``), on any FileSystem.

Comet writes each offline run as ``<offline_directory>/<experiment id>.zip`` when the run ends (``comet upload``
sends it later): ``experiment.json`` (``offline_id``, ``project_name``, ``start_time``) and ``messages.json``, one
JSON message a line: ``{"type": "metric_msg", "payload": {"metric": {"metricName", "metricValue", "step",
"epoch"}, "local_timestamp"}}``, ``parameter_msg`` (``param.paramName``/``paramValue``; the ``manual`` ones are
the run's settings), ``log_other`` (the run's ``Name``). Read: an archive (whatever its name: told by its
members), a folder holding archives (the latest, or ``folder#<experiment id>``), or the same two files unzipped
(``messages.json`` read by byte offset, incrementally). A metric logged with an ``epoch`` also gives ``epoch``
points at its steps; one logged without a step is read in logging order.
"""

from __future__ import annotations

from ..errors import BadInput, RunNotFound
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
    one_lines_file,
    read_records,
    read_small_json,
    step_of,
    zip_names,
)
from .wandb_local import config_subset, total_steps_from_config

CURSOR_VERSION = 1
MESSAGES = "messages.json"
EXPERIMENT = "experiment.json"
MEMBERS = {MESSAGES, EXPERIMENT}
DEFAULT_FOLDER = ".cometml-runs"  # comet_ml's offline_directory when none is given


def is_comet_archive(fs: FileSystem, path: str, size: int) -> bool:
    return MEMBERS <= zip_names(fs, path, size)


def find_comet(fs: FileSystem, path: str, names: dict[str, DirEntry], run_id: str | None
               ) -> CometOfflineSource | None:
    """The Comet offline run a folder holds: unzipped (``messages.json`` + ``experiment.json``), archives in it or in
    its ``.cometml-runs/``; None when none."""
    if MESSAGES in names and EXPERIMENT in names and not names[MESSAGES].is_dir:
        return CometOfflineSource(fs, path, None, chosen=None, run_id=run_id)
    sub = names.get(DEFAULT_FOLDER)
    if sub is not None and sub.is_dir:
        folder = fs.join(path, DEFAULT_FOLDER)
        return _archive_in(fs, folder, fs.listdir(folder), run_id)
    if any(n.endswith(".zip") for n in names):
        return _archive_in(fs, path, list(names.values()), run_id)
    return None


def _archive_in(fs: FileSystem, folder: str, entries: list[DirEntry], run_id: str | None
                ) -> CometOfflineSource | None:
    """The named (``run_id``: the archive's name starts with it) or the newest Comet archive of a folder."""
    zips = newest(entries, lambda e: not e.is_dir and e.name.endswith(".zip"))
    comet = [e for e in zips if is_comet_archive(fs, fs.join(folder, e.name), e.size)]
    if not comet:
        return None
    if run_id:
        comet = [e for e in comet if e.name[:-4].split("-", 1)[0] == run_id or e.name[:-4] == run_id]
        if not comet:
            raise RunNotFound(f"no Comet offline experiment {run_id} in {fs.describe(folder)}")
    pin = None if run_id else f"{fs.describe(folder)}#<experiment id>"
    return CometOfflineSource(fs, fs.join(folder, comet[0].name), MESSAGES,
                              chosen=(fs.describe(folder), len(comet), pin))


def comet_run_of_file(fs: FileSystem, path: str) -> CometOfflineSource | None:
    """The unzipped experiment whose folder holds ``path`` (its ``messages.json`` or ``experiment.json``)."""
    folder, _, name = path.rstrip("/").rpartition("/")
    if not folder or name not in MEMBERS or not MEMBERS <= {e.name for e in fs.listdir(folder)}:
        return None
    return CometOfflineSource(fs, folder, None, chosen=None)


def open_comet_archive(fs: FileSystem, path: str, run_id: str | None) -> CometOfflineSource:
    return CometOfflineSource(fs, path, MESSAGES, chosen=None, run_id=run_id)


class CometOfflineSource:
    """One Comet offline experiment, kind ``"comet_offline"``: an archive (``member``: its ``messages.json``) or an
    unzipped folder (``member`` None)."""

    kind = "comet_offline"

    def __init__(self, fs: FileSystem, path: str, member: str | None, *, chosen: tuple[str, int, str | None] | None,
                 run_id: str | None = None):
        self.fs, self.path, self.member = fs, path, member
        meta = read_small_json(fs, path, EXPERIMENT) if member else read_small_json(fs, fs.join(path, EXPERIMENT))
        if not isinstance(meta, dict):
            raise BadInput(f"{fs.describe(path)} has no readable {EXPERIMENT}: not a Comet offline experiment "
                           f"(name the .zip comet_ml wrote, or its folder)")
        self.run_id = str(meta.get("offline_id") or path.rstrip("/").rsplit("/", 1)[-1].removesuffix(".zip"))
        if run_id and run_id != self.run_id:
            raise RunNotFound(f"{fs.describe(path)} is Comet experiment {self.run_id}, not {run_id}")
        self.project = meta.get("project_name") if isinstance(meta.get("project_name"), str) else None
        where, n, pin = chosen if chosen else (fs.describe(path), None, None)
        self.chosen = chosen_note("Comet offline", self.run_id, None, where, n, pin)
        self.source_id = f"comet_offline:{fs.describe(path)}"

    def describe(self) -> str:
        return f"Comet offline experiment {self.run_id} in {self.fs.describe(self.path)}"

    def _files(self) -> list[LinesFile]:
        return one_lines_file(self.fs, self.path, self.member, MESSAGES)

    def read(self, cursor: dict | None = None, progress: Progress | None = None) -> ReadResult:
        cur = cursor if cursor and cursor.get("v") == CURSOR_VERSION else {}
        files = self._files()
        if needs_reset(files, cur.get("files") or {}):
            cur = {"reset": True}  # the archive was written again: everything from the start, with fresh state
        builder = BatchBuilder()
        parse = _Messages(builder, dict(cur.get("state") or {}))
        got = read_records(self.fs, files, cur.get("files"), parse.record)
        got.reset = got.reset or bool(cur.get("reset"))
        notes = [n for n in (bad_lines_note(got.bad, "line(s) of messages.json"), parse.seq.note()) if n]
        if got.reset:
            notes.insert(0, f"{self.fs.describe(self.path)} was rewritten: re-read from the start")
        if parse.skipped:
            notes.append(f"skipped {parse.skipped} Comet metric message(s) without a numeric value")
        state = parse.state()
        config = state.get("config") or {}
        info = RunInfo(name=state.get("name") or None, config=config_subset(config),
                       total_steps=total_steps_from_config(config))
        return ReadResult(builder.build(), {"v": CURSOR_VERSION, "files": got.files, "state": state},
                          reset=got.reset, info=info, notes=notes, more=got.more)


class _Messages:
    """Comet's messages, one at a time, into points; what a later read needs is kept in ``state()``."""

    def __init__(self, builder: BatchBuilder, state: dict):
        self.builder = builder
        self.seq = Sequencer(state.get("seq"))
        self.epoch: list = list(state.get("epoch") or [])  # [step, epoch] last added
        self.name = state.get("name")
        self.config: dict = dict(state.get("config") or {})
        self.skipped = 0

    def state(self) -> dict:
        return {"seq": self.seq.state, "epoch": self.epoch, "name": self.name, "config": self.config}

    def record(self, msg: object) -> int:
        if not isinstance(msg, dict):
            return 1
        payload = msg.get("payload")
        if not isinstance(payload, dict):
            return 1
        kind = msg.get("type")
        if kind == "metric_msg":
            self._metric(payload.get("metric"))
        elif kind == "parameter_msg":
            param = payload.get("param")
            if isinstance(param, dict) and param.get("source") != "auto-logged" and len(self.config) < 200:
                name = param.get("paramName")
                if isinstance(name, str) and len(name) <= 200:
                    self.config[name] = param.get("paramValue")
        elif kind == "log_other" and payload.get("key") == "Name" and isinstance(payload.get("value"), str):
            self.name = payload["value"][:200]
        return 0

    def _metric(self, metric: object) -> None:
        if not isinstance(metric, dict) or not isinstance(metric.get("metricName"), str):
            self.skipped += 1
            return
        name = metric["metricName"][:500]
        value = number(metric.get("metricValue"))
        if value is None:
            self.skipped += 1
            return
        step = self.seq.step(name, step_of(metric.get("step")))
        self.builder.add(step, name, value)
        epoch = number(metric.get("epoch"))
        if epoch is not None and [step, epoch] != self.epoch:
            self.builder.add(step, "epoch", epoch)
            self.epoch = [step, epoch]
