"""An Aim repository (``aim.Run(repo=...)`` -> ``.aim/``): recognised, not read.

Aim keeps its runs in RocksDB databases (``.aim/meta/chunks/<run>/``, ``.aim/seqs/chunks/<run>/``), which only the
``aim`` package (with its ``aimrocks`` binding) can open; no stdlib reader exists. Such a folder is named in one line
(what it is, that it needs the aim package, what to point training-check at instead) rather than read as a folder
of logs (RocksDB's ``*.log`` write-ahead files are no training logs).
"""

from __future__ import annotations

import importlib.util

from ..errors import UnknownFormat
from .files import DirEntry, FileSystem

DATA_DIR = ".aim"
LAYOUT = ("meta", "seqs")  # the two RocksDB trees of every Aim repository


def _is_repo(fs: FileSystem, path: str, names: dict[str, DirEntry]) -> bool:
    return "VERSION" in names and all(n in names and names[n].is_dir for n in LAYOUT)


def refuse_aim(fs: FileSystem, path: str, names: dict[str, DirEntry]) -> None:
    """A one-line ``UnknownFormat`` when the folder is an Aim repository (``.aim/``) or holds one."""
    where = path
    if not _is_repo(fs, path, names):
        sub = names.get(DATA_DIR)
        if sub is None or not sub.is_dir:
            return
        where = fs.join(path, DATA_DIR)
        try:
            if not _is_repo(fs, where, {e.name: e for e in fs.listdir(where)}):
                return
        except Exception:
            return
    installed = importlib.util.find_spec("aim") is not None
    need = "" if installed else "pip install aim; "
    raise UnknownFormat(f"{fs.describe(where)} is an Aim repository (RocksDB, readable only through the aim package: "
                        f"{need}training-check does not read Aim repositories yet): point it at the run's log, or "
                        f"at a TensorBoard or MLflow store the run also writes")
