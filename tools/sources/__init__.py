"""Sources of metrics, chosen from a run reference.

``open_source`` maps a parsed reference to a Source: the W&B API, a W&B local
run (``.wandb`` transaction log), TensorBoard event files (recognised by their
bytes, whatever their name), an MLflow store (sqlite ``mlflow.db``, ``mlruns/``
files, a tracking server), a DVCLive folder, or a training log file of any
common format, each on this machine or over SSH (an sqlite store: here only).
"""

from __future__ import annotations

from ..config import Config
from ..errors import BadInput, RunNotFound
from ..runref import RunRef
from .base import ReadResult, RunInfo, Source
from .files import DirEntry, FileSystem, LocalFileSystem

__all__ = ["open_source", "open_path_source", "filesystem_for", "Source", "ReadResult", "RunInfo"]


def filesystem_for(ref: RunRef, config: Config) -> FileSystem:
    if ref.kind == "ssh":
        from .ssh import ssh_filesystem

        return ssh_filesystem(ref, config)
    return LocalFileSystem()


def open_source(ref: RunRef, config: Config) -> Source:
    if ref.kind == "wandb":
        from .wandb_api import WandbApiSource

        return WandbApiSource(ref, config)
    if ref.kind == "mlflow":
        from .mlflow_api import open_mlflow_server

        return open_mlflow_server(ref, config)
    return open_path_source(filesystem_for(ref, config), ref.path or "", ref.run_id, local=ref.kind == "local")


def is_tfevents_name(name: str) -> bool:
    """TensorBoard event files are named events.out.tfevents.<time>.<host>..."""
    return name.startswith("events.out.tfevents.")


SNIFF_BYTES = 64  # a file's first bytes, enough to tell an event file or an sqlite database from a log


SQLITE_MAGIC = b"SQLite format 3\x00"
ZIP_MAGIC = b"PK\x03\x04"


def _sniff(fs: FileSystem, path: str, size: int) -> str | None:
    """``"tfevents"``, ``"sqlite"`` or ``"zip"`` from a file's first bytes, else None (a log, or not written yet). A
    text log is told apart without loading a reader: a TFRecord's first 8 bytes are a length under 16 MB (bytes 3-7
    zero)."""
    if size < 12:
        return None
    head = fs.read_at(path, 0, min(size, SNIFF_BYTES))
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(ZIP_MAGIC):
        return "zip"
    if head[3:8] != bytes(5):
        return None
    from .tfevents import is_tfevents_head

    return "tfevents" if is_tfevents_head(head) else None


def _event_files(fs: FileSystem, path: str, entries: list[DirEntry]) -> list[str]:
    """A folder's TensorBoard event files: named ``events.out.tfevents.*``, or any name holding ``tfevents`` whose
    bytes are an event file."""
    named = [e.name for e in entries if not e.is_dir and is_tfevents_name(e.name)]
    odd = [e for e in entries if not e.is_dir and "tfevents" in e.name and e.name not in named]
    named += [e.name for e in odd[:64] if _sniff(fs, fs.join(path, e.name), e.size) == "tfevents"]
    return sorted(named)


def _store_in(fs: FileSystem, path: str, entries: list[DirEntry], run_id: str | None, local: bool) -> Source | None:
    """A tracker's store in (or as) the folder: DVCLive (``plots/metrics``), MLflow (``mlflow.db``, ``mlruns/``, an
    ``mlruns`` experiment or run folder), an offline store of Comet, Neptune or ClearML (``offline_stores.py``)."""
    names = {e.name: e for e in entries}
    from .dvclive import find_dvclive
    from .mlflow_files import find_mlflow_files

    if run_id is None:
        live = find_dvclive(fs, path, names)
        if live is not None:
            return live
    db = names.get("mlflow.db")
    if db is not None and not db.is_dir:
        from .mlflow_sqlite import open_mlflow_sqlite

        return open_mlflow_sqlite(fs, fs.join(path, "mlflow.db"), run_id, local)
    mlruns = find_mlflow_files(fs, path, names, run_id)
    return mlruns if mlruns is not None else _offline_store_in(fs, path, names, run_id)


def _offline_store_in(fs: FileSystem, path: str, names: dict[str, DirEntry], run_id: str | None) -> Source | None:
    """A Comet, Neptune or ClearML offline store in (or as) the folder, each told by its layout and content; an Aim
    repository is refused in one line."""
    from .clearml_offline import find_clearml
    from .comet_offline import find_comet
    from .neptune_offline import find_neptune

    for find in (find_neptune, find_clearml, find_comet):
        found = find(fs, path, names, run_id)
        if found is not None:
            return found
    from .aim_repo import refuse_aim

    refuse_aim(fs, path, names)  # recognised, not read: one line saying so
    return None


OFFLINE_STORE_FILES = ("messages.json", "experiment.json", "metadata.json", "task.json", "metrics.jsonl")


