"""What stop_run stops when it is given no target, and a warning when a person names another run's process.

- The remembered target: the one a person named for the run with ``training-check target RUN TARGET``; every
  later stop of the run without a target (the CLI's ``stop``, MCP ``stop_run``, ``watch --allow-stop``) uses it.
  Kept in the store under ``default-target:<run key>`` (``NamedTarget`` in records.py).
- The run's writer: on this machine, the one process of this user that holds the run's log (or a file in the
  run's folder) open for writing, as ``python train.py > train.log`` does. Readers (``tail -f``, an editor that
  only reads) never count. Two or more writers are not guessed between: the caller is told their PIDs.
- ``other_runs_files``: the logs a person-named process writes that are not this run's (another checked run's
  log, or any file that looks like a training log): a likely typo in the PID, said as a warning.

Only ``/proc`` of this machine is read (``/proc/PID/fd`` and the access mode in ``/proc/PID/fdinfo``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from .records import NamedTarget
from .runref import LOG_SUFFIXES, RunRef
from .stoppers.processes import LocalProcesses
from .store import Store

SLOT = "default-target:"
MAX_FDS = 4096  # open files looked at per process
LOG_NAMES = ("events.out.tfevents.",)  # file name prefixes of run files beside LOG_SUFFIXES


def remember(store: Store, run_key: str, target: str, host: str | None) -> NamedTarget:
    """Make ``target`` (on ``host``, None = this machine) the run's default stop target."""
    named = NamedTarget(target=target, host=host, named_at=time.time())
    store.put_schedule(SLOT + run_key, named.to_dict())
    return named


def remembered(store: Store, run_key: str) -> NamedTarget | None:
    """The target a person named for the run, or None."""
    return NamedTarget.from_dict(store.get_schedule(SLOT + run_key))


# -- who writes a file -------------------------------------------------------------------------------------------
def written_files(pid: int, only: Callable[[str], bool] = lambda path: True) -> list[str]:
    """The files process ``pid`` holds open for writing (O_WRONLY or O_RDWR), of those ``only`` accepts (the
    access mode is read only for them); empty when they cannot be read."""
    base = f"/proc/{pid}"
    try:
        fds = os.listdir(f"{base}/fd")[:MAX_FDS]
    except OSError:
        return []
    out = []
    for fd in fds:
        try:
            link = os.readlink(f"{base}/fd/{fd}").removesuffix(" (deleted)")
            if not link.startswith("/") or not only(link):
                continue
            with open(f"{base}/fdinfo/{fd}", encoding="ascii", errors="replace") as f:
                flags = next((ln.split()[1] for ln in f if ln.startswith("flags:")), "0")
            if int(flags, 8) & os.O_ACCMODE in (os.O_WRONLY, os.O_RDWR):
                out.append(link)
        except (OSError, IndexError, ValueError):
            continue
    return out


def run_paths(ref: RunRef) -> tuple[str, bool] | None:
    """(the run's file or folder on this machine, resolved; whether it is a folder), or None for a run elsewhere."""
    if ref.kind != "local" or not ref.path:
        return None
    path = os.path.realpath(ref.path)
    return path, os.path.isdir(path)


def _is_runs(file: str, path: str, is_dir: bool) -> bool:
    return file.startswith(path.rstrip("/") + "/") if is_dir else file == path


@dataclass(frozen=True)
class Writer:
    """A process that writes one of the run's files."""

    pid: int
    cmdline: str
    file: str


def writers(ref: RunRef, procs: LocalProcesses | None = None) -> list[Writer]:
    """This user's processes on this machine that hold one of the run's files open for writing (never
    training-check itself or its ancestors)."""
    where = run_paths(ref)
    if where is None:
        return []
    path, is_dir = where
    procs = procs or LocalProcesses()
    euid, protected = procs.euid(), procs.protected()
    found = []
    for pid in procs.pids():
        if pid in protected:
            continue
        files = written_files(pid, lambda f: _is_runs(f, path, is_dir))
        if not files:
            continue
        info = procs.info(pid)
        if info is None or info.zombie or info.uid != euid:
            continue
        found.append(Writer(pid, info.short(), files[0]))
    return sorted(found, key=lambda w: w.pid)


def _exited(named: NamedTarget) -> bool:
    """A remembered ``pid:N`` on this machine whose process is gone (a reused PID is not gone: stop_run's guard
    refuses it by its recorded identity)."""
    head, _, pid = named.target.partition(":")
    if named.target.isdigit():
        head, pid = "pid", named.target
    return named.host is None and head == "pid" and pid.isdigit() and not os.path.exists(f"/proc/{int(pid)}")


