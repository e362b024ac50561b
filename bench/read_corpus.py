"""Is every file of a labelled corpus read, and is every should-stop file stopped (and no healthy one)?

    .venv/bin/python bench/read_corpus.py DIR [DIR ...] [--json out.json] [--no-verdicts]

A corpus folder holds a ``manifest.jsonl`` (one entry per file: ``file``, ``label``, optionally ``should_stop``,
``n_points`` and ``truth``). Every file is read whole through ``load_run`` (the path the agent's ``assess_run``
takes), in a fresh store. The bench takes the train loss the read found (the primary train loss; the objective
the judge follows when the file logs no train loss) and scores it one of two ways:

- **Against a truth** (the framework corpus, ``examples/frameworks``): a file whose entry names a ``truth``
  (or whose folder holds a ``truth.json``) has the framework's own record of its train loss, ``[[step, value],
  ...]`` at the framework's own step numbering, and the printed precision (``tolerance``: ``rel``, and ``sig``
  significant digits or ``abs``). A truth point is *found* when the read's loss has a point at that very step
  whose value matches: within max(rel × |value|, half a unit of the ``sig``-th significant digit, ``abs``), or
  both NaN, or both the same infinity. Where the truth counts in epochs (``step_unit`` starting with
  ``epoch``, Keras) a reader numbering by batches is equally right, so the point may also be found at
  epoch × ``steps_per_epoch`` (with 0-based epochs also (epoch + 1) × ``steps_per_epoch``, the batches done at the
  epoch's end); a 0-based truth may be read at index + 1 (the count done), and a truth whose ``record`` says it
  numbers that record's 0-based step + 1 at that step; conversely, where the truth counts global batches
  (``step_unit`` starting with ``global batch``) and each of its points is an epoch's batch 0 (one line an epoch,
  the epoch's length never printed: torchensemble's ``Batch: 000``), the point may be found at step /
  ``steps_per_epoch``, the epoch; the best of the numberings counts (never a mix). A file is read when
  >= 90 % of its truth's points are found. The row also says how many truth values the read has at any step
  (so a wrong step numbering shows as "values right, steps wrong") and the read's step range.
- **By count** (the shared corpora ``real-logs`` and ``real-logs-2``): the read's point count against
  ``n_points`` (real-logs-2) or against the file's *loss-bearing records*, counted independently of the
  parsers: in text files, lines (after ``\\r`` overwrites and colour codes are resolved) holding a train-loss
  field, i.e. a name containing ``loss`` (or llm.c's ``trl``) followed by a number, whose name is not an
  evaluation name (``val``/``valid``/``eval``/``test``/``tel``) and whose line is not about an evaluation
  ("validation loss at ..."); a line holding no train loss but an eval loss counts when the file has no
  train-loss line at all (val-only logs). In JSON documents, the ``log_history`` entries with ``loss``
  (``trainer_state.json``) or the non-placeholder values of ``lm loss`` (Megatron golden values). Binary event
  files have no independent count: they are "read" when the loss has any point, and the table says so. Points
  the reader set aside and said so (earlier runs of a multi-run file, named in the read's notes with their count
  of loss points) count as read. A file whose independent count is 0 (it logs no loss at all) is read when the
  read succeeds; the table says "the file logs none".

Nothing leaves a denominator: a file the reader refuses (or that is missing) is an unread file, and a
should-stop file it refuses is a missed stop. Files in the folder that the manifest does not name are listed as
skipped.

Verdicts (unless ``--no-verdicts``): for every file, healthy or not, three cron checks are replayed (at 50 %,
75 % and 100 % of the logged steps, one store, so the judge sees its earlier assessments). A run's outcome is
STOP when any check says STOP (the run would have been stopped there), else ESCALATE when any says ESCALATE,
else the last verdict. Should-stop files (manifest or truth ``should_stop``, or label ``nan``/``diverged`` where
neither says) must end STOP or ESCALATE, and the two are counted apart; a healthy file must never end STOP (a
false STOP), and the share of healthy files that ESCALATE is printed. A real-logs-2 entry whose ``should_stop`` is
null (its curators' "unclear": an overfit, a plateau, a spike never recovered) is unscored, as in
``bench/calibration.py``: read and shown, in neither count.

A manifest entry may name a tracker's store instead of a text log (``"source": "store"``: an MLflow ``mlflow.db``
or ``mlruns/`` folder, a ``dvclive/`` folder, a TensorBoard event file): it is read the same way, through
``load_run``, and a store the reader cannot read today is an unread file. A reader that fails with anything other
than a ``TrainingCheckError`` is an unread file too ("crashed: ..."), never the end of the bench. Files kept beside
a scored file in its run folder (the library's own CSVs, TSVs, configs) are counted as kept beside, not skipped.

Per corpus, the issue's figures (issue 32, "Must show"): the share of files read, STOP recall (should-stop files
that end STOP), flagged (STOP or ESCALATE) among should-stop files, false STOPs (healthy files stopped), early
STOPs (a should-stop file stopped at a check before the step where its truth's problem shows: the first
non-finite value, or the first value at least twice the lowest before it; in the read's numbering), and the
ESCALATE share of the healthy files' replayed checks.

The last lines give the totals: files read (target >= 95 %), should-stop files STOP / ESCALATE / missed,
healthy files falsely stopped (target: none) and escalated, then the unread files with the reason, the missed
stops, the false STOPs and the skipped files.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from training_check.tools.assess import assess_run
from training_check.tools.config import load_config
from training_check.tools.errors import TrainingCheckError
from training_check.tools.judge import ESCALATE, STOP
from training_check.tools.parsers.text import clean_text
from training_check.tools.reading import load_run
from training_check.tools.store import Store

READ_SHARE = 0.90
STOP_LABELS = {"nan", "diverged"}
_NUM = r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+|nan|inf)"
_LOSS_FIELD = re.compile(rf"([A-Za-z_/@.\- ]{{0,24}}?)(\w*(?:loss|trl)\w*)['\"]?\s*[:=|]?\s*['\"]?\(?\s*"
                         rf"({_NUM})(?![\w.])", re.I)
_EVAL_NAME = re.compile(r"(^|[\s_/\-])(val|valid|validation|eval|test|tel|dev)([\s_/\-]|$)|^(val|eval|test|tel)", re.I)
_EVAL_LINE = re.compile(r"\b(validation|evaluating|evaluation|valid on)\b|^\s*(val|valid|test|eval)\b", re.I)
_SET_ASIDE = re.compile(r"set aside \d+ point\(s\) of the earlier runs \((\d+) of (.+?)\)")


CORPUS_DOCS = {"manifest.jsonl", "README.md", "FORMATS.md", "MANIFEST.md"}  # a corpus' own documents


@dataclass
class FileResult:
    file: str
    label: str
    should_stop: bool | None  # None: unscored (a shared-corpus entry whose curators left ``should_stop`` null)
    expected: int | None  # points the file holds (truth, manifest or independent count); None: no count (binary)
    expected_how: str
    metric: str | None = None
    points: int = 0
    set_aside: int = 0
    first: tuple | None = None
    last: tuple | None = None
    read: bool = False
    unreadable: bool = False
    why: str = ""
    notes: list[str] = field(default_factory=list)
    found: int | None = None  # truth points found at the truth's steps (truth scoring)
    found_any_step: int | None = None  # truth values the read holds at any step
    numbering: str = ""  # which step numbering matched (truth scoring)
    truth_steps: tuple | None = None
    verdicts: str = ""
    check_steps: list[int] = field(default_factory=list)  # the steps the replayed checks ran at (one per letter)
    problem_step: int | None = None  # a should-stop file: the step where the truth's problem shows (read numbering)
    early_stop: bool = False  # a STOP at a check before problem_step
    verdict: str | None = None  # the outcome (see the module docstring)
    summary: str = ""


def _tolerance(t: float, tol: dict) -> float:
    a = float(tol.get("rel", 1e-3)) * abs(t)
    if "sig" in tol and t != 0:
        a = max(a, 0.5 * 10.0 ** (math.floor(math.log10(abs(t))) - int(tol["sig"]) + 1))
    return max(a, float(tol.get("abs", 0.0)))


def _same(v: float, t: float, tol: dict) -> bool:
    if math.isnan(t) or math.isinf(t):
        return (math.isnan(t) and math.isnan(v)) or v == t
    return math.isfinite(v) and abs(v - t) <= _tolerance(t, tol)


def _numbered(step: int, mult: int, end: int) -> int:
    """A truth's step in a numbering: (step + end) x mult, or (step + end) / -mult for a negative mult."""
    return (step + end) * mult if mult > 0 else (step + end) // -mult


