"""A stop target bound to its run: what makes a process the run's own, and the identity recorded when it was named.

A STOP verdict on a run authorises stopping THAT run, never any process. A target is the run's when:

- a process: it holds one of the run's files (the log, an event file, the ``.wandb`` file, anything inside a run
  folder) open FOR WRITING (``/proc/PID/fdinfo``: O_WRONLY or O_RDWR), or its output goes through a pipe into a
  process that does (``python train.py | tee train.log``), or it is a launcher (torchrun, a shell, sbatch's script)
  whose whole process tree is the run: a writer, the processes between the launcher and it, what a writer started,
  the writer's sibling ranks (same program), and nothing else. A terminal multiplexer or a daemon (tmux, screen,
  sshd, systemd) is never a launcher;
- a tmux session: a pane's process tree writes the run's file and every pane is the run's or an idle shell (the
  tmux server is never stopped; a session that only works in the folder is not the run's);
- a Slurm job: its ``StdOut``/``StdErr`` is the run's file, or one of its processes (``scontrol listpids``) writes
  it. ``WorkDir``, the command and the job name never tie by themselves;
- or a person named it for this run (``training-check stop``, ``training-check target``, ``watch --stop-target``, or
  a yes to the MCP confirmation question).

Readers (``tail -f``), editors (``vim train.log``), copiers (``rsync -a`` of the folder), another run's trainer
working in the same folder, and a command line that merely mentions the run never tie.

The identity (pid, start time, executable, command line, working folder, uid, host) is recorded the first time
the target is accepted; later a target whose identity changed (a PID reused by another program) is accepted
only if it is itself the run's.

``target_tie(stopper, plan, ref)`` is the one check (stop_run and the watcher both call it).
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import asdict, dataclass
from pathlib import PurePosixPath

from ..rundata import escape_controls
from ..runref import RunRef
from ..store import Store
from . import slurm, tmux
from .base import Stopper, StopPlan
from .processes import LocalProcesses, OpenFile, ProcInfo, RemoteProcesses


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
        cmd = escape_controls((self.cmdline or "?")[:80])
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


# -- what makes a process the run's -------------------------------------------------------------------------
@dataclass(frozen=True)
class RunMarks:
    """The run's files and folders, and its W&B id: what a process of the run writes."""

    files: tuple[str, ...]  # exact files
    dirs: tuple[str, ...]  # anything inside is the run's
    run_id: str | None  # a W&B run id: files under .../wandb/run-*-<id>/ are the run's


@dataclass(frozen=True)
class Tie:
    """Whether a target is the run's, and why (or why not), in one line."""

    ok: bool
    why: str


def _norm(p: str) -> str:
    return os.path.normpath(p)


_WANDB_DIR = re.compile(r"^(?:offline-)?run-[0-9]{8}_[0-9]{6}-([a-z0-9]{6,})$")


def run_marks(ref: RunRef, is_dir: bool | None = None) -> RunMarks:
    """The marks of ``ref`` (``is_dir`` says whether a local path is a folder; looked up when None)."""
    if ref.kind == "wandb":
        return RunMarks((), (), ref.run_id)
    path = _norm(ref.path or "/")
    if is_dir is None:
        is_dir = ref.kind == "local" and os.path.isdir(path)
    paths = [path]
    if ref.kind == "local":
        real = os.path.realpath(path)  # a process's descriptor names the real file
        if real != path:
            paths.append(real)
    files: list[str] = [] if is_dir else paths
    dirs: list[str] = paths if is_dir else []
    run_id = None
    parts = PurePosixPath(path).parts
    if "wandb" in parts:  # .../project/wandb/run-2024..-abc123/...: the run folder
        i = len(parts) - 1 - parts[::-1].index("wandb")
        if i + 1 < len(parts):
            m = _WANDB_DIR.match(parts[i + 1])
            run_id = m.group(1) if m else None
    return RunMarks(tuple(files), tuple(d for d in dict.fromkeys(dirs) if d != "/"), run_id)


