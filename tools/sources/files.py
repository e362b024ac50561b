"""Byte access to files, local or remote, so every file-based source works over SSH too.

A ``FileSystem`` reads byte ranges (a tail never downloads the whole file);
``LocalFileSystem`` is this machine, the SSH module provides ``SftpFileSystem``.
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
    def describe(self, path: str) -> str: ...  # e.g. "/abs/path" or "ssh://user@host:22/abs/path"

    def stat(self, path: str) -> FileStat: ...  # raises RunNotFound / SourceUnreachable

    def read_at(self, path: str, offset: int, length: int) -> bytes: ...  # may return fewer bytes at EOF

    def listdir(self, path: str) -> list[DirEntry]: ...

    def join(self, *parts: str) -> str: ...


class LocalFileSystem:
    """This machine's files."""

    def describe(self, path: str) -> str:
        return path

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
        return FileStat(st.st_size, st.st_mtime, stat_mod.S_ISDIR(st.st_mode), f"{st.st_dev}:{st.st_ino}")

    def read_at(self, path: str, offset: int, length: int) -> bytes:
        try:
            with open(path, "rb") as f:
                f.seek(offset)
                return f.read(length)
        except OSError as e:
            raise self._error(path, e) from None

    def listdir(self, path: str) -> list[DirEntry]:
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