def score_truth(steps: np.ndarray, values: np.ndarray, truth: dict) -> tuple[int, int, str]:
    """(points found at the truth's steps, truth values found at any step, the numbering that matched)."""
    by_step: dict[int, list[float]] = {}
    for s, v in zip(steps.tolist(), values.tolist(), strict=True):
        by_step.setdefault(int(s), []).append(float(v))
    pts = [(int(s), float(v)) for s, v in truth["train_loss"]]
    tol = truth.get("tolerance", {"rel": 1e-3})
    numberings = [("truth", 1, 0)]
    if str(truth.get("step_unit", "")).startswith("epoch") and truth.get("steps_per_epoch"):
        numberings.append((f"epoch x {truth['steps_per_epoch']}", int(truth["steps_per_epoch"]), 0))
        if pts and pts[0][0] == 0:  # 0-based epochs: epoch e ends after (e + 1) x steps_per_epoch batches
            numberings.append((f"epoch x {truth['steps_per_epoch']} (end)", int(truth["steps_per_epoch"]), 1))
    if pts and pts[0][0] == 0:  # a 0-based index: the count done once it is done (index + 1: a bar's "n/N", Composer's
        numberings.append(("count done (index + 1)", 1, 1))  # "[batch=n/N]") numbers the same points
    if pts and pts[0][0] == 1 and "step + 1" in str(truth.get("record", "")):
        # a truth that says it numbers its record's 0-based step + 1 (a bar's count n of Lightning's step n - 1)
        numberings.append(("the record's own step (truth - 1)", 1, -1))  # numbers the same points
    if truth.get("record_steps"):
        # the truth's record numbers each point twice (Lightning's metrics.csv: its `epoch` and its `step` columns): a
        # reader at either numbers the library's own steps
        numberings.append(("the record's step column", 0, 0))
    spe = int(truth.get("steps_per_epoch") or 0)
    if (spe > 1 and str(truth.get("step_unit", "")).startswith("global batch") and pts
            and all(s % spe == 0 for s, _ in pts)):
        # a global batch counted as E x steps_per_epoch + B where every point is an epoch's batch 0: the log prints
        # one line an epoch and never shows the epoch's length, so a reader numbering by epoch is equally right
        numberings.append((f"epoch (truth / {spe})", -spe, 0))
    best, how = -1, ""
    other = {int(a): int(b) for a, b in truth.get("record_steps") or ()}
    for name, mult, end in numberings:
        n = sum(1 for s, t in pts if any(_same(v, t, tol) for v in by_step.get(
            other.get(s, -1) if mult == 0 else _numbered(s, mult, end), ())))
        if n > best:
            best, how = n, name
    vals = np.sort(values[np.isfinite(values)])
    any_step = 0
    for _, t in pts:
        if not math.isfinite(t):
            any_step += bool(np.any(np.isnan(values)) if math.isnan(t) else np.any(values == t))
            continue
        d = _tolerance(t, tol)
        i = int(np.searchsorted(vals, t - d))
        any_step += bool(i < len(vals) and vals[i] <= t + d)
    return best, any_step, how


