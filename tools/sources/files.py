"""Byte access to files, local or remote, so every file-based source works over SSH too.

A ``FileSystem`` reads byte ranges (a tail never downloads the whole file);
``LocalFileSystem`` is this machine, the SSH module provides ``SftpFileSystem``.

Run files are hostile: only regular files are read (a FIFO, a device or a socket named like a log is refused in one
line, never waited on: files are opened non-blocking), nothing under /proc, /sys or /dev, and inside a run folder
(``confined``) a symbolic link that leaves the folder is refused.
"""

from __future__ import annotations

import errno
import os
import stat as stat_mod
from dataclasses import dataclass
from typing import Protocol

from ..errors import BadInput, RunNotFound, SourceUnreachable


@dataclass(frozen=True)
class FileStat:
    size: int
    mtime: float
    is_dir: bool
    identity: str | None = None  # inode/device where known: a new identity means a new file


@dataclass(frozen=True)
class DirEntry:
    name: str
    is_dir: bool
    size: int
    mtime: float


class FileSystem(Protocol):
    def confined(self, root: str) -> FileSystem: ...  # the same files, refusing any whose real path leaves root

    def describe(self, path: str) -> str: ...  # e.g. "/abs/path" or "ssh://user@host:22/abs/path"

    def stat(self, path: str) -> FileStat: ...  # raises RunNotFound / SourceUnreachable

    def read_at(self, path: str, offset: int, length: int) -> bytes: ...  # may return fewer bytes at EOF

    def listdir(self, path: str) -> list[DirEntry]: ...

    def join(self, *parts: str) -> str: ...


SPECIAL_ROOTS = ("/proc/", "/sys/", "/dev/")  # kernel and device files are never run files
# Where credentials live, by their place: never a run file, so a reference an agent was talked into (``../../etc/
# shadow``, ``~/.ssh/id_ed25519``) reads nothing, and no sample line of it reaches an answer.
CREDENTIAL_FILES = ("/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers",
                    "/etc/master.passwd")
CREDENTIAL_ROOTS = ("/etc/ssl/private/", "/etc/sudoers.d/", "/etc/ssh/")
CREDENTIAL_PARTS = frozenset({".ssh", ".gnupg", ".aws", ".netrc", ".pgpass", ".git-credentials", ".kube", ".docker",
                              ".azure", ".password-store"})


def credential_place(real: str) -> bool:
    """Whether a real path is where credentials are kept (system password files, SSH/GnuPG/cloud folders)."""
    return (real in CREDENTIAL_FILES or real.startswith(CREDENTIAL_ROOTS)
            or not CREDENTIAL_PARTS.isdisjoint(real.split("/")))


def credential_refused(where: str) -> BadInput:
    return BadInput(f"{where} is where credentials are kept, not a run file: training-check never reads it (name the "
                    f"run's log or folder)")


def kind_of(mode: int) -> str | None:
    """What a non-regular, non-folder file is ("a FIFO", "a socket", ...), None for a regular file or a folder."""
    if stat_mod.S_ISREG(mode) or stat_mod.S_ISDIR(mode):
        return None
    if stat_mod.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat_mod.S_ISSOCK(mode):
        return "a socket"
    if stat_mod.S_ISCHR(mode) or stat_mod.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def not_regular(where: str, kind: str) -> BadInput:
    return BadInput(f"{where} is {kind}, not a regular file: training-check reads only regular files (point it at "
                    f"the log or run folder itself)")


def outside(where: str, real: str, root: str) -> BadInput:
    return BadInput(f"{where} leads to {real}, outside the run folder {root} (a symbolic link out of the folder is "
                    f"refused): name that file itself if it is the run's")


def is_inside(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip("/") + "/")


class LocalFileSystem:
    """This machine's files (``root``: the run folder every file must really be in, or None)."""

    def __init__(self, root: str | None = None):
        self.root = os.path.realpath(root) if root else None

    def confined(self, root: str) -> LocalFileSystem:
        return LocalFileSystem(root)

    def describe(self, path: str) -> str:
        return path

    def _check_real(self, path: str, real: str) -> None:
        if real.startswith(SPECIAL_ROOTS) or real in ("/proc", "/sys", "/dev"):
            raise BadInput(f"{path} is a kernel or device file ({real}), not a run file")
        if credential_place(real):
            raise credential_refused(path)
        if self.root is not None and not is_inside(real, self.root):
            raise outside(path, real, self.root)

    def _error(self, path: str, e: OSError) -> Exception:
        if e.errno == errno.ENOENT:
            return RunNotFound(f"no such file: {path}; check the path (run references: see README)")
        if e.errno in (errno.EACCES, errno.EPERM):
            return BadInput(f"permission denied reading {path}; make it readable by this user")
        if e.errno == errno.EISDIR:
            return BadInput(f"{path} is a directory, not a log file")
        return SourceUnreachable(f"cannot read {path}: {e.strerror or e}")

    def stat(self, path: str) -> FileStat:
        try:
            st = os.stat(path)
        except OSError as e:
            raise self._error(path, e) from None
        self._check_real(path, os.path.realpath(path))
        kind = kind_of(st.st_mode)
        if kind:
            raise not_regular(path, kind)
        return FileStat(st.st_size, st.st_mtime, stat_mod.S_ISDIR(st.st_mode), f"{st.st_dev}:{st.st_ino}")

    def read_at(self, path: str, offset: int, length: int) -> bytes:
        if offset < 0 or length < 0:
            raise BadInput(f"bad byte range {offset}+{length} for {path}")
        try:  # non-blocking: opening a FIFO with no writer returns at once (and is refused below)
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
        except OSError as e:
            raise self._error(path, e) from None
        try:
            st = os.fstat(fd)
            kind = "a folder" if stat_mod.S_ISDIR(st.st_mode) else kind_of(st.st_mode)
            if kind:
                raise not_regular(path, kind)
            self._check_real(path, os.readlink(f"/proc/self/fd/{fd}"))  # the file really opened, not a new link
            return os.pread(fd, length, offset)
        except OSError as e:
            raise self._error(path, e) from None
        finally:
            os.close(fd)

    def listdir(self, path: str) -> list[DirEntry]:
        self._check_real(path, os.path.realpath(path))
        try:
            out = []
            with os.scandir(path) as it:
                for e in it:
                    try:
                        st = e.stat()
                    except OSError:
                        continue
                    out.append(DirEntry(e.name, stat_mod.S_ISDIR(st.st_mode), st.st_size, st.st_mtime))
            return out
        except OSError as e:
            raise self._error(path, e) from None

    def join(self, *parts: str) -> str:
        return os.path.join(*parts)
