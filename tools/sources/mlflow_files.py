"""An MLflow file store (``mlruns/``: what MLflow wrote before 3.x made sqlite the default), on any FileSystem (here
or over SSH).

Layout: ``mlruns/<experiment_id>/meta.yaml`` (the experiment's ``name``), ``mlruns/<experiment_id>/<run_id>/
meta.yaml`` (``run_name``, ``status`` as a number, ``start_time``, ``lifecycle_stage``), and one file per metric,
``<run>/metrics/<key>`` (a key with ``/`` in nested folders), one line per logged value: ``timestamp value step``
(``value`` may be ``nan``/``inf``; files older than steps have ``timestamp value``). Read incrementally per file
(``appended.py``). The run: the reference's (``mlruns#<run_id>``, or the run's own folder), else the latest started
active run, said in a note.
"""

from __future__ import annotations

from ..errors import RunNotFound
from ..points import BatchBuilder
from .appended import MetricFile, bad_rows_note, metric_files, read_appended
from .base import Progress, ReadResult, RunInfo
from .files import DirEntry, FileSystem
from .mlflow_common import StepSequencer, chosen_note, config_subset, metric_value, run_state, total_steps_from_config

CURSOR_VERSION = 1
META = "meta.yaml"
MAX_RUNS_LOOKED_AT = 64  # the newest run folders (by mtime) whose meta.yaml is read to find the latest run
MAX_META_BYTES = 64 << 10
MAX_PARAMS = 200


def read_meta(fs: FileSystem, path: str) -> dict[str, str]:
    """The top-level ``key: value`` lines of a meta.yaml (MLflow writes flat YAML): enough, without a YAML parser."""
    try:
        data = fs.read_at(path, 0, MAX_META_BYTES)
    except Exception:
        return {}
    out: dict[str, str] = {}
    for line in data.decode("utf-8", errors="replace").splitlines():
        if line[:1].isspace() or ":" not in line:
            continue
        k, _, v = line.partition(":")
        out[k.strip()] = v.strip().strip("'\"")
    return out


def _is_run(names: dict[str, DirEntry]) -> bool:
    return META in names and "metrics" in names and names["metrics"].is_dir


def _experiment_folders(fs: FileSystem, root: str, names: dict[str, DirEntry]) -> list[str]:
    return [fs.join(root, n) for n, e in names.items() if e.is_dir and not n.startswith(".") and n != "models"]


def find_mlflow_files(fs: FileSystem, path: str, names: dict[str, DirEntry], run_id: str | None
                      ) -> MlflowFilesSource | None:
    """The MLflow file-store run a folder names: a run folder, an experiment folder, ``mlruns/``, or a folder holding
    ``mlruns/``; None when it is none of these."""
    if _is_run(names):
        return MlflowFilesSource(fs, path, chosen=None)
    mlruns = names.get("mlruns")
    if mlruns is not None and mlruns.is_dir:
        root = fs.join(path, "mlruns")
        return _latest_or_named(fs, root, {e.name: e for e in fs.listdir(root)}, run_id)
    if META in names or any(e.is_dir and n.isdigit() for n, e in names.items()):
        return _latest_or_named(fs, path, names, run_id)
    return None


def _latest_or_named(fs: FileSystem, root: str, names: dict[str, DirEntry], run_id: str | None
                     ) -> MlflowFilesSource | None:
    """The run ``run_id`` of a store (or experiment) folder, else its latest started active run."""
    exps = [root] if META in names else _experiment_folders(fs, root, names)
    runs: list[tuple[str, DirEntry]] = []
    for exp in exps:
        try:
            entries = fs.listdir(exp)
        except Exception:
            continue
        runs += [(exp, e) for e in entries if e.is_dir and not e.name.startswith(".")]
    runs = [(exp, e) for exp, e in runs if e.name not in ("metrics", "params", "tags", "artifacts")]
    if not runs:
        return None
    if run_id:
        hit = [fs.join(exp, e.name) for exp, e in runs if e.name == run_id]
        if not hit:
            raise RunNotFound(f"no MLflow run {run_id} in {fs.describe(root)}")
        return MlflowFilesSource(fs, hit[0], chosen=None)
    best: tuple[int, str] | None = None
    candidates = sorted(runs, key=lambda r: -r[1].mtime)[:MAX_RUNS_LOOKED_AT]
    for exp, e in candidates:
        meta = read_meta(fs, fs.join(exp, e.name, META))
        if not meta or meta.get("lifecycle_stage", "active") != "active":
            continue
        start = int(meta.get("start_time") or 0) if (meta.get("start_time") or "").isdigit() else 0
        if best is None or start > best[0]:
            best = (start, fs.join(exp, e.name))
    if best is None:
        return None
    return MlflowFilesSource(fs, best[1], chosen=(fs.describe(root), len(runs)))