def _all_points(data, metric: str) -> tuple[np.ndarray, np.ndarray]:
    """Every point of the metric the read holds: the whole series, or every point read when it is summarised."""
    frame = data.frame
    if frame.summarised(metric) is not None and data.raw is not None:
        col = data.raw().columns.get(data.renamed.get(metric, metric)) or data.raw().columns.get(metric)
        if col is not None:
            return np.asarray(col.steps), np.asarray(col.values, dtype=float)
    s = frame.series[metric]
    return s.index.to_numpy(), s.to_numpy(dtype=float)


def _fresh(tmp: str):
    config = load_config(cwd=tmp, env={"TRAINING_CHECK_HOME": tmp})
    return config, Store(config.store_path)


def count_loss_records(path: Path) -> tuple[int | None, str]:
    """The file's loss-bearing records, counted without the parsers (see the module docstring)."""
    data = path.read_bytes()
    if b"\x00" in data[:4096] or path.name.startswith("events.out.tfevents"):
        return None, "binary event file: no independent count"
    text = clean_text(data.decode("utf-8", errors="replace"))
    head = text.lstrip()[:1]
    first_line = text.lstrip().split("\n", 1)[0].rstrip()
    if head == "{" and not first_line.endswith("}") or (head == "{" and "\n" not in text.strip()):
        try:
            doc = json.loads(text)
        except ValueError:
            doc = None
        if isinstance(doc, dict) and isinstance(doc.get("log_history"), list):
            n = sum(1 for e in doc["log_history"] if isinstance(e, dict) and "loss" in e)
            return n, "log_history entries with loss"
        if isinstance(doc, dict) and isinstance(doc.get("lm loss"), dict):
            vals = doc["lm loss"].get("values") or {}
            vals = vals.values() if isinstance(vals, dict) else vals
            return sum(1 for v in vals if not isinstance(v, str)), "lm loss values (not 'nan' placeholders)"
    train = evals = 0
    for line in text.split("\n"):
        fields = _LOSS_FIELD.findall(line)
        if not fields:
            continue
        if _EVAL_LINE.search(line):
            evals += 1
            continue
        names = [(pre.strip().split(" ")[-1] + " " + name).strip() for pre, name, _ in fields]
        if any(not _EVAL_NAME.search(n) for n in names):
            train += 1
        else:
            evals += 1
    if train:
        return train, "lines with a train-loss field"
    return evals, "lines with an eval-loss field (the file logs no train loss)"


