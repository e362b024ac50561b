"""Shared by the corpus makers (holdout_runs/, library_runs/, holdout_libraries/): checking a run they made.

A maker runs a generator as ``python GEN.py ARGS > train.log 2>&1``, which writes ``truth.json`` (the library's own
record). Before it writes the run into ``manifest.jsonl`` the maker checks the truth against the run's intent (its
label: ``label_problems``) and that every truth value is printed in the log (``unprinted``); each problem is a line
for the person making the corpus. ``read_manifest``/``write_manifest`` keep the entries of runs not remade.
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
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


# --- the development library sets' makers (bench/library_runs2 to 6): a run made, checked, its manifest entries

# a set's runs: name -> (the command's arguments, ``{py}`` the Python and ``{gen}`` the maker's folder; label; stop)
LibraryRuns = dict[str, tuple[list[str], str, bool]]


def generator_argv(gen: str, args: str = "") -> list[str]:
    """A run's command: the set's generator ``gen`` run by the maker's Python with ``args``."""
    return ["{py}", f"{{gen}}/{gen}", *args.split()]


def registry(runs: LibraryRuns) -> Callable[..., None]:
    """``run(name, generator, "ARGS", label="healthy", stop=False)``: adds a run to ``runs``."""

    def run(name: str, gen: str, args: str = "", label: str = "healthy", stop: bool = False) -> None:
        runs[name] = (generator_argv(gen, args), label, stop)

    return run


def check_label(truth: dict, label: str) -> list[str]:
    """What in a truth's series goes against the run's label: its train loss, or for an RL run its returns and for a
    reward its values, negated (higher is better)."""
    vals = [float(v) for _, v in truth["train_loss"]]
    if not vals:
        return ["no train-loss point in the truth"]
    if truth.get("avg_return"):  # an RL run: its label is its returns' (higher is better), not its critic's loss
        vals = [-float(v) for _, v in truth["avg_return"]]
    elif truth["loss_name"] in (truth.get("higher_is_better") or []):  # a reward: higher is better
        vals = [-v for v in vals]
    return label_problems(vals, label)


def library_entry(name: str, file: str, truth_file: str, truth: dict, store: bool = False) -> dict:
    """A manifest entry: the scored file, its truth and what the truth says of it (``source: store`` for a
    library's own file)."""
    e = {"file": f"{name}/{file}", "truth": f"{name}/{truth_file}", "framework": truth["framework"],
         "label": truth["label"], "should_stop": truth["should_stop"], "n_points": len(truth["train_loss"]),
         "loss_name": truth["loss_name"], "step_unit": truth["step_unit"]}
    if store:
        e["source"] = "store"
    return e


def run_generator(name: str, cmd: list[str], env: dict[str, str], dest: Path, tag: str) -> tuple[Path, dict]:
    """Run a generator as a user starts one (``cmd > dest/train.log 2>&1``, in a fresh temporary folder, no stdin):
    its log and the truth it wrote (a run that ends in an error is kept: a real outcome)."""
    log = dest / "train.log"
    with tempfile.TemporaryDirectory(prefix=f"{tag}-{name}-") as cwd, open(log, "wb") as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=cwd,
                            env=env).returncode
    if rc != 0:
        print(f"  {name}: exit {rc} (kept: a run that ends in an error is a real outcome)", file=sys.stderr)
    if not (dest / "truth.json").is_file():
        raise SystemExit(f"{name}: the generator wrote no truth.json; see {log}")
    return log, json.loads((dest / "truth.json").read_text())


def make_library_run(name: str, out: Path, runs: LibraryRuns, here: Path, tag: str,
                     exceptions: Collection[str] = (), mark_stores: bool = True) -> list[dict]:
    """Run ``name``'s command into ``out/name`` (``nice -n 10 python GEN.py ARGS > train.log 2>&1`` in a fresh
    temporary folder), check its truth (``exceptions``: runs whose label rule does not hold) and return its manifest
    entries: its train.log unless the truth says the log holds no series (``log_series``/``log_scored`` false), and
    each store the generator listed in ``extra_entries.json``."""
    argv, label, stop = runs[name]
    dest = out / name
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    env = child_env(strip=["TERM"], HOLDOUT_DEST=str(dest), PYTHONPATH=f"{here}:{here.parent / 'holdout_libraries'}",
                    RAY_USAGE_STATS_ENABLED="0", DO_NOT_TRACK="1")
    cmd = ["nice", "-n", "10"] + [a.format(py=sys.executable, gen=here) for a in argv] + ["--label", label]
    cmd += ["--should-stop"] if stop else []
    log, truth = run_generator(name, cmd, env, dest, tag)
    scored = truth.get("log_series", truth.get("log_scored", True))
    problems = check_label(truth, label) if name not in exceptions else []
    for problem in problems + (unprinted(log, truth) if scored else []):
        print(f"  {name}: {problem}", file=sys.stderr)
    entries = [library_entry(name, "train.log", "truth.json", truth)] if scored else []
    extra = dest / "extra_entries.json"
    if extra.is_file():
        for ln in extra.read_text().splitlines():
            e = json.loads(ln)
            t = json.loads((dest / e["truth"]).read_text())
            for problem in (check_label(t, label) if name not in exceptions else []):
                print(f"  {name} ({e['file']}): {problem}", file=sys.stderr)
            entries.append(library_entry(name, e["file"], e["truth"], t, store=mark_stores))
        extra.unlink()
    return entries


def library_maker_main(runs: LibraryRuns, here: Path, default_out: str, tag: str, doc: str,
                       exceptions: Collection[str] = (), mark_stores: bool = True) -> int:
    """A development set maker's command line: make the runs named (``--only``; every run when none) into ``--out``,
    keeping the manifest entries of the others."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--out", default=default_out)
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)

    def make(name: str, out: Path) -> list[dict]:
        return make_library_run(name, out, runs, here, tag, exceptions, mark_stores)

    remake(out, a.only, runs, make, read_manifest(out / "manifest.jsonl"), count_entries=True)
    return 0