class MlflowFilesSource:
    """One run of an MLflow file store, kind ``"mlflow_files"``."""

    kind = "mlflow_files"

    def __init__(self, fs: FileSystem, run_dir: str, *, chosen: tuple[str, int] | None):
        self.fs = fs
        self.run_dir = run_dir
        meta = read_meta(fs, fs.join(run_dir, META))
        self.run_id = meta.get("run_id") or run_dir.rstrip("/").rsplit("/", 1)[-1]
        exp_dir = run_dir.rstrip("/").rsplit("/", 1)[0]
        experiment = read_meta(fs, fs.join(exp_dir, META)).get("name")
        where, n = chosen if chosen else (fs.describe(exp_dir), None)
        self.chosen = chosen_note(self.run_id, meta.get("run_name"), experiment, where, n,
                                  f"{where}#<run_id>" if chosen else None)
        self.source_id = f"mlflow_files:{fs.describe(run_dir)}"

    def describe(self) -> str:
        return f"MLflow run {self.run_id} in {self.fs.describe(self.run_dir)}"

    def read(self, cursor: dict | None = None, progress: Progress | None = None) -> ReadResult:
        known = cursor.get("files") if cursor and cursor.get("v") == CURSOR_VERSION else None
        metrics_dir = self.fs.join(self.run_dir, "metrics")
        files = metric_files(self.fs, metrics_dir)
        got = read_appended(self.fs, files, known, _parse_metric_lines)
        notes = [n for n in (bad_rows_note(got.bad, "line(s) of MLflow metric files"),) if n]
        if got.reset:
            notes.insert(0, f"a metric file of {self.fs.describe(self.run_dir)} was rewritten: re-read from the start")
        seq = StepSequencer({k: int(v.get("seq", 0)) for k, v in got.files.items() if v.get("seq")})
        note = seq.note()
        if note:
            notes.append(note)
        info = self._info(first=cursor is None or got.reset)
        return ReadResult(got.builder.build(), {"v": CURSOR_VERSION, "files": got.files}, reset=got.reset,
                          info=info, notes=notes, more=got.more)

    def _info(self, first: bool) -> RunInfo:
        meta = read_meta(self.fs, self.fs.join(self.run_dir, META))
        params: dict = {}
        if first:  # the run's params do not change: read once (a file each; over SSH a round trip each)
            try:
                entries = self.fs.listdir(self.fs.join(self.run_dir, "params"))
            except Exception:
                entries = []
            wanted = config_subset({e.name: 0 for e in entries if not e.is_dir})
            for name in list(wanted)[:MAX_PARAMS]:
                raw = self.fs.read_at(self.fs.join(self.run_dir, "params", name), 0, 256)
                params[name] = _number(raw.decode("utf-8", errors="replace").strip())
        return RunInfo(name=meta.get("run_name") or None, state=run_state(meta.get("status")),
                       config=config_subset(params), total_steps=total_steps_from_config(params))


def _number(text: str) -> object:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def _parse_metric_lines(f: MetricFile, lines: list[bytes], state: dict, builder: BatchBuilder) -> int:
    """``timestamp value [step]`` lines of one metric file; the step-0 count in ``state["seq"]``."""
    seq = StepSequencer({f.key: int(state.get("seq", 0))})
    steps, values = builder.column(f.key)
    bad = 0
    for line in lines:
        parts = line.split()
        if len(parts) not in (2, 3):
            bad += bool(line.strip())
            continue
        try:
            value = metric_value(float(parts[1]))
            step = int(parts[2]) if len(parts) == 3 else 0
        except ValueError:
            bad += 1
            continue
        steps.append(seq.step(f.key, step))
        values.append(value)
    state["seq"] = seq.state.get(f.key, 0)
    return bad