def _objective(frame) -> str | None:
    from training_check.tools.signals.view import choose_primary_eval

    return frame.primary_loss or choose_primary_eval(frame)


def _truth_for(folder: Path, entry: dict) -> dict | None:
    if entry.get("truth"):
        return json.loads((folder / entry["truth"]).read_text())
    beside = (folder / entry["file"]).parent / "truth.json"
    if (folder / entry["file"]).parent != folder and beside.is_file():
        return json.loads(beside.read_text())
    return None


def problem_step(truth: dict) -> int | None:
    """The truth's first step whose loss is non-finite or, above zero, at least twice the lowest value before it; an
    objective that reaches zero or below (a variational energy, a log-likelihood's negative) has no scale there, so its
    problem shows where it climbs back above its first value (every bit of progress lost)."""
    low = first = math.inf
    for s, v in truth["train_loss"]:
        v = float(v)
        if not math.isfinite(v):
            return int(s)
        if math.isfinite(low) and (v >= 2 * low if low > 0 else v > first > low):
            return int(s)
        first = v if first == math.inf else first
        low = min(low, v)
    return None


def check_file(folder: Path, entry: dict, verdicts: bool = True) -> FileResult:
    path = folder / entry["file"]
    truth = _truth_for(folder, entry)
    stop = entry.get("should_stop", truth.get("should_stop") if truth else None)
    label = entry.get("label", truth.get("label", "") if truth else "")
    should_stop: bool | None = label in STOP_LABELS
    if stop is not None:
        should_stop = bool(stop)
    elif "n_points" in entry:  # real-logs-2 says should_stop for each entry: null is its curators' "unclear"
        should_stop = None
    expected: int | None
    if truth is not None:
        expected, how = len(truth["train_loss"]), "truth points at the truth's steps"
    elif entry.get("n_points") is not None:
        expected, how = int(entry["n_points"]), "manifest n_points"
    elif path.is_file():
        expected, how = count_loss_records(path)
    elif path.is_dir():
        expected, how = None, "a store folder: no independent count"
    else:
        expected, how = None, "missing"
    res = FileResult(entry["file"], label, should_stop, expected, how)
    if truth is not None:
        st = [int(s) for s, _ in truth["train_loss"]]
        res.truth_steps = (st[0], st[-1]) if st else None
    if not path.exists():
        res.why, res.unreadable, res.verdict = "missing: the manifest names it, the folder does not hold it", True, "-"
        return res
    at: list[int] = []
    with tempfile.TemporaryDirectory(prefix="tc-readcorpus-") as tmp:
        config, store = _fresh(tmp)
        try:
            data = load_run(str(path), store=store, config=config)
        except TrainingCheckError as e:
            res.why, res.unreadable = f"unreadable: {e}", True
            data = None
        except Exception as e:  # noqa: BLE001 - a reader crash is an unread file, not the end of the bench
            res.why, res.unreadable = f"crashed: {type(e).__name__}: {str(e)[:200]}", True
            data = None
        if data is not None:
            frame = data.frame
            res.notes = list(data.notes)
            res.metric = _objective(frame)
            if res.metric is None:
                names = ", ".join(list(frame.series)[:8]) or "nothing"
                res.read = expected == 0  # the file logs no loss at all: nothing was missed
                res.why = f"no loss found (read: {names})" + ("; the file logs none" if res.read else "")
            else:
                s = frame.series[res.metric]
                res.points = frame.count(res.metric)  # every point of the run: the series holds the newest window
                h = frame.summarised(res.metric)
                res.first = ((int(h.head_steps[0]), float(h.head_values[0])) if h is not None
                             else (int(s.index[0]), float(s.iloc[0])))
                res.last = (int(s.index[-1]), float(s.iloc[-1]))
                if truth is not None:
                    steps, values = _all_points(data, res.metric)
                    res.found, res.found_any_step, res.numbering = score_truth(steps, values, truth)
                    if should_stop and (ps := problem_step(truth)) is not None:
                        mult = (int(truth["steps_per_epoch"]) if res.numbering.startswith("epoch x") else
                                -int(truth["steps_per_epoch"]) if res.numbering.startswith("epoch (truth /") else 1)
                        shift = res.numbering.endswith("(end)") - res.numbering.endswith("(truth - 1)")
                        res.problem_step = _numbered(ps + shift, mult, 0)
                        if res.numbering == "the record's step column":
                            res.problem_step = {int(a): int(b) for a, b in truth["record_steps"]}.get(ps)
                        need = READ_SHARE * len(truth["train_loss"])
                        if not res.found and res.found_any_step or (
                                res.found < need <= res.found_any_step
                                and len(np.unique(steps)) == len(truth["train_loss"])):
                            # (a few at the truth's steps by chance: placed by order when the read's points and the
                            # truth's pair up one to one)
                            # the values read, at steps of another unit (PyMC's calls, the truth's iterations): the
                            # problem is the truth's point of that order, at the step the read gives that point
                            j = [int(s) for s, _ in truth["train_loss"]].index(ps)
                            read_steps = np.unique(steps)
                            res.problem_step = int(read_steps[j]) if j < len(read_steps) else None
                    res.read = res.found >= READ_SHARE * max(1, len(truth["train_loss"]))
                    if not res.read:
                        res.why = (f"{res.found} of {expected} at the truth's steps, {res.found_any_step} at any "
                                   f"step; read steps {res.first[0]}..{res.last[0]} ({res.points} points) vs truth "
                                   f"{res.truth_steps[0]}..{res.truth_steps[1]}" if res.truth_steps else "")
                else:
                    res.set_aside = sum(int(m.group(1)) for n in res.notes for m in _SET_ASIDE.finditer(n)
                                        if m.group(2) == res.metric)
                    got = res.points + res.set_aside
                    res.read = res.points > 0 if expected is None else got >= READ_SHARE * expected
                    if not res.read:
                        res.why = f"{got} of {expected} points ({how})"
            if verdicts and frame.series:
                steps_all = np.unique(np.concatenate([v.index.to_numpy() for v in frame.series.values()]))
                at = sorted({int(steps_all[max(0, round(f * len(steps_all)) - 1)]) for f in (0.5, 0.75, 1.0)})
    if verdicts and not at:
        res.verdict = "UNREADABLE"  # nothing to judge: a should-stop file is missed, a healthy one is not stopped
        res.summary = res.why
        return res
    if at:
        with tempfile.TemporaryDirectory(prefix="tc-readcorpus-") as tmp:
            config, store = _fresh(tmp)
            seen = []
            for step in at:
                try:
                    a = assess_run(str(path), store=store, config=config, as_of_step=step)
                except TrainingCheckError as e:
                    res.verdicts += "!"
                    res.summary = str(e)
                    continue
                except Exception as e:  # noqa: BLE001 - see above
                    res.verdicts += "!"
                    res.summary = f"crashed: {type(e).__name__}: {str(e)[:200]}"
                    continue
                res.verdicts += a.verdict[0]
                res.check_steps.append(step)
                seen.append((a.verdict, a.summary))
                if a.verdict == STOP and res.problem_step is not None and step < res.problem_step:
                    res.early_stop = True
            stops = [x for x in seen if x[0] == STOP]
            escs = [x for x in seen if x[0] == ESCALATE]
            pick = stops[0] if stops else escs[0] if escs else seen[-1] if seen else ("UNREADABLE", res.summary)
            res.verdict, res.summary = pick
    return res


