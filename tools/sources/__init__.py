"""Sources of metrics, chosen from a run reference.

``open_source`` maps a parsed reference to a Source: the W&B API, a W&B local
run (``.wandb`` transaction log), TensorBoard event files, or a training log
file of any common format, each on this machine or over SSH.
"""

from __future__ import annotations

from ..config import Config
from ..errors import BadInput, RunNotFound
from ..runref import RunRef
from .base import ReadResult, RunInfo, Source
from .files import FileSystem, LocalFileSystem

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
    return open_path_source(filesystem_for(ref, config), ref.path or "")


def is_tfevents_name(name: str) -> bool:
    """TensorBoard event files are named events.out.tfevents.<time>.<host>..."""
    return name.startswith("events.out.tfevents.")


def open_path_source(fs: FileSystem, path: str) -> Source:
    """The source for a file or folder: a .wandb run, TensorBoard events, or a log file (each reader imported only
    when it is the one: a log's check never loads the others)."""
    st = fs.stat(path)
    name = path.rstrip("/").rsplit("/", 1)[-1]
    if st.is_dir:
        from .wandb_local import WandbLocalSource, find_wandb_file

        fs = fs.confined(path)  # a file of the run folder is read only when it really is in the folder
        wandb_file = find_wandb_file(fs, path)
        if wandb_file:
            return WandbLocalSource(fs, wandb_file)
        entries = fs.listdir(path)
        events = sorted(e.name for e in entries if not e.is_dir and is_tfevents_name(e.name))
        if events:
            from .tfevents import TfEventsSource

            return TfEventsSource(fs, [fs.join(path, e) for e in events])
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
    if name.endswith(".wandb"):
        from .wandb_local import WandbLocalSource

        return WandbLocalSource(fs, path)
    if is_tfevents_name(name):
        from .tfevents import TfEventsSource

        return TfEventsSource(fs, [path])
    from .logfile import LogFileSource

    return LogFileSource(fs, path)
