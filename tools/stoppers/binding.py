"""A stop target bound to its run: what ties a process to the run, and the identity recorded when it was named.

A STOP verdict on a run authorises stopping THAT run, never any process. A process target (pid, pidfile, exact
command line, the programs in a tmux session, a Slurm job) is accepted when it is tied to the run:

- it (or a process it started) holds one of the run's files open (``/proc/PID/fd``), or
- its command line names the run's file or folder (a path argument, or the W&B run id), or
- its working folder is the run's folder, or
- a person named it for this run (``training-check stop``, ``training-check target``, ``watch --stop-target``, or
  a yes to the MCP confirmation question).

The identity (pid, start time, executable, command line, working folder, uid, host) is recorded the first time
the target is accepted; later a target whose identity changed (a PID reused by another program) is accepted
only if it is itself tied to the run.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import asdict, dataclass
from pathlib import PurePosixPath

from ..runref import RunRef
from ..store import Store
from .processes import ProcInfo

MAX_DESCENDANTS = 256
# folders too common to tie anything to a run by themselves
TRIVIAL_DIRS = {"/", "/tmp", "/var/tmp", "/root", "/home", "/usr", "/dev", "/proc", "/etc", "/opt"}


@dataclass
class Identity:
    """Who a target is: enough to tell the same process from a later one reusing its PID."""

    kind: str
    value: str
    host: str | None
    pid: int | None = None
    start: str | None = None
    uid: int | None = None
    exe: str | None = None
    cmdline: str | None = None
    cwd: str | None = None
    named_by: str = ""
    named_at: float = 0.0

    def same_process(self, other: Identity) -> bool:
        return (self.pid, self.start, self.uid, self.exe, self.cmdline) == \
            (other.pid, other.start, other.uid, other.exe, other.cmdline)

    def describe(self) -> str:
        if self.pid is None:
            return f"{self.kind} {self.value}"
        cmd = (self.cmdline or "?")[:80]
        return f"PID {self.pid} ({cmd}, started at tick {self.start})"


def identity_of(kind: str, value: str, host: str | None, info: ProcInfo | None) -> Identity:
    if info is None:
        return Identity(kind, value, host)
    return Identity(kind, value, host, info.pid, info.start, info.uid, info.exe, info.cmdline, info.cwd)


def _key(kind: str, value: str, host: str | None) -> str:
    return f"{kind}:{value}@{host or 'local'}"


def _slot(run_key: str) -> str:
    return f"target:{run_key}"


def recorded(store: Store, run_key: str, kind: str, value: str, host: str | None) -> Identity | None:
    data = (store.get_schedule(_slot(run_key)) or {}).get("targets", {})
    entry = data.get(_key(kind, value, host))
    if not isinstance(entry, dict):
        return None
    try:
        return Identity(**entry)
    except TypeError:
        return None


def record(store: Store, run_key: str, ident: Identity, named_by: str) -> Identity:
    ident.named_by, ident.named_at = named_by, time.time()
    slot = store.get_schedule(_slot(run_key)) or {}
    targets = dict(slot.get("targets") or {})
    targets[_key(ident.kind, ident.value, ident.host)] = asdict(ident)
    store.put_schedule(_slot(run_key), {"targets": dict(list(targets.items())[-50:])})
    return ident


# -- what ties a process to the run --------------------------------------------------------------------------
@dataclass
class RunMarks:
    """The run's files and folders, and its W&B id: what a tied process holds open or names."""

    files: tuple[str, ...]  # exact files
    dirs: tuple[str, ...]  # anything inside is the run's
    home_dirs: tuple[str, ...]  # a working folder equal to one of these ties
    run_id: str | None


def _norm(p: str) -> str:
    return os.path.normpath(p)


