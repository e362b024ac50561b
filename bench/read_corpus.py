"""Is every file of a labelled corpus read, and is every should-stop file stopped or escalated?

    .venv/bin/python bench/read_corpus.py DIR [DIR ...] [--json out.json] [--no-verdicts]

A corpus folder holds a ``manifest.jsonl`` (one entry per file: ``file``, ``label``, optionally
``should_stop`` and ``n_points``). Every file is read whole through ``load_run`` (the path the agent's
``assess_run`` takes), in a fresh store, and for each file the bench prints the train loss it found (the
primary train loss; the objective the judge follows when the file logs no train loss), its point count, and
whether that count reaches 90 % of what the file holds:

- with ``n_points`` in the manifest (real-logs-2): the manifest's count of loss values;
- without it (real-logs): the count of *loss-bearing records* in the file, counted independently of the
  parsers: in text files, lines (after ``\\r`` overwrites and colour codes are resolved) holding a train-loss
  field, i.e. a name containing ``loss`` (or llm.c's ``trl``) followed by a number, whose name is not an
  evaluation name (``val``/``valid``/``eval``/``test``/``tel``) and whose line is not about an evaluation
  ("validation loss at ..."); a line holding no train loss but an eval loss counts when the file has no
  train-loss line at all (val-only logs). In JSON documents, the ``log_history`` entries with ``loss``
  (``trainer_state.json``) or the non-placeholder values of ``lm loss`` (Megatron golden values). Binary
  event files have no independent count: they are "read" when the loss has any point, and the table says so.

Points the reader set aside and said so (earlier runs of a multi-run file, named in the read's notes with
their count of loss points) count as read: nothing was dropped silently. A file whose independent count is 0
(it logs no loss at all, e.g. only a perplexity) is read when the read succeeds; the table says "the file logs
none".

For should-stop files (manifest ``should_stop: true``, or label ``nan``/``diverged`` where the manifest has
no ``should_stop``) it replays three cron checks (at 50 %, 75 % and 100 % of the logged steps, one store, so
the judge sees its earlier assessments) and prints the last verdict: it must be STOP or ESCALATE.

The last lines give the totals: files read (target >= 95 %) and should-stop files stopped or escalated
(target: all), then the list of unread files with the reason.
"""

from __future__ import annotations

import argparse
import json
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


@dataclass
class FileResult:
    file: str
    label: str
    should_stop: bool
    expected: int | None  # points the file holds (manifest or independent count); None: no count (binary)
    expected_how: str
    metric: str | None = None
    points: int = 0
    set_aside: int = 0
    first: tuple | None = None
    last: tuple | None = None
    read: bool = False
    why: str = ""
    notes: list[str] = field(default_factory=list)
    verdicts: str = ""
    verdict: str | None = None
    summary: str = ""


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