def _is_wandb_service(w: Writer) -> bool:
    """W&B's own service process (``wandb-core``, started by ``wandb.init`` in the trainer): it writes the run's
    files on the trainer's behalf; stopping it would not stop the training."""
    first = w.cmdline.split(" ", 1)[0]
    return os.path.basename(first) == "wandb-core" or " wandb service" in f" {w.cmdline}"


def _innermost(found: list[Writer], procs: LocalProcesses | None = None) -> Writer | None:
    """When the writers form one chain of parents and children (``bash run.sh > log`` starting ``python
    train.py``), the innermost: the training process itself. None when they do not (two unrelated writers)."""
    if len(found) < 2:
        return None
    parents = (procs or LocalProcesses()).parents()
    pids = {w.pid for w in found}
    for w in found:
        ancestors: set[int] = set()
        p = parents.get(w.pid)
        while p is not None and p > 1 and p not in ancestors and len(ancestors) < 256:
            ancestors.add(p)
            p = parents.get(p)
        if pids - {w.pid} <= ancestors:
            return w
    return None


@dataclass(frozen=True)
class DefaultTarget:
    """The target stop_run uses when none was given (``target`` None: there is none, ``why`` says why)."""

    target: str | None
    host: str | None
    why: str
    short: str = ""  # where it came from, in a few words


def default_target(ref: RunRef, store: Store, host: str | None = None) -> DefaultTarget:
    """The remembered target of the run (when on ``host`` or no host was asked for), else the one process that
    writes the run's log here, else none (``why`` says what was looked at)."""
    named = remembered(store, ref.key)
    gone = ""
    if named is not None and (host is None or host == named.host):
        if not _exited(named):
            mins = (time.time() - named.named_at) / 60
            return DefaultTarget(named.target, named.host, f"{named.target} named for this run with training-check "
                                                           f"target {mins:.0f} min ago", "the target named for the run")
        gone = f"{named.target}, named for the run, has exited; "
    if ref.kind == "wandb":
        return DefaultTarget(None, host, "a W&B run stops through its API")
    if host is not None or ref.kind != "local":
        return DefaultTarget(None, host, "no target was named for the run, and the process that writes its log "
                                         "is looked for on this machine only")
    found = writers(ref)
    trainers = [w for w in found if not _is_wandb_service(w)]
    found = trainers or found  # W&B's service (a child of the trainer) writes the .wandb file for it
    chain = _innermost(found)
    if len(found) == 1 or chain is not None:
        w = chain or found[0]
        launchers = [f"{o.pid} ({o.cmdline[:60]})" for o in found if o is not w]
        also = f"; the processes that started it write the log too (PIDs {', '.join(launchers)})" if launchers else ""
        return DefaultTarget(f"pid:{w.pid}", None, f"{gone}PID {w.pid} ({w.cmdline}) is the one process that holds "
                                                   f"the run's log {w.file} open for writing{also}",
                             gone + ("the one process writing the run's log" if not launchers else
                                     "the innermost of the processes writing the run's log"))
    if not found:
        return DefaultTarget(None, None, f"{gone}no process of yours holds {ref.path} open for writing (the run has "
                                         f"ended, or writes it from another machine or user)")
    pids = ", ".join(f"{w.pid} ({w.cmdline[:60]})" for w in found[:6])
    return DefaultTarget(None, None, f"{gone}{len(found)} processes hold {ref.path} open for writing (PIDs {pids}): "
                                     f"say which one")


# -- a person-named process that writes another run's log -------------------------------------------------------
def _looks_like_log(path: str) -> bool:
    name = os.path.basename(path)
    return name.endswith(LOG_SUFFIXES) or name.startswith(LOG_NAMES) or name == "trainer_state.json"


def other_runs_files(pids: list[int], ref: RunRef, store: Store) -> list[str]:
    """What the processes ``pids`` write that is another run's: one line per file (at most 3), empty when none.
    A file is another run's when training-check has checked it as a run, or it looks like a training log and is
    not this run's."""
    where = run_paths(ref)
    lines: list[str] = []
    for pid in pids:
        files = list(dict.fromkeys(written_files(pid)))  # stdout and stderr are often the same file
        if where is not None and any(_is_runs(f, *where) for f in files):
            return []  # it writes this run's log too: the run's own process
        for f in files:
            checked = bool(store.recent_assessments(f"file:{f}", 1))
            if checked or _looks_like_log(f):
                what = f"the log of run file:{f}, which training-check has checked" if checked else \
                    f"{f}, a log that is not this run's"
                lines.append(f"PID {pid} writes {what}: is it the right process?")
        if len(lines) >= 3:
            break
    return lines[:3]
