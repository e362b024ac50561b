"""Labelled runs for the replay benchmark, from either kind of corpus.

1. A corpus folder of run folders, each with ``label.json`` (``label``,
   ``onset_step``, ``should_stop``, ``total_steps``, optional ``category``,
   ``why`` and ``source`` = the metrics file to read; without ``source`` the
   folder itself is the run reference).
2. The shared real-log corpus (a folder with ``manifest.jsonl``): every file
   is one run, labelled from its manifest entry by these rules:

   - ``healthy``, ``spike-recovered`` -> category ``healthy`` (no STOP allowed);
   - ``nan``, ``diverged`` -> ``clear`` (must stop: the STOP recall target);
   - ``plateau`` -> ``flag`` (STOP, or ESCALATE with a plateau concern);
   - ``other`` whose ``why`` mentions "overfitting" -> ``flag``, label ``overfitting`` (when the
     overfitting is not visible in the part of the file the parser shows, i.e. the onset rule below
     finds none, the run falls back to category ``healthy``: nothing to flag in what is judged);
   - any other ``other`` (GAN/RL losses, crash, hang, throughput drop, sweep summary) -> ``healthy``
     (no false STOP allowed), unless its ``why`` says "must stop".

   ``failure_step`` is mapped to the step units the parser gives the file
   (the file is read through ``training_check.tools.reading.load_run``):
   a plain number is already a parser step (iteration / step / epoch as
   logged) and is kept; "epoch E, batch B" (PyTorch word_language_model logs)
   becomes the parser's global step ``(E - 1) * batches_per_epoch + B``, with
   ``batches_per_epoch`` read from the file's ``B/ N batches`` fields; a
   failure step that names a part of the file the parser does not show (e.g.
   "epoch 5 (run 1)" in a multi-run file of which the parser shows the last
   run, or a sweep "record") is recomputed from the parsed series by the
   generator's documented rule for that label (``bench/generate_corpus.py``
   ``onset_for``: for overfitting, the first eval after the eval-loss minimum
   that exceeds the minimum by 5%), or dropped (None) when the file is not a
   time series. ``total_steps`` is the parser's ``RunInfo.total_steps`` when
   the log states it, else the last logged step.
"""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

CATEGORIES = ("clear", "flag", "healthy")
CATEGORY_OF_LABEL = {"nan": "clear", "diverged": "clear", "plateau": "flag", "overfitting": "flag",
                     "lr-schedule": "flag", "grad-explosion": "flag", "healthy": "healthy",
                     "spike-recovered": "healthy"}


@dataclass
class LabelledRun:
    name: str
    path: str  # the run reference handed to assess_run
    label: str
    category: str  # clear | flag | healthy
    onset_step: int | None
    should_stop: bool
    total_steps: int | None
    why: str = ""
    corpus: str = ""
    note: str = ""  # how the onset was mapped, when it was

    def to_dict(self) -> dict:
        return asdict(self)


def is_manifest_corpus(folder: Path) -> bool:
    return (folder / "manifest.jsonl").is_file()


def load_corpus(folder: str | Path) -> list[LabelledRun]:
    """Every labelled run of a corpus folder (a label.json corpus or a manifest.jsonl corpus)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise SystemExit(f"corpus folder not found: {folder}")
    if is_manifest_corpus(folder):
        return manifest_runs(folder)
    runs = []
    for d in sorted(p for p in folder.iterdir() if (p / "label.json").is_file()):
        lab = json.loads((d / "label.json").read_text())
        label = lab["label"]
        runs.append(LabelledRun(
            name=d.name, path=str(d / lab["source"]) if lab.get("source") else str(d), label=label,
            category=lab.get("category") or CATEGORY_OF_LABEL.get(label, "healthy"),
            onset_step=lab.get("onset_step"), should_stop=bool(lab.get("should_stop")),
            total_steps=lab.get("total_steps"), why=lab.get("why", ""), corpus=str(folder)))
    if not runs:
        raise SystemExit(f"{folder} holds no labelled runs (run folders with label.json, or a manifest.jsonl)")
    return runs


def manifest_category(entry: dict) -> tuple[str, str]:
    """(label, category) for a manifest entry, by the module's rules."""
    label, why = entry["label"], entry.get("why", "").lower()
    if label == "other":
        if "overfitting" in why:
            return "overfitting", "flag"
        return "other", ("clear" if "must stop" in why else "healthy")
    return label, CATEGORY_OF_LABEL.get(label, "healthy")