def is_run_file(link: str, marks: RunMarks) -> bool:
    """Is this descriptor link one of the run's files? (a deleted file, a pipe or a socket never is)"""
    if not link.startswith("/") or link.endswith(" (deleted)"):
        return False
    p = _norm(link)
    if p in marks.files or any(p.startswith(d.rstrip("/") + "/") for d in marks.dirs):
        return True
    if marks.run_id:
        parts = PurePosixPath(p).parts
        for i, part in enumerate(parts[:-1]):
            m = _WANDB_DIR.match(part)
            if m and m.group(1) == marks.run_id and i > 0 and parts[i - 1] == "wandb":
                return True
    return False


MAX_TREE = 1024  # processes looked at under one launcher; a bigger tree is not checked (refused)
# never a launcher of a run, even when only the run is left under them: stopping one stops far more than the run
NOT_LAUNCHERS = {"tmux", "tmux: server", "screen", "SCREEN", "dtach", "abduco", "zellij", "sshd", "systemd", "init",
                 "login", "mosh-server", "slurmd", "slurmstepd", "containerd-shim", "dockerd", "supervisord", "nohup"}
SHELLS = {"bash", "sh", "zsh", "fish", "dash", "ksh", "tcsh", "csh", "-bash", "-sh", "-zsh"}


def _base(info: ProcInfo) -> str:
    return os.path.basename(info.argv[0]) if info.argv else ""


def _program(info: ProcInfo) -> tuple:
    """What program a process runs: its executable and script (``python train.py``, ``python -m pkg``)."""
    argv = info.argv
    return (info.exe, *argv[:3]) if argv[1:2] in (("-m",), ("-c",)) else (info.exe, *argv[:2])


class _Table:
    """One look at a process table: children, infos and open descriptors, each read once."""

    def __init__(self, procs: LocalProcesses | RemoteProcesses) -> None:
        self.procs = procs
        self.parents: dict[int, int] = procs.parents()
        self.children: dict[int, list[int]] = {}
        for child, parent in self.parents.items():
            self.children.setdefault(parent, []).append(child)
        self._info: dict[int, ProcInfo | None] = {}
        self._fds: dict[int, list[OpenFile]] = {}

    def info(self, pid: int) -> ProcInfo | None:
        if pid not in self._info:
            self._info[pid] = self.procs.info(pid)
        return self._info[pid]

    def fds(self, pid: int) -> list[OpenFile]:
        if pid not in self._fds:
            self._fds[pid] = self.procs.fds(pid)
        return self._fds[pid]

    def tree(self, root: int) -> list[int] | None:
        """``root`` and everything under it, or None when that is more than MAX_TREE processes."""
        out, seen, todo = [root], {root}, list(self.children.get(root, []))
        while todo:
            c = todo.pop()
            if c in seen:
                continue
            seen.add(c)
            out.append(c)
            if len(out) > MAX_TREE:
                return None
            todo.extend(self.children.get(c, []))
        return out

    def live(self, pid: int) -> bool:
        info = self.info(pid)
        return info is not None and not info.zombie and bool(info.argv)

    def writes(self, pid: int, marks: RunMarks) -> str | None:
        for f in self.fds(pid):
            if f.writable and is_run_file(f.link, marks):
                return f.link
        return None

    def feeds(self, pid: int, writers: dict[int, str]) -> int | None:
        """The writer whose standard input is the pipe this process's stdout or stderr goes into."""
        out_pipes = {f.link for f in self.fds(pid) if f.fd in (1, 2) and f.link.startswith("pipe:")}
        if not out_pipes:
            return None
        for w in writers:
            if w != pid and any(f.fd == 0 and f.link in out_pipes for f in self.fds(w)):
                return w
        return None


