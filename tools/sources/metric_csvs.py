"""A folder of per-metric CSV files, one metric a file (TorchRL's ``CSVLogger``: ``<exp>/scalars/loss.csv``,
``scalars/reward.csv``, each headerless ``step,value`` rows), on any FileSystem (here or over SSH).

One such file alone is one metric of a run whose other metrics are its neighbours: a TD loss that grows while the
episodes grow longer is an RL run's loss only beside its episode length. So a reference to one of them, or to their
folder, reads the folder: every ``.csv`` file of it whose first line is ``<integer>,<number>``, each named by its
file's stem, incrementally per file (``appended.py``). A row that is not ``step,value`` costs that row (counted in a
note). Recognised only when at least two files have that shape; a lone headerless CSV stays a log file.
"""

from __future__ import annotations

from ..points import BatchBuilder, parse_number
from .appended import MetricFile, bad_rows_note, read_appended
from .base import Progress, ReadResult, RunInfo
from .files import DirEntry, FileSystem

CURSOR_VERSION = 1
HEAD_BYTES = 256  # enough of a file's first line to tell a step,value row
MAX_SNIFFED = 64  # files of a folder looked at for the shape


def _step_value(line: bytes) -> tuple[int, float] | None:
    cells = line.decode("utf-8", errors="replace").strip().split(",")
    if len(cells) != 2:
        return None
    step, value = parse_number(cells[0]), parse_number(cells[1])
    if step is None or value is None or step != step or abs(step) >= 2 ** 62 or step != int(step):
        return None
    return int(step), value


def _per_metric(fs: FileSystem, path: str, size: int) -> bool:
    if size < 3:
        return False
    head = fs.read_at(path, 0, min(size, HEAD_BYTES))
    nl = head.find(b"\n")
    return nl > 0 and _step_value(head[:nl]) is not None


def find_metric_csvs(fs: FileSystem, folder: str, entries: list[DirEntry]) -> MetricCsvsSource | None:
    """The per-metric CSVs of ``folder`` as one run, when two or more of its ``.csv`` files are ``step,value`` rows."""
    csvs = sorted((e for e in entries if not e.is_dir and e.name.lower().endswith(".csv")), key=lambda e: e.name)
    shaped = [e.name for e in csvs[:MAX_SNIFFED] if _per_metric(fs, fs.join(folder, e.name), e.size)]
    return MetricCsvsSource(fs, folder, shaped) if len(shaped) >= 2 else None


def metric_csvs_around(fs: FileSystem, path: str, size: int) -> MetricCsvsSource | None:
    """The per-metric folder a ``step,value`` CSV file named by a reference belongs to, None when it is alone (or
    not of that shape): its folder is read, confined to it."""
    if not path.lower().endswith(".csv") or "/" not in path or not _per_metric(fs, path, size):
        return None
    folder = path.rsplit("/", 1)[0] or "/"
    inside = fs.confined(folder)
    return find_metric_csvs(inside, folder, inside.listdir(folder))


class MetricCsvsSource:
    """A folder of per-metric CSVs, kind ``"metric_csvs"``."""

    kind = "metric_csvs"
    chosen = None

    def __init__(self, fs: FileSystem, root: str, names: list[str]):
        self.fs = fs
        self.root = root
        self.names = names
        self.source_id = f"metric_csvs:{fs.describe(root)}"

    def describe(self) -> str:
        return f"per-metric CSV folder {self.fs.describe(self.root)} ({len(self.names)} metrics, one a file)"

    def read(self, cursor: dict | None = None, progress: Progress | None = None) -> ReadResult:
        cur = cursor if cursor and cursor.get("v") == CURSOR_VERSION else None
        files = []
        for name in self.names:
            path = self.fs.join(self.root, name)
            try:
                files.append(MetricFile(name[: -len(".csv")], path, self.fs.stat(path).size))
            except Exception:
                continue  # removed since: its points read so far stay
        got = read_appended(self.fs, files, (cur or {}).get("files"), _parse_rows)
        notes = [n for n in (bad_rows_note(got.bad, "row(s) of per-metric CSVs"),) if n]
        if got.reset:
            notes.insert(0, f"a CSV of {self.fs.describe(self.root)} was rewritten: re-read from the start")
        info = RunInfo(name=self.root.rstrip("/").rsplit("/", 1)[-1] or None)
        return ReadResult(got.builder.build(), {"v": CURSOR_VERSION, "files": got.files}, reset=got.reset, info=info,
                          notes=notes, more=got.more)


def _parse_rows(f: MetricFile, lines: list[bytes], state: dict, builder: BatchBuilder) -> int:
    """``step,value`` rows of one file; anything else is a bad row."""
    bad = 0
    steps, values = builder.column(f.key)
    for line in lines:
        got = _step_value(line)
        if got is None:
            bad += bool(line.strip())
            continue
        steps.append(got[0])
        values.append(got[1])
    return bad