_EPOCH_BATCH = re.compile(r"epoch\s*(\d+)\s*,\s*batch\s*(\d+)", re.I)
_BATCHES = re.compile(r"\d+\s*/\s*(\d+)\s+batches")


def overfitting_onset(frame) -> int | None:
    """The first eval after the eval-loss minimum that exceeds the minimum by 5% (the generator's rule)."""
    evals = [k for k in frame.names("eval") if frame.roles[k].direction == "min"]
    if not evals:
        return None
    s = frame.series[next((k for k in evals if "loss" in k.lower()), evals[0])].dropna()
    if len(s) < 2:
        return None
    v = s.to_numpy()
    j = int(np.argmin(v))
    later = np.nonzero(v[j + 1 :] > v[j] * 1.05)[0]
    return int(s.index[j + 1 + later[0]]) if len(later) else None


def map_failure_step(raw: str, label: str, file: Path, frame) -> tuple[int | None, str]:
    """(onset in parser steps, note on how it was mapped)."""
    raw = (raw or "").strip()
    if not raw:
        return None, ""
    if raw.isdigit():
        return int(raw), ""
    m = _EPOCH_BATCH.search(raw)
    if m:
        text = file.read_text(errors="replace")
        per = _BATCHES.search(text)
        if per:
            epoch, batch, n = int(m.group(1)), int(m.group(2)), int(per.group(1))
            return (epoch - 1) * n + batch, f"'{raw}' -> ({epoch}-1)*{n}+{batch}"
    if label == "overfitting" and frame is not None:
        onset = overfitting_onset(frame)
        return onset, f"'{raw}' is outside what the parser shows; recomputed (eval-loss rule) as {onset}"
    return None, f"'{raw}' is not a step of a time series; no onset"


def manifest_runs(folder: Path) -> list[LabelledRun]:
    from training_check.tools.config import load_config
    from training_check.tools.errors import TrainingCheckError
    from training_check.tools.reading import load_run
    from training_check.tools.store import Store

    out = []
    with tempfile.TemporaryDirectory(prefix="tc-labels-") as tmp:
        config = load_config(cwd=tmp, env={"TRAINING_CHECK_HOME": tmp})
        store = Store(config.store_path)
        for line in (folder / "manifest.jsonl").read_text().splitlines():
            if not line.strip():
                continue
            entry = json.loads(line)
            label, category = manifest_category(entry)
            path = folder / entry["file"]
            frame, total, note = None, None, ""
            try:
                data = load_run(str(path), store=store, config=config)
                frame = data.frame
                total = data.info.total_steps or frame.last_step
            except TrainingCheckError as e:
                note = f"unreadable: {e}"
            onset, how = map_failure_step(entry.get("failure_step", ""), label, path, frame)
            if category == "flag" and onset is None:
                category = "healthy"
                how = (how + "; " if how else "") + "no failure visible in the parsed series: judged as no-stop"
            if onset is not None and frame is not None and frame.last_step is not None and onset > frame.last_step:
                how = (how + "; " if how else "") + f"onset {onset} after the last logged step {frame.last_step}"
            out.append(LabelledRun(
                name=entry["file"], path=str(path), label=label, category=category, onset_step=onset,
                should_stop=category != "healthy", total_steps=total, why=entry.get("why", ""),
                corpus=str(folder), note="; ".join(x for x in (note, how) if x)))
    return out


if __name__ == "__main__":
    import sys

    for run in load_corpus(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/corpus/real-logs"):
        print(f"{run.name[:70]:70s} {run.label:16s} {run.category:8s} onset={run.onset_step!s:8s} "
              f"total={run.total_steps!s:8s} {run.note}")
