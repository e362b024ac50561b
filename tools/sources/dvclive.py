"""A DVCLive folder (``dvclive/``), on any FileSystem (here or over SSH).

DVCLive writes one TSV per metric under ``plots/metrics/`` (``train/loss`` in ``plots/metrics/train/loss.tsv``): a
header naming the columns (``step``, the metric's last name part, ``timestamp`` when asked for), then one row per
logged value. Each is read by its ``step`` column (line order when it has none), incrementally per file
(``appended.py``); the metric is named by its path (``train/loss``), as DVCLive names it. A row that is not numbers
costs that row (counted in a note). ``metrics.json`` (the latest values) is read only when there is no TSV (a run
logged with ``plot=False``): one point per metric at its ``step``, re-read whole when it changes.
"""

from __future__ import annotations

import json

from .. import limits
from ..points import BatchBuilder, parse_number
from .appended import MetricFile, bad_rows_note, metric_files, read_appended
from .base import Progress, ReadResult, RunInfo
from .files import DirEntry, FileSystem

CURSOR_VERSION = 1
STEP_COLUMNS = ("step",)
SKIP_COLUMNS = ("timestamp",)


def _is_live(fs: FileSystem, path: str, names: dict[str, DirEntry]) -> bool:
    plots = names.get("plots")
    if plots is None or not plots.is_dir:
        return False
    try:
        return any(e.name == "metrics" and e.is_dir for e in fs.listdir(fs.join(path, "plots")))
    except Exception:
        return False


def find_dvclive(fs: FileSystem, path: str, names: dict[str, DirEntry]) -> DvcLiveSource | None:
    """The DVCLive folder ``path`` is (``plots/metrics`` in it, or named ``dvclive`` with a ``metrics.json``), or
    holds as ``dvclive/``; None when neither (a DVC pipeline's ``metrics.json`` stays a JSON document)."""
    named_so = path.rstrip("/").rsplit("/", 1)[-1] == "dvclive"
    if _is_live(fs, path, names) or (named_so and "metrics.json" in names):
        return DvcLiveSource(fs, path)
    live = names.get("dvclive")
    if live is not None and live.is_dir:
        sub = fs.join(path, "dvclive")
        sub_names = {e.name: e for e in fs.listdir(sub)}
        if _is_live(fs, sub, sub_names) or "metrics.json" in sub_names:
            return DvcLiveSource(fs, sub)
    return None


class DvcLiveSource:
    """A DVCLive folder, kind ``"dvclive"``."""

    kind = "dvclive"
    chosen = None

    def __init__(self, fs: FileSystem, root: str):
        self.fs = fs
        self.root = root
        self.source_id = f"dvclive:{fs.describe(root)}"

    def describe(self) -> str:
        return f"DVCLive folder {self.fs.describe(self.root)}"

    def read(self, cursor: dict | None = None, progress: Progress | None = None) -> ReadResult:
        cur = cursor if cursor and cursor.get("v") == CURSOR_VERSION else None
        metrics_dir = self.fs.join(self.root, "plots", "metrics")
        try:
            files = metric_files(self.fs, metrics_dir, ".tsv")
        except Exception:
            files = []
        name = self.root.rstrip("/").rsplit("/", 1)[-1]
        info = RunInfo(name=name if name != "dvclive" else None)
        if not files:
            return self._read_summary(cur, info)
        got = read_appended(self.fs, files, (cur or {}).get("files"), _parse_tsv_lines)
        notes = [n for n in (bad_rows_note(got.bad, "row(s) of DVCLive TSVs"),) if n]
        if got.reset:
            notes.insert(0, f"a TSV of {self.fs.describe(self.root)} was rewritten: re-read from the start")
        no_step = [k for k, st in got.files.items() if st.get("columns") and st.get("step_col") is None]
        if no_step:
            notes.append(f"no step column in {', '.join(no_step[:3])}: read in row order")
        return ReadResult(got.builder.build(), {"v": CURSOR_VERSION, "files": got.files},
                          reset=got.reset or bool(cur and cur.get("summary")), info=info, notes=notes, more=got.more)

    def _read_summary(self, cur: dict | None, info: RunInfo) -> ReadResult:
        """``metrics.json`` alone (no TSV): its values at its ``step``, re-read whole when it changed."""
        path = self.fs.join(self.root, "metrics.json")
        st = self.fs.stat(path)
        mark = [st.size, st.mtime]
        if cur and cur.get("summary") == mark:
            return ReadResult(BatchBuilder().build(), cur, info=info)
        limits.check_document_size(st.size, self.fs.describe(path))
        data = self.fs.read_at(path, 0, st.size)
        keep = {"v": CURSOR_VERSION, "summary": mark}
        try:
            doc = limits.loads_bounded(data.decode("utf-8", errors="replace"), self.fs.describe(path))
        except (ValueError, json.JSONDecodeError):
            return ReadResult(BatchBuilder().build(), cur or keep, info=info,
                              notes=[f"{self.fs.describe(path)} is not valid JSON yet (being written?)"])
        builder = BatchBuilder()
        if isinstance(doc, dict):
            step = doc.get("step")
            step = int(step) if isinstance(step, (int, float)) and not isinstance(step, bool) else 0
            for key, value in _flatten(doc):
                if key != "step":
                    builder.add(step, key, value)
        return ReadResult(builder.build(), keep, reset=True, info=info,
                          notes=["DVCLive folder without plots: read metrics.json's latest values"])


def _flatten(doc: dict, prefix: str = "", depth: int = 0) -> list[tuple[str, float]]:
    out: list[tuple[str, float]] = []
    for k, v in doc.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and depth < 8:
            out += _flatten(v, key + "/", depth + 1)
        elif isinstance(v, (int, float, str)) and not isinstance(v, bool):
            x = parse_number(v) if isinstance(v, str) else float(v)
            if x is not None:
                out.append((key, x))
    return out


def _parse_tsv_lines(f: MetricFile, lines: list[bytes], state: dict, builder: BatchBuilder) -> int:
    """Rows of one DVCLive TSV: the header (first line) sets the columns, kept in ``state``; then the metric's
    column at the ``step`` column's value (or at the row's index when there is none)."""
    bad = 0
    steps, values = builder.column(f.key)
    for line in lines:
        text = line.decode("utf-8", errors="replace").rstrip("\r")
        cells = text.split("\t")
        if "columns" not in state:
            names = [c.strip().lower() for c in cells][:64]
            state["columns"] = names
            state["step_col"] = next((i for i, c in enumerate(names) if c in STEP_COLUMNS), None)
            value_cols = [i for i, c in enumerate(names) if c not in STEP_COLUMNS + SKIP_COLUMNS]
            state["value_col"] = value_cols[-1] if value_cols else None
            state["row"] = 0
            continue
        vcol, scol = state.get("value_col"), state.get("step_col")
        if vcol is None or len(cells) != len(state["columns"]):
            bad += bool(text.strip())
            continue
        value = parse_number(cells[vcol])
        step_value = parse_number(cells[scol]) if scol is not None else float(state["row"])
        if value is None or step_value is None or step_value != step_value or abs(step_value) >= 2 ** 62 \
                or step_value != int(step_value):
            bad += 1
            continue
        state["row"] = int(state["row"]) + 1
        steps.append(int(step_value))
        values.append(value)
    return bad