def check_file(folder: Path, entry: dict, verdicts: bool = True) -> FileResult:
    path = folder / entry["file"]
    stop = entry.get("should_stop")
    should_stop = bool(stop) if stop is not None or "n_points" in entry else entry.get("label") in STOP_LABELS
    expected: int | None
    if entry.get("n_points") is not None:
        expected, how = int(entry["n_points"]), "manifest n_points"
    else:
        expected, how = count_loss_records(path)
    res = FileResult(entry["file"], entry.get("label", ""), should_stop, expected, how)
    with tempfile.TemporaryDirectory(prefix="tc-readcorpus-") as tmp:
        config, store = _fresh(tmp)
        try:
            data = load_run(str(path), store=store, config=config)
        except TrainingCheckError as e:
            res.why = f"unreadable: {e}"
            return res
        frame = data.frame
        res.notes = list(data.notes)
        res.metric = _objective(frame)
        if res.metric is None:
            names = ", ".join(list(frame.series)[:8]) or "nothing"
            res.read = expected == 0  # the file logs no loss at all: nothing was missed
            res.why = f"no loss found (read: {names})" + ("; the file logs none" if res.read else "")
        else:
            s = frame.series[res.metric]
            res.points = frame.count(res.metric)  # every point of the run: the series holds only the newest window
            h = frame.summarised(res.metric)
            res.first = ((int(h.head_steps[0]), float(h.head_values[0])) if h is not None
                         else (int(s.index[0]), float(s.iloc[0])))
            res.last = (int(s.index[-1]), float(s.iloc[-1]))
            res.set_aside = sum(int(m.group(1)) for n in res.notes for m in _SET_ASIDE.finditer(n)
                                if m.group(2) == res.metric)
            got = res.points + res.set_aside
            if expected is None:
                res.read = res.points > 0
            else:
                res.read = got >= READ_SHARE * expected
            if not res.read:
                res.why = f"{got} of {expected} points ({how})"
        if verdicts and should_stop and frame.series:
            steps = np.unique(np.concatenate([v.index.to_numpy() for v in frame.series.values()]))
            at = sorted({int(steps[max(0, round(f * len(steps)) - 1)]) for f in (0.5, 0.75, 1.0)})
        else:
            at = []
    if at:
        with tempfile.TemporaryDirectory(prefix="tc-readcorpus-") as tmp:
            config, store = _fresh(tmp)
            for step in at:
                try:
                    a = assess_run(str(path), store=store, config=config, as_of_step=step)
                except TrainingCheckError as e:
                    res.verdicts += "!"
                    res.summary = str(e)
                    continue
                res.verdicts += a.verdict[0]
                res.verdict, res.summary = a.verdict, a.summary
    return res


def run_corpus(folder: Path, verdicts: bool = True) -> list[FileResult]:
    entries = [json.loads(ln) for ln in (folder / "manifest.jsonl").read_text().splitlines() if ln.strip()]
    return [check_file(folder, e, verdicts) for e in entries]


def report(folder: Path, results: list[FileResult]) -> tuple[int, int, int, int]:
    print(f"\n== {folder}")
    print(f"{'file':58s} {'metric':22s} {'points':>7s} {'expect':>7s} read  verdict")
    for r in results:
        exp = "-" if r.expected is None else str(r.expected)
        pts = f"{r.points}" + (f"+{r.set_aside}" if r.set_aside else "")
        v = f"{r.verdict} ({r.verdicts})" if r.verdict else ""
        print(f"{r.file[:58]:58s} {str(r.metric)[:22]:22s} {pts:>7s} {exp:>7s} {'yes ' if r.read else 'NO  '} {v}")
    n_read = sum(r.read for r in results)
    stops = [r for r in results if r.should_stop]
    caught = sum(1 for r in stops if r.verdict in (STOP, ESCALATE))
    print(f"read: {n_read}/{len(results)} files ({100 * n_read / max(1, len(results)):.0f} %); "
          f"should-stop files STOP/ESCALATE: {caught}/{len(stops)}")
    for r in results:
        if not r.read:
            print(f"  unread: {r.file}: {r.why}")
        if r.should_stop and r.verdicts and r.verdict not in (STOP, ESCALATE):
            print(f"  missed stop: {r.file}: {r.verdict} ({r.summary[:160]})")
    return n_read, len(results), caught, len(stops)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--json", help="write every file's result here")
    ap.add_argument("--no-verdicts", action="store_true", help="only read, do not replay checks")
    args = ap.parse_args(argv)
    totals = [0, 0, 0, 0]
    out = {}
    for d in args.dirs:
        folder = Path(d)
        if not (folder / "manifest.jsonl").is_file():
            print(f"{folder}: no manifest.jsonl", file=sys.stderr)
            return 2
        results = run_corpus(folder, not args.no_verdicts)
        for i, x in enumerate(report(folder, results)):
            totals[i] += x
        out[str(folder)] = [asdict(r) for r in results]
    n_read, n, caught, n_stop = totals
    print(f"\nTOTAL read: {n_read}/{n} files ({100 * n_read / max(1, n):.1f} %, target >= 95 %); "
          f"should-stop STOP/ESCALATE: {caught}/{n_stop} (target: all)")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