def _unnamed(folder: Path, entries: list[dict]) -> list[str]:
    named = {e["file"] for e in entries} | {e["truth"] for e in entries if e.get("truth")}
    named |= {(Path(e["file"]).parent / "truth.json").as_posix() for e in entries}
    stores = tuple(f"{e['file']}/" for e in entries if (folder / e["file"]).is_dir())
    return [p.relative_to(folder).as_posix() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.relative_to(folder).as_posix() not in named and p.name not in CORPUS_DOCS
            and not p.relative_to(folder).as_posix().startswith(stores)]


def _run_folders(entries: list[dict]) -> set[str]:
    return {Path(e["file"]).parts[0] for e in entries if len(Path(e["file"]).parts) > 1}


def skipped_files(folder: Path, entries: list[dict]) -> list[str]:
    """Files under the folder that the manifest names neither as a file (or inside a store folder it names) nor as
    a truth, and that are not kept beside a named file in its run folder: not scored."""
    runs = _run_folders(entries)
    return [f for f in _unnamed(folder, entries) if not (len(Path(f).parts) > 1 and Path(f).parts[0] in runs)]


def beside_files(folder: Path, entries: list[dict]) -> list[str]:
    """The libraries' own files kept in a scored file's run folder (CSVs, TSVs, configs): not scored."""
    runs = _run_folders(entries)
    return [f for f in _unnamed(folder, entries) if len(Path(f).parts) > 1 and Path(f).parts[0] in runs]