def _offline_store_of_file(fs: FileSystem, path: str, name: str) -> Source | None:
    """The offline run whose folder holds this file (Neptune's ``data-N.log``, ClearML's ``metrics.jsonl``, Comet's
    unzipped ``messages.json``), when the folder is one: the user named a file of the store."""
    if name not in OFFLINE_STORE_FILES and not (name.startswith("data-") and name.endswith(".log")):
        return None
    from .clearml_offline import clearml_session_of_file
    from .comet_offline import comet_run_of_file
    from .neptune_offline import neptune_run_of_file

    folder = path.rstrip("/").rpartition("/")[0]
    if not folder:
        return None
    fs = fs.confined(folder)
    for of_file in (neptune_run_of_file, clearml_session_of_file, comet_run_of_file):
        found = of_file(fs, path)
        if found is not None:
            return found
    return None


def _open_archive(fs: FileSystem, path: str, size: int, run_id: str | None) -> Source:
    """A zip archive: a Comet offline experiment or a ClearML offline session, told by its members."""
    from .comet_offline import MEMBERS as COMET_MEMBERS
    from .comet_offline import open_comet_archive
    from .offline_stores import open_zip

    with open_zip(fs, path, size) as zf:
        members = {i.filename for i in zf.infolist()}
    if COMET_MEMBERS <= members:
        return open_comet_archive(fs, path, run_id)
    from .clearml_offline import MEMBERS as CLEARML_MEMBERS
    from .clearml_offline import open_clearml_archive

    if CLEARML_MEMBERS <= members:
        return open_clearml_archive(fs, path, run_id)
    shown = ", ".join(sorted(members)[:4]) or "nothing"
    raise BadInput(f"{fs.describe(path)} is a zip archive of {shown}: not a tracker's offline store training-check "
                   f"reads (Comet: experiment.json + messages.json; ClearML: task.json + metrics.jsonl)")


def open_path_source(fs: FileSystem, path: str, run_id: str | None = None, *, local: bool = True) -> Source:
    """The source for a file or folder: a .wandb run, TensorBoard events, a tracker's store, or a log file (each
    reader imported only when it is the one: a log's check never loads the others). ``run_id``: the run a store's
    reference names (``mlflow.db#<run_id>``)."""
    st = fs.stat(path)
    name = path.rstrip("/").rsplit("/", 1)[-1]
    if st.is_dir:
        from .wandb_local import WandbLocalSource, find_wandb_file

        fs = fs.confined(path)  # a file of the run folder is read only when it really is in the folder
        entries = fs.listdir(path)
        store = _store_in(fs, path, entries, run_id, local)
        if store is not None:
            return store
        if run_id is not None:
            raise BadInput(f"{fs.describe(path)}#{run_id}: #<run_id> names a run of an MLflow store or an offline "
                           f"store, and "
                           f"{fs.describe(path)} holds none (no mlflow.db, mlruns runs, or Comet, Neptune or "
                           f"ClearML offline runs)")
        wandb_file = find_wandb_file(fs, path)
        if wandb_file:
            return WandbLocalSource(fs, wandb_file)
        events = _event_files(fs, path, entries)
        if events:
            from .tfevents import TfEventsSource

            return TfEventsSource(fs, [fs.join(path, e) for e in events])
        from .metric_csvs import find_metric_csvs

        per_metric = find_metric_csvs(fs, path, entries)
        if per_metric is not None:
            return per_metric
        for candidate in ("metrics.csv", "trainer_state.json", "metrics.json", "results.csv", "train.log", "log.txt"):
            if any(e.name == candidate and not e.is_dir for e in entries):
                from .logfile import LogFileSource

                return LogFileSource(fs, fs.join(path, candidate))
        logs = sorted((e for e in entries
                       if not e.is_dir and e.name.lower().endswith((".log", ".txt", ".out", ".jsonl", ".csv"))),
                      key=lambda e: -e.mtime)
        if len(logs) == 1:
            from .logfile import LogFileSource

            return LogFileSource(fs, fs.join(path, logs[0].name))
        if logs:
            names = ", ".join(e.name for e in logs[:5])
            raise BadInput(f"{fs.describe(path)} holds several logs ({names}): name one file")
        raise RunNotFound(f"{fs.describe(path)} holds no run: expected a wandb run, TensorBoard events or a log file")
    kind = None if name.endswith(".wandb") else _sniff(fs, path, st.size)
    if kind == "sqlite":
        from .mlflow_sqlite import open_mlflow_sqlite

        return open_mlflow_sqlite(fs, path, run_id, local)
    if kind == "zip":
        return _open_archive(fs, path, st.size, run_id)
    offline = _offline_store_of_file(fs, path, name) if kind is None and run_id is None else None
    if offline is not None:
        return offline
    if run_id is not None:
        raise BadInput(f"{fs.describe(path)}#{run_id}: #<run_id> names a run of an MLflow store (mlflow.db, "
                       f"mlruns/, an offline store's folder or zip); {name} is not one")
    if name.endswith(".wandb"):
        from .wandb_local import WandbLocalSource

        return WandbLocalSource(fs, path)
    if kind == "tfevents" or is_tfevents_name(name):
        from .tfevents import TfEventsSource

        return TfEventsSource(fs, [path])
    if name.lower().endswith(".csv"):
        from .metric_csvs import metric_csvs_around

        per_metric = metric_csvs_around(fs, path, st.size)  # one metric of a folder of them: the run is the folder
        if per_metric is not None:
            return per_metric
    from .logfile import LogFileSource

    return LogFileSource(fs, path)
