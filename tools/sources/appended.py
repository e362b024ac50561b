"""Folders of small append-only text files, one per metric (MLflow's ``mlruns/<exp>/<run>/metrics/<key>``, DVCLive's
``plots/metrics/<key>.tsv``), read by byte offset per file: only complete lines, only the files that grew.

Shared by ``mlflow_files.py`` and ``dvclive.py``. A file that shrank was rewritten: its source re-reads every file
from the start (``reset``). A line longer than ``MAX_LINE`` is skipped, counted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..limits import MAX_METRICS, too_many_metrics
from ..points import BatchBuilder
from .files import FileSystem

MAX_LINE = 64 << 10
PART_BYTES = 64 << 20  # bytes of one part of a long first read (stored before the next part is read)
MAX_DEPTH = 8  # nested metric folders (train/loss)


@dataclass(frozen=True)
class MetricFile:
    key: str  # the metric's name: the path under the metrics folder ("train/loss")
    path: str
    size: int


def metric_files(fs: FileSystem, root: str, suffix: str = "") -> list[MetricFile]:
    """Every file under ``root`` (ending in ``suffix``, which the key drops), at most ``MAX_METRICS``, in name order."""
    out: list[MetricFile] = []
    todo = [(root, "", 0)]
    while todo:
        folder, prefix, depth = todo.pop()
        for e in sorted(fs.listdir(folder), key=lambda e: e.name, reverse=True):
            if e.name.startswith("."):
                continue
            if e.is_dir:
                if depth < MAX_DEPTH:
                    todo.append((fs.join(folder, e.name), f"{prefix}{e.name}/", depth + 1))
                continue
            if suffix and not e.name.endswith(suffix):
                continue
            if len(out) >= MAX_METRICS:
                raise too_many_metrics(fs.describe(root))
            out.append(MetricFile(prefix + (e.name[: -len(suffix)] if suffix else e.name), fs.join(folder, e.name),
                                  e.size))
    return sorted(out, key=lambda f: f.key)


@dataclass
class NewLines:
    lines: list[bytes]
    offset: int  # after the last complete line read
    skipped: int  # lines over MAX_LINE


def new_lines(fs: FileSystem, path: str, offset: int, size: int, budget: int, *, max_line: int = MAX_LINE
              ) -> NewLines:
    """The complete lines of ``path`` from ``offset`` up to ``size`` (at most ``budget`` bytes of them; a line over
    ``max_line`` skipped, counted)."""
    lines: list[bytes] = []
    skipped = 0
    pos = offset
    while pos < size and budget > 0:
        data = fs.read_at(path, pos, min(size - pos, max(max_line + 1, min(budget, 8 << 20))))
        if not data:
            break
        cut = data.rfind(b"\n")
        if cut < 0:
            if len(data) <= max_line:
                break  # an unterminated last line: read once complete
            end = _line_end(fs, path, pos + len(data), size)  # one line longer than the cap: skipped whole
            if end is None:
                break  # ... once it is complete
            pos, budget, skipped = end, budget - (end - pos), skipped + 1
            continue
        block = data[: cut + 1]
        for line in block.split(b"\n")[:-1]:
            if len(line) > max_line:
                skipped += 1
            else:
                lines.append(line)
        pos += cut + 1
        budget -= cut + 1
    return NewLines(lines, pos, skipped)


def _line_end(fs: FileSystem, path: str, pos: int, size: int) -> int | None:
    """The offset after the next newline at or after ``pos``, None when the file has none yet."""
    while pos < size:
        data = fs.read_at(path, pos, min(size - pos, 1 << 20))
        if not data:
            return None
        nl = data.find(b"\n")
        if nl >= 0:
            return pos + nl + 1
        pos += len(data)
    return None


# parse(file, its new lines, the file's state in the cursor (a dict the parser may keep things in), builder)
# -> how many lines were not metric rows
LineParser = Callable[[MetricFile, list[bytes], dict, BatchBuilder], int]


@dataclass
class FilesRead:
    builder: BatchBuilder
    files: dict  # key -> {"offset": n, ...the parser's state}
    reset: bool
    bad: dict[str, int]  # key -> lines that were not metric rows (garbage, too long)
    more: bool


def read_appended(fs: FileSystem, files: list[MetricFile], known: dict | None, parse: LineParser) -> FilesRead:
    """New lines of every file since ``known`` (per key: the offset and the parser's state), through ``parse``;
    every file from the start (``reset``) when one of them shrank (rewritten)."""
    known = dict(known or {})
    reset = any(f.key in known and f.size < int(known[f.key].get("offset", 0)) for f in files)
    if reset:
        known = {}
    builder = BatchBuilder()
    bad: dict[str, int] = {}
    budget = PART_BYTES
    more = False
    for f in files:
        state = dict(known.get(f.key) or {"offset": 0})
        start = int(state.get("offset", 0))
        if f.size <= start:
            known[f.key] = state
            continue
        if budget <= 0:
            more = True
            break
        got = new_lines(fs, f.path, start, f.size, budget)
        budget -= got.offset - start
        n_bad = got.skipped + parse(f, got.lines, state, builder)
        if n_bad:
            bad[f.key] = n_bad
        state["offset"] = got.offset
        known[f.key] = state
        builder.flush()
    return FilesRead(builder, known, reset, bad, more)


def bad_rows_note(bad: dict[str, int], what: str) -> str | None:
    """One sentence for the rows skipped (garbage, too long), naming up to three files."""
    if not bad:
        return None
    from ..rundata import clean

    shown = ", ".join(f"{clean(k, 60)} ({n})" for k, n in list(bad.items())[:3]) + (" ..." if len(bad) > 3 else "")
    return f"skipped {sum(bad.values())} {what} that are not metric rows: {shown}"
