"""What the trackers' offline stores share (Comet's ``.zip`` of ``messages.json``, Neptune's ``data-N.log``
operation logs, ClearML's ``metrics.jsonl`` session): files of JSON lines, read as new records since a cursor.

A plain file (written while the run runs) is read by byte offset, complete lines only, one part of at most
``PART_BYTES`` at a time; a member of a zip archive (written once, when the run ends) is read whole when the
archive is new or changed (``reset`` when it replaced an archive already read). The archive is opened through the
FileSystem (a range reader: the zip is never loaded whole), its members' declared sizes capped
(``MAX_MEMBER_BYTES``), a line longer than ``MAX_RECORD_BYTES`` skipped and counted, a line that is not JSON
counted and skipped: a bad line costs that line. Nothing is ever written.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .. import limits
from ..errors import BadInput, TrainingCheckError
from ..rundata import clean
from .appended import PART_BYTES, new_lines
from .files import DirEntry, FileSystem

ZIP_MAGIC = b"PK\x03\x04"
MAX_MEMBER_BYTES = 1 << 30  # a zip member's declared (uncompressed) size: past it, not a store we read
MAX_MEMBERS = 10_000  # entries of one archive's directory
MAX_CANDIDATES = 64  # the newest runs (by mtime) looked at to find the latest run of a folder of runs
MAX_META_BYTES = 1 << 20  # a run's small JSON description (experiment.json, metadata.json, task.json)


class RangeFile(io.RawIOBase):
    """A file of a FileSystem as a seekable binary stream (what ``zipfile`` reads), by ranges: never read whole."""

    def __init__(self, fs: FileSystem, path: str, size: int):
        self.fs, self.path, self.size, self.pos = fs, path, size, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.pos

    def seek(self, offset: int, whence: int = 0) -> int:
        base = {0: 0, 1: self.pos, 2: self.size}[whence]
        self.pos = max(0, base + offset)
        return self.pos

    def readinto(self, buffer) -> int:
        n = min(len(buffer), max(0, self.size - self.pos))
        if n == 0:
            return 0
        data = self.fs.read_at(self.path, self.pos, n)
        buffer[: len(data)] = data
        self.pos += len(data)
        return len(data)


def open_zip(fs: FileSystem, path: str, size: int) -> zipfile.ZipFile:
    """A zip archive of the FileSystem, its directory checked against the caps; a broken one is a one-line BadInput."""
    try:
        zf = zipfile.ZipFile(io.BufferedReader(RangeFile(fs, path, size), 1 << 16))
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError) as e:
        raise BadInput(f"{fs.describe(path)} is not a readable zip archive ({str(e)[:80]}): name the tracker's "
                       f"store or a log instead") from None
    infos = zf.infolist()
    if len(infos) > MAX_MEMBERS:
        raise BadInput(f"{fs.describe(path)} holds {len(infos)} entries, over the {MAX_MEMBERS} cap for a "
                       f"tracker's offline archive")
    return zf


def zip_names(fs: FileSystem, path: str, size: int) -> set[str]:
    """The member names of a zip archive (empty when it is none)."""
    try:
        with open_zip(fs, path, size) as zf:
            return {i.filename for i in zf.infolist()}
    except TrainingCheckError:
        return set()


def is_zip(fs: FileSystem, path: str, size: int) -> bool:
    return size >= 22 and fs.read_at(path, 0, 4) == ZIP_MAGIC


def read_small_json(fs: FileSystem, path: str, member: str | None = None) -> object:
    """A run's small JSON description (a file, or a zip member), within ``MAX_META_BYTES``; None when missing or
    broken (what it says is a name or a setting, never a point)."""
    try:
        if member is None:
            data = fs.read_at(path, 0, MAX_META_BYTES + 1)
        else:
            with open_zip(fs, path, fs.stat(path).size) as zf:
                info = zf.getinfo(member)
                if info.file_size > MAX_META_BYTES:
                    return None
                data = zf.read(member)
        if len(data) > MAX_META_BYTES:
            return None
        return limits.loads_bounded(data, fs.describe(path))
    except (TrainingCheckError, KeyError, zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError,
            NotImplementedError):
        return None


@dataclass(frozen=True)
class LinesFile:
    """One file of JSON lines of a run: ``path`` itself, or the member ``member`` of the zip archive ``path``."""

    key: str  # its name in the cursor ("messages.json", "data-1.log")
    path: str
    member: str | None
    size: int
    mtime: float


def one_lines_file(fs: FileSystem, path: str, member: str | None, name: str) -> list[LinesFile]:
    """The one file of JSON lines a store's run keeps under ``name``: the member of the zip ``path`` (``member`` set)
    or the file in the folder ``path``."""
    if member is not None:
        st = fs.stat(path)
        return [LinesFile(name, path, name, st.size, st.mtime)]
    file = fs.join(path, name)
    st = fs.stat(file)
    return [LinesFile(name, file, None, st.size, st.mtime)]


# on_record(record, the store's state in the cursor): how many values of the record were not points (0: fine)
OnRecord = Callable[[object], int]


@dataclass
class RecordsRead:
    files: dict  # key -> {"offset": n} (a plain file) or {"zip": [size, mtime]} (an archive member read)
    reset: bool  # a file shrank or an archive changed: everything was read again from the start
    bad: int  # lines that were not JSON records, or too long
    more: bool  # stopped at the end of a part: read again for the rest


def _zip_mark(f: LinesFile) -> list:
    return [f.size, f.mtime]


def needs_reset(files: list[LinesFile], known: dict) -> bool:
    """Whether a file shrank (rewritten) or an archive already read changed (rewritten whole)."""
    for f in files:
        state = known.get(f.key)
        if not state:
            continue
        if f.member is None and f.size < int(state.get("offset", 0)):
            return True
        if f.member is not None and state.get("zip") not in (None, _zip_mark(f)):
            return True
    return False


def read_records(fs: FileSystem, files: list[LinesFile], known: dict | None, on_record: OnRecord) -> RecordsRead:
    """The JSON records of ``files`` (in order) added since ``known``, each handed to ``on_record``."""
    known = dict(known or {})
    reset = needs_reset(files, known)
    if reset:
        known = {}
    bad = 0
    budget = PART_BYTES
    for f in files:
        state = dict(known.get(f.key) or {})
        if f.member is not None:
            if state.get("zip") == _zip_mark(f):
                continue
            if budget < PART_BYTES:  # an archive is read in one part of its own
                return RecordsRead(known, reset, bad, True)
            for line in _member_lines(fs, f):
                bad += _one(line, on_record, fs.describe(f.path))
            known[f.key] = {"zip": _zip_mark(f)}
            budget = 0
            continue
        start = int(state.get("offset", 0))
        if f.size <= start:
            known[f.key] = {"offset": start}
            continue
        if budget <= 0:
            return RecordsRead(known, reset, bad, True)
        got = new_lines(fs, f.path, start, f.size, budget, max_line=limits.MAX_RECORD_BYTES)
        budget -= got.offset - start
        bad += got.skipped
        for line in got.lines:
            bad += _one(line, on_record, fs.describe(f.path))
        known[f.key] = {"offset": got.offset}
        if got.offset < f.size and budget <= 0:
            return RecordsRead(known, reset, bad, True)
    return RecordsRead(known, reset, bad, False)


def _one(line: bytes, on_record: OnRecord, where: str) -> int:
    if not line.strip():
        return 0
    try:
        record = limits.loads_bounded(line, where)
    except BadInput:
        return 1
    return on_record(record)


def _member_lines(fs: FileSystem, f: LinesFile) -> Iterator[bytes]:
    """The lines of a zip member, streamed (a line over ``MAX_RECORD_BYTES`` is yielded as b"" ... skipped)."""
    assert f.member is not None
    with open_zip(fs, f.path, f.size) as zf:
        try:
            info = zf.getinfo(f.member)
        except KeyError:
            raise BadInput(f"{fs.describe(f.path)} has no {f.member}: not the tracker's offline archive") from None
        if info.file_size > MAX_MEMBER_BYTES:
            raise BadInput(f"{fs.describe(f.path)}'s {f.member} is {info.file_size >> 20} MB uncompressed, over the "
                           f"{MAX_MEMBER_BYTES >> 20} MB cap for an offline archive's member")
        try:
            with zf.open(info) as stream:
                while True:
                    line = stream.readline(limits.MAX_RECORD_BYTES + 1)
                    if not line:
                        return
                    if len(line) > limits.MAX_RECORD_BYTES and not line.endswith(b"\n"):
                        while line and not line.endswith(b"\n"):  # the rest of the too-long line
                            line = stream.readline(1 << 20)
                        yield b"\x00"  # not JSON: counted as a bad line
                        continue
                    yield line
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError) as e:
            raise BadInput(f"{fs.describe(f.path)}'s {f.member} cannot be read ({str(e)[:80]}): the archive is "
                           f"damaged; re-create it or name another run") from None


def newest(entries: list[DirEntry], keep: Callable[[DirEntry], bool]) -> list[DirEntry]:
    """The entries ``keep`` accepts, newest first, at most ``MAX_CANDIDATES``."""
    return sorted((e for e in entries if keep(e)), key=lambda e: (-e.mtime, e.name))[:MAX_CANDIDATES]


def chosen_note(tracker: str, run_id: str, name: str | None, where: str, n_runs: int | None, pin: str | None
                ) -> str:
    """Which run of a store was read; ``pin`` (how to name another: ``folder#<run_id>``) when it was the latest."""
    what = f"{tracker} run {clean(run_id, 80)}" + (f" ({clean(name, 60)!r})" if name else "")
    if pin is None:
        return f"read {what} of {where}"
    others = f" of {n_runs} runs" if n_runs and n_runs > 1 else ""
    return f"read {what}, the latest{others} in {where}; name another as {pin}"


def bad_lines_note(bad: int, what: str) -> str | None:
    return f"skipped {bad} {what} that hold no readable point (not JSON, no number, or over the size cap)" if bad \
        else None


def number(value: object) -> float | None:
    """A logged value as a float (numbers, numeric strings; bools and the rest: None)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str) and len(value) <= 64:
        from ..points import parse_number

        return parse_number(value)
    return None


def step_of(value: object) -> int | None:
    """A logged step as an int (None when absent or not a whole number in range)."""
    x = number(value)
    if x is None or x != x or abs(x) >= 2 ** 62 or x != int(x):
        return None
    return int(x)


class Sequencer:
    """Steps for values logged without one: the n-th such value of a metric at step n (the counts per metric in the
    cursor, so the same points come out whatever the size of the reads); at most ``MAX_METRICS`` metrics."""

    def __init__(self, state: dict | None):
        self.state: dict[str, int] = {k: int(v) for k, v in (state or {}).items() if isinstance(v, int)}

    def step(self, key: str, step: int | None) -> int:
        if step is not None:
            return step
        n = self.state.get(key, 0)
        if n == 0 and len(self.state) >= limits.MAX_METRICS:
            raise limits.too_many_metrics()
        self.state[key] = n + 1
        return n

    def note(self) -> str | None:
        names = list(self.state)
        if not names:
            return None
        shown = ", ".join(clean(n, 60) for n in names[:4]) + (" ..." if len(names) > 4 else "")
        return f"logged without steps, read in logging order: {shown}"