def _writers_near(t: _Table, pids: list[int], marks: RunMarks) -> dict[int, str]:
    found = {}
    for pid in pids:
        if t.live(pid):
            link = t.writes(pid, marks)
            if link:
                found[pid] = link
    return found


def _tree_tie(t: _Table, root: int, marks: RunMarks, *, what: str) -> Tie:
    """Is the process tree under ``root`` the run, all of it? ``what`` names ``root`` in the answer."""
    pids = t.tree(root)
    if pids is None:
        return Tie(False, f"{what} has more than {MAX_TREE} processes under it (too many to check)")
    pids = [p for p in pids if t.live(p)]
    writers = _writers_near(t, pids, marks)
    if not writers:
        return Tie(False, f"neither {what} nor any process it started has the run's files open for writing "
                          f"(reading, editing, copying or naming them, or working in the folder, does not count)")
    if root in writers:
        return Tie(True, f"{what} writes the run's file {writers[root]}")
    in_tree = set(pids)
    core = set(writers)
    for pid in pids:  # a process piping its output into a writer (python train.py | tee train.log)
        if t.feeds(pid, writers) is not None:
            core.add(pid)
    chain = set(core)  # the core and the processes between the launcher and it
    for c in core:
        p = t.parents.get(c, -1)
        while p in in_tree and p not in chain:
            chain.add(p)
            p = t.parents.get(p, -1)
    # the same program as a process of the chain (a DataLoader worker forked from the trainer, another rank of the
    # launcher); shells excepted: two shells are not one program
    programs = set()
    for c in chain:
        ci = t.info(c)
        if ci is not None and _base(ci) not in SHELLS:
            programs.add(_program(ci))
    related: set[int] = set()
    for pid in pids:
        pi = t.info(pid)
        if pid in core or (pid not in chain and pi is not None and _program(pi) in programs):
            related.update(q for q in (t.tree(pid) or [pid]) if q in in_tree)  # with what it started
    related |= chain
    related.add(root)
    stray = [p for p in pids if p not in related]
    if stray:
        si = t.info(stray[0])
        cmd = si.short(60) if si else "?"
        return Tie(False, f"{what} also runs PID {stray[0]} ({cmd}), which is not part of the run (stopping it "
                          f"would stop more than the run)")
    w, link = next(iter(writers.items()))
    return Tie(True, f"{what} runs only the run: PID {w} writes the run's file {link}")


def process_tie(procs, pid: int, marks: RunMarks) -> Tie:
    """Is process ``pid`` the run's own: the writer, a process piping into the writer, or a launcher whose whole
    tree is the run?"""
    t = _Table(procs)
    info = t.info(pid)
    if info is None or not t.live(pid):
        return Tie(False, f"PID {pid} is gone")
    link = t.writes(pid, marks)
    if link:
        return Tie(True, f"PID {pid} writes the run's file {link}")
    siblings = [s for s in t.children.get(info.ppid or -1, []) if s != pid]
    w = t.feeds(pid, _writers_near(t, siblings, marks))
    if w is not None:
        return Tie(True, f"PID {pid}'s output goes through a pipe into PID {w}, which writes the run's file")
    if _base(info) in NOT_LAUNCHERS or (info.exe and os.path.basename(info.exe) in NOT_LAUNCHERS):
        return Tie(False, f"PID {pid} ({info.short(40)}) is a terminal multiplexer or a daemon, never a run's "
                          f"launcher")
    return _tree_tie(t, pid, marks, what=f"PID {pid}")


