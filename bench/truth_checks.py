"""Shared by the corpus makers (holdout_runs/, library_runs/, holdout_libraries/): checking a run they made.

A maker runs a generator as ``python GEN.py ARGS > train.log 2>&1``, which writes ``truth.json`` (the library's own
record). Before it writes the run into ``manifest.jsonl`` the maker checks the truth against the run's intent (its
label: ``label_problems``) and that every truth value is printed in the log (``unprinted``); each problem is a line
for the person making the corpus. ``read_manifest``/``write_manifest`` keep the entries of runs not remade.
"""

from __future__ import annotations

import bisect
import json
import math
import os
import re
import sys
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf", re.I)


def tolerance(t: float, tol: dict) -> float:
    """How far a printed value may be from the truth ``t``: the truth's ``rel``/``sig``/``abs`` tolerance."""
    a = float(tol.get("rel", 1e-3)) * abs(t)
    if "sig" in tol and t != 0:
        a = max(a, 0.5 * 10.0 ** (math.floor(math.log10(abs(t))) - int(tol["sig"]) + 1))
    return max(a, float(tol.get("abs", 0.0)))


def label_problems(vals: list[float], label: str, *, healthy: bool = True) -> list[str]:
    """What in the train-loss values ``vals`` goes against the label (``healthy``: False leaves that label out)."""
    bad = []
    finite = [v for v in vals if math.isfinite(v)]
    if label == "nan" and len(finite) == len(vals):
        bad.append("label nan but every train-loss value is finite")
    if label == "diverged":
        q = vals[-max(1, len(vals) // 4):]
        if len(finite) != len(vals) or not (max(q) >= 2 * min(vals) and max(q) > vals[0]):
            bad.append(f"label diverged but the loss does not diverge: first {vals[0]} best {min(vals)} "
                       f"last quarter max {max(q)}")
    if healthy and label == "healthy" and (len(finite) != len(vals) or not vals[-1] < vals[0]):
        bad.append(f"label healthy but first {vals[0]} last {vals[-1]}")
    return bad


def unprinted(log: Path, truth: dict, *, without_commas: bool = False) -> list[str]:
    """The truth's train-loss values the log does not print (within the truth's tolerance).

    ``without_commas``: also read the log with its commas taken out (``1,234.5`` as one number)."""
    text = log.read_bytes().decode("utf-8", errors="replace")
    nums = [float(m) for m in NUMBER.findall(text)]
    if without_commas:
        nums = [float(m) for m in NUMBER.findall(text.replace(",", ""))] + nums
    fin = sorted(x for x in nums if math.isfinite(x))
    bad = []
    for s, v in truth["train_loss"]:
        t = float(v)
        if not math.isfinite(t):
            if not any((math.isnan(x) if math.isnan(t) else x == t) for x in nums):
                bad.append(f"truth {v} at step {s} not in the log")
            continue
        d = tolerance(t, truth["tolerance"])
        i = bisect.bisect_left(fin, t - d)
        if not (i < len(fin) and fin[i] <= t + d):
            bad.append(f"truth {v} at step {s} not in the log")
    return bad


def child_env(*, strip: Iterable[str] = (), **extra: str) -> dict[str, str]:
    """The environment of a generator: this one without what changes a library's printing, 1 CPU thread."""
    gone = {"PYTHONUNBUFFERED", "FORCE_COLOR", "COLUMNS", *strip}
    env = {k: v for k, v in os.environ.items() if k not in gone}
    env.update(OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", NUMEXPR_NUM_THREADS="1",
               TOKENIZERS_PARALLELISM="false", HF_HUB_OFFLINE="1", PYTHONHASHSEED="0")
    env.update(extra)
    return env


def read_manifest(path: Path) -> dict[str, list[dict]]:
    """The entries of ``manifest.jsonl`` by run (the first part of each entry's file), or none."""
    old: dict[str, list[dict]] = {}
    if path.is_file():
        for ln in path.read_text().splitlines():
            if ln.strip():
                e = json.loads(ln)
                old.setdefault(e["file"].split("/")[0], []).append(e)
    return old


def write_manifest(path: Path, order: Iterable[str], entries: dict[str, list[dict]]) -> None:
    """``manifest.jsonl``: the entries of each run in ``order`` that has some, a JSON object a line."""
    path.write_text("".join(json.dumps(e) + "\n" for n in order if n in entries for e in entries[n]))


def remake(out: Path, names: list[str] | None, runs: Collection[str], make: Callable[[str, Path], list[dict]],
           old: dict[str, list[dict]], *, count_entries: bool = False, warn_over: int | None = None) -> None:
    """Make each run named (every run when none) into ``out``, saying each, and rewrite ``manifest.jsonl`` after
    each (``old``: the entries of runs not remade). ``count_entries``: say how many entries a run has;
    ``warn_over``: warn of a log larger than that many bytes."""
    mpath = out / "manifest.jsonl"
    for name in names or list(runs):
        if name not in runs:
            raise SystemExit(f"unknown run {name!r}; known: {', '.join(runs)}")
        print(f"== {name}", flush=True)
        old[name] = make(name, out)
        size = (out / name / "train.log").stat().st_size
        if warn_over is not None and size > warn_over:
            print(f"  {name}: the log is {size / 1024:.0f} KB (> {warn_over // 1024} KB)", file=sys.stderr)
        e, n = old[name][0], len(old[name])
        print(f"   {e['n_points']} points, {e['label']}, log {size / 1024:.0f} KB"
              + (f", {n} entr{'y' if n == 1 else 'ies'}" if count_entries else ""), flush=True)
        write_manifest(mpath, runs, old)