def run_corpus(folder: Path, verdicts: bool = True) -> list[FileResult]:
    entries = [json.loads(ln) for ln in (folder / "manifest.jsonl").read_text().splitlines() if ln.strip()]
    return [check_file(folder, e, verdicts) for e in entries]


@dataclass
class Totals:
    read: int = 0
    files: int = 0
    stop_files: int = 0
    stopped: int = 0
    escalated: int = 0
    healthy: int = 0
    false_stops: int = 0
    healthy_escalated: int = 0
    early_stops: int = 0
    healthy_checks: int = 0
    healthy_check_escalates: int = 0
    unscored: int = 0
    beside: int = 0
    skipped: list[str] = field(default_factory=list)

    def add(self, other: Totals) -> None:
        for k in ("read", "files", "stop_files", "stopped", "escalated", "healthy", "false_stops",
                  "healthy_escalated", "early_stops", "healthy_checks", "healthy_check_escalates", "unscored",
                  "beside"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.skipped += other.skipped

    def lines(self, verdicts: bool) -> list[str]:
        pct = 100 * self.read / max(1, self.files)
        out = [f"read: {self.read}/{self.files} files ({pct:.1f} %, target >= 95 %)"]
        if verdicts:
            missed = self.stop_files - self.stopped - self.escalated
            out.append(f"should-stop files: STOP {self.stopped}, ESCALATE {self.escalated}, missed {missed} "
                       f"of {self.stop_files} (target: none missed)")
            out.append(f"healthy files: false STOP {self.false_stops} (target: none), ESCALATE "
                       f"{self.healthy_escalated} of {self.healthy} "
                       f"({100 * self.healthy_escalated / max(1, self.healthy):.0f} %)"
                       + (f"; unscored: {self.unscored}" if self.unscored else ""))
        out.append(f"skipped: {len(self.skipped)} file(s)" + (f"; kept beside: {self.beside} file(s)" if self.beside
                                                              else ""))
        return out

    def must_show(self, verdicts: bool) -> str:
        """The issue's Must-show figures in one line."""
        share = 100 * self.read / max(1, self.files)
        out = f"files read {self.read}/{self.files} ({share:.0f} %)"
        if verdicts:
            n = max(1, self.stop_files)
            out += (f"; STOP recall {self.stopped}/{self.stop_files} ({self.stopped / n:.2f}); flagged "
                    f"{self.stopped + self.escalated}/{self.stop_files} ({(self.stopped + self.escalated) / n:.2f}); "
                    f"false STOPs {self.false_stops}; early STOPs {self.early_stops}; ESCALATE "
                    f"{self.healthy_check_escalates}/{self.healthy_checks} healthy checks "
                    f"({100 * self.healthy_check_escalates / max(1, self.healthy_checks):.0f} %)")
        return out


def tally(results: list[FileResult], skipped: list[str], beside: int = 0) -> Totals:
    t = Totals(read=sum(r.read for r in results), files=len(results), skipped=list(skipped), beside=beside)
    for r in results:
        if r.should_stop is None:  # unscored: read, but in neither count
            t.unscored += 1
            continue
        if r.should_stop:
            t.stop_files += 1
            t.stopped += r.verdict == STOP
            t.escalated += r.verdict == ESCALATE
            t.early_stops += r.early_stop
        else:
            t.healthy_checks += len(r.verdicts)
            t.healthy_check_escalates += r.verdicts.count("E")
            t.healthy += 1
            t.false_stops += r.verdict == STOP
            t.healthy_escalated += r.verdict == ESCALATE
    return t


def report(folder: Path, results: list[FileResult], skipped: list[str], verdicts: bool = True,
           beside: int = 0) -> Totals:
    print(f"\n== {folder}")
    truth_mode = any(r.found is not None or r.expected_how.startswith("truth") for r in results)
    if truth_mode:
        print(f"{'file':46s} {'label':8s} {'metric':16s} {'@steps':>9s} {'any':>4s} {'read steps':>12s} "
              f"{'truth steps':>12s} read  verdict")
    else:
        print(f"{'file':58s} {'metric':22s} {'points':>7s} {'expect':>7s} read  verdict")
    for r in results:
        v = f"{r.verdict} ({r.verdicts})" if r.verdict else ""
        ok = "yes " if r.read else "NO  "
        if truth_mode:
            found = "-" if r.found is None else f"{r.found}/{r.expected}"
            anys = "-" if r.found_any_step is None else str(r.found_any_step)
            rs = f"{r.first[0]}..{r.last[0]}" if r.first and r.last else "-"
            ts = f"{r.truth_steps[0]}..{r.truth_steps[1]}" if r.truth_steps else "-"
            print(f"{r.file[:46]:46s} {r.label[:8]:8s} {str(r.metric)[:16]:16s} {found:>9s} {anys:>4s} {rs:>12s} "
                  f"{ts:>12s} {ok} {v}")
        else:
            exp = "-" if r.expected is None else str(r.expected)
            pts = f"{r.points}" + (f"+{r.set_aside}" if r.set_aside else "")
            print(f"{r.file[:58]:58s} {str(r.metric)[:22]:22s} {pts:>7s} {exp:>7s} {ok} {v}")
    t = tally(results, skipped, beside)
    for line in t.lines(verdicts):
        print(line)
    print("must show: " + t.must_show(verdicts))
    for r in results:
        if not r.read:
            print(f"  unread: {r.file}: {r.why}")
    if verdicts:
        for r in results:
            if r.should_stop and r.verdict not in (STOP, ESCALATE):
                print(f"  missed stop: {r.file}: {r.verdict} ({r.summary[:160]})")
            if r.should_stop is False and r.verdict == STOP:
                print(f"  false STOP: {r.file}: {r.summary[:160]}")
            if r.early_stop:
                print(f"  early STOP: {r.file}: checks at {r.check_steps} ({r.verdicts}), the problem shows at step "
                      f"{r.problem_step}")
    for s in skipped:
        print(f"  skipped (not in the manifest): {s}")
    return t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--json", help="write every file's result here")
    ap.add_argument("--no-verdicts", action="store_true", help="only read, do not replay checks")
    args = ap.parse_args(argv)
    verdicts = not args.no_verdicts
    total = Totals()
    out = {}
    for d in args.dirs:
        folder = Path(d)
        if not (folder / "manifest.jsonl").is_file():
            print(f"{folder}: no manifest.jsonl; give a corpus folder (one with a manifest.jsonl)", file=sys.stderr)
            return 2
        entries = [json.loads(ln) for ln in (folder / "manifest.jsonl").read_text().splitlines() if ln.strip()]
        results = [check_file(folder, e, verdicts) for e in entries]
        total.add(report(folder, results, skipped_files(folder, entries), verdicts,
                         len(beside_files(folder, entries))))
        out[str(folder)] = [asdict(r) for r in results]
    print("\nTOTAL " + "; ".join(total.lines(verdicts)))
    print("TOTAL must show: " + total.must_show(verdicts))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