def run_marks(ref: RunRef, is_dir: bool | None = None) -> RunMarks:
    """The marks of ``ref`` (``is_dir`` says whether a local path is a folder; looked up when None)."""
    if ref.kind == "wandb":
        return RunMarks((), (), (), ref.run_id)
    path = _norm(ref.path or "/")
    if is_dir is None:
        is_dir = ref.kind == "local" and os.path.isdir(path)
    pp = PurePosixPath(path)
    files: list[str] = [] if is_dir else [path]
    dirs: list[str] = [path] if is_dir else []
    homes: list[str] = [path if is_dir else str(pp.parent)]
    run_id = None
    parts = pp.parts
    if "wandb" in parts:  # .../project/wandb/run-2024..-abc123/...: the run folder, the project folder
        i = len(parts) - 1 - parts[::-1].index("wandb")
        homes.append(str(PurePosixPath(*parts[:i])) if i > 0 else "/")
        if i + 1 < len(parts):
            run_dir = str(PurePosixPath(*parts[: i + 2]))
            dirs.append(run_dir)
            m = re.search(r"-([a-z0-9]{6,})$", parts[i + 1])
            run_id = m.group(1) if m else None
    homes = [h for h in homes if h not in TRIVIAL_DIRS and h != os.path.expanduser("~")]
    return RunMarks(tuple(files), tuple(dirs), tuple(dict.fromkeys(homes)), run_id)


def _inside(path: str, marks: RunMarks) -> bool:
    p = _norm(path)
    return p in marks.files or any(p == d or p.startswith(d.rstrip("/") + "/") for d in marks.dirs)


def tie_of(info: ProcInfo, files: list[str], marks: RunMarks) -> str | None:
    """Why this one process is the run's, or None."""
    for f in files:
        if _inside(f, marks):
            return f"PID {info.pid} holds the run's file {f} open"
    cwd = info.cwd
    for arg in info.argv[1:]:
        for piece in (arg, arg.partition("=")[2]):
            if not piece or "\0" in piece:
                continue
            full = piece if piece.startswith("/") else (os.path.join(cwd, piece) if cwd else None)
            if full and (_inside(full, marks) or _norm(full) in marks.home_dirs):
                return f"the command line of PID {info.pid} names the run ({piece[:120]})"
        if marks.run_id and re.search(rf"(?<![A-Za-z0-9]){re.escape(marks.run_id)}(?![A-Za-z0-9])", arg):
            return f"the command line of PID {info.pid} names W&B run {marks.run_id}"
    if cwd and _norm(cwd) in marks.home_dirs:
        return f"PID {info.pid} works in the run's folder {cwd}"
    return None


def descendants(procs, pid: int) -> list[int]:
    parents = procs.parents()
    children: dict[int, list[int]] = {}
    for child, parent in parents.items():
        children.setdefault(parent, []).append(child)
    out: list[int] = []
    todo = list(children.get(pid, []))
    while todo and len(out) < MAX_DESCENDANTS:
        c = todo.pop()
        if c not in out:
            out.append(c)
            todo.extend(children.get(c, []))
    return out


def tie_of_tree(procs, root_pids: list[int], marks: RunMarks) -> str | None:
    """Why the processes ``root_pids`` (or one they started) are the run's, or None."""
    for root in root_pids:
        for pid in [root, *descendants(procs, root)]:
            info = procs.info(pid)
            if info is None or not info.argv:
                continue
            why = tie_of(info, procs.open_files(pid), marks)
            if why:
                return why if pid == root else f"{why} (started by PID {root})"
    return None


def slurm_tie(fields: dict[str, str], marks: RunMarks) -> str | None:
    """A Slurm job is the run's when its output file is the run's log or its work folder / command names the run."""
    for name in ("StdOut", "StdErr"):
        v = fields.get(name)
        if v and v.startswith("/") and _inside(v, marks):
            return f"the job's {name} is the run's file {v}"
    wd = fields.get("WorkDir")
    if wd and _norm(wd) in marks.home_dirs:
        return f"the job works in the run's folder {wd}"
    cmd = fields.get("Command")
    if cmd and cmd.startswith("/") and _inside(cmd, marks):
        return f"the job's command {cmd} is in the run's folder"
    if marks.run_id and marks.run_id in (fields.get("Command", "") + " " + fields.get("JobName", "")):
        return f"the job names W&B run {marks.run_id}"
    return None