def tmux_tie(procs, pane_pids: list[int], marks: RunMarks) -> Tie:
    """Is the tmux session whose panes run ``pane_pids`` the run's: a pane's tree writes the run's file and every
    other pane is the run's too or an idle shell?"""
    if not pane_pids:
        return Tie(False, "the session has no panes that can be inspected")
    t = _Table(procs)
    found: Tie | None = None
    for pane in pane_pids:
        tie = _tree_tie(t, pane, marks, what=f"pane process {pane}")
        if tie.ok:
            found = found or tie
            continue
        info = t.info(pane)
        idle = info is not None and _base(info) in SHELLS and not [c for c in t.children.get(pane, []) if t.live(c)]
        if not idle and tie.why.startswith("neither"):
            return Tie(False, f"pane process {pane} ({info.short(40) if info else '?'}) of the session is not "
                              f"part of the run")
        if not idle:
            return tie
    return Tie(True, f"a program of the session: {found.why}") if found else \
        Tie(False, "no pane of the session writes the run's files (a session that only works in the folder, reads "
                   "or edits the log is not the run's)")


def slurm_tie(fields: dict[str, str], job_pids: list[int], procs, marks: RunMarks) -> Tie:
    """Is the Slurm job the run's: its StdOut/StdErr is the run's file, or one of its processes writes it?"""
    ambiguous = set(fields.get(slurm.AMBIGUOUS, "").split(","))
    for name in ("StdOut", "StdErr"):
        v = fields.get(name)
        if v and name not in ambiguous and v.startswith("/") and is_run_file(v, marks):
            return Tie(True, f"the job's {name} is the run's file {v}")
    t = _Table(procs)
    writers = _writers_near(t, job_pids, marks)
    if writers:
        w, link = next(iter(writers.items()))
        return Tie(True, f"PID {w} of the job writes the run's file {link}")
    return Tie(False, "neither the job's output file nor any of its processes writes the run's files (its work "
                      "folder, command or name does not count)")


def _other_machine(host: str | None, ref: RunRef) -> str | None:
    """Why the run's files cannot be on the machine the target is on (a path names a file on ONE machine), or None:
    a local run and a target over SSH, an ssh:// run and a target here or on another host."""
    if ref.kind == "local":
        return f"the run's files are on this machine, the target on {host}" if host else None
    if ref.kind != "ssh":
        return None
    if host is None:
        return f"the run's files are on {ref.host}, the target on this machine"
    from ..errors import TrainingCheckError
    from ..sources.ssh import parse_host_spec, resolve_target, target_for_ref

    try:
        user, h, port = parse_host_spec(host)
        there, run_at = resolve_target(h, user=user, port=port), target_for_ref(ref)
    except TrainingCheckError as e:
        return f"cannot tell which machine the target is on ({e})"
    if (there.user, there.hostname, there.port) != (run_at.user, run_at.hostname, run_at.port):
        return f"the run's files are on {run_at.label}, the target on {there.label}"
    return None


def target_tie(stopper: Stopper, plan: StopPlan, ref: RunRef) -> Tie:
    """THE check: is the planned target (a process, a tmux session, a Slurm job, the W&B run) the run ``ref``'s own?

    Read-only. ``stop_run`` calls it before any stop; the watcher calls it for each run it may stop (a target named
    once on the command line for several runs is the run's for at most one of them)."""
    kind, value = plan.kind, plan.value
    if kind == "wandb" or value is None:
        return Tie(True, f"it is the W&B run {ref.key} itself")
    elsewhere = _other_machine(stopper.host, ref)
    if elsewhere:
        return Tie(False, elsewhere)
    marks = run_marks(ref)
    if kind == "tmux":
        return tmux_tie(stopper.procs, tmux.pane_pids(stopper.runner, value), marks)
    if kind == "slurm":
        return slurm_tie(slurm.job_fields(stopper.runner, value), slurm.job_pids(stopper.runner, value),
                         stopper.procs, marks)
    if plan.process is None:
        return Tie(False, f"{kind} {value} is not a process that can be inspected")
    return process_tie(stopper.procs, plan.process.pid, marks)


def descendants(procs: LocalProcesses | RemoteProcesses, pid: int) -> list[int]:
    """Every process under ``pid`` (none past MAX_TREE): what a person-named target started."""
    return [p for p in (_Table(procs).tree(pid) or []) if p != pid]
