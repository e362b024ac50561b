"""What the blind library sets' makers share (bench/holdout_libraries3 to 6 and later): each run's
generator started as a user starts it (``nice -n 10 python GEN.py ARGS > train.log 2>&1``, one CPU thread, seeded, no
terminal), its truth checked (the third set's checks: labels, every truth value printed), and manifest.jsonl written
from the run folders. A set's make_all.py holds its RUNS (``run`` adds one) and calls ``main``.

Each run is ``nice -n 10 python GEN.py ARGS > train.log 2>&1`` started as a subprocess in a fresh temporary
working directory: stdout and stderr one file, no TTY, Python's default buffering, 1 CPU thread, seeded. The
generator writes ``truth.json`` (the library's own structured record) and copies the library's own small files into
the run folder (``HOLDOUT_DEST``). The maker then checks the truth against the run's intent (its label), that the
truth has at least 5 points and that every truth value is printed in the log within the tolerance, and writes
``manifest.jsonl`` (one entry per scored file); a set's formats.py writes its ``FORMATS.md``. Self-contained: it uses
no project code."""

from __future__ import annotations

import argparse
import bisect
import json
import math
import os
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

PY = sys.executable
sys.path.insert(0, str(Path(__file__).resolve().parent))
from truth_checks import run_generator  # noqa: E402

# the runs of a set: name -> (generator, its arguments, label, should stop)
Runs = dict[str, tuple[str, list[str], str, bool]]


def registry(runs: Runs) -> Callable[..., None]:
    """``run(name, generator, "ARGS", label="healthy", stop=False)``: adds a run to ``runs``."""

    def run(name: str, gen: str, args: str = "", label: str = "healthy", stop: bool = False) -> None:
        runs[name] = (gen, args.split(), label, stop)

    return run

NUM = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)", re.IGNORECASE)


def label_problems(vals: list[float], label: str) -> list[str]:
    """What in the train-loss values goes against the run's label (``nan``, ``healthy``, ``diverged``)."""
    finite = all(math.isfinite(v) for v in vals)
    if label == "nan":
        return [] if not finite else ["label nan but every train-loss value is finite"]
    if not finite:
        return [f"label {label} but the train loss has a non-finite value"]
    if label == "healthy":
        return [] if vals[-1] < vals[0] else [f"label healthy but it ends at {vals[-1]:.4g} >= start {vals[0]:.4g}"]
    if label == "diverged":
        tail = vals[len(vals) * 3 // 4:]
        best = min(vals)
        ok = max(tail) >= 2 * best and max(tail) > vals[0]
        return [] if ok else [f"label diverged but the last quarter peaks at {max(tail):.4g} (best {best:.4g}, "
                              f"first {vals[0]:.4g})"]
    return []


def unprinted(log: Path, truth: dict) -> list[str]:
    """Truth values that no number printed in the log matches within the tolerance."""
    text = log.read_text(errors="replace").replace(",", "")
    nums = []
    for m in NUM.finditer(text):
        try:
            nums.append(float(m.group()))
        except ValueError:
            pass
    finite = sorted(x for x in nums if math.isfinite(x))
    has_nan = any(math.isnan(x) for x in nums)
    has_inf = any(math.isinf(x) for x in nums)
    tol = truth["tolerance"]
    rel, ab = tol.get("rel", 1e-9), tol.get("abs", 0.0)
    missing = []
    for step, v in truth["train_loss"]:
        if v == "nan":
            if not has_nan:
                missing.append((step, v))
            continue
        if v in ("inf", "-inf"):
            if not (has_inf or has_nan):
                missing.append((step, v))
            continue
        v = float(v)
        allow = max(ab, rel * abs(v)) * 1.0001 + 1e-15
        i = bisect.bisect_left(finite, v - allow)
        if not (i < len(finite) and finite[i] <= v + allow):
            missing.append((step, v))
    if missing:
        return [f"{len(missing)} of {len(truth['train_loss'])} truth values not printed, e.g. {missing[:3]}"]
    return []


def check(name: str, truth: dict, label: str, log: Path) -> list[str]:
    """What is wrong with a made run's truth: too few points, steps out of order, values against the label, values
    the log (when there is one) does not print."""
    vals = [float(v) for _, v in truth["train_loss"]]
    out = []
    if len(vals) < 5:
        out.append(f"only {len(vals)} truth points")
    steps = [s for s, _ in truth["train_loss"]]
    if steps != sorted(steps) or len(set(steps)) != len(steps):
        out.append("truth steps not strictly increasing")
    if vals:
        out += label_problems(vals, label)
    if log.is_file():
        out += unprinted(log, truth)
    return out


def _entry(name: str, file: str, truth_file: str, truth: dict) -> dict:
    """A manifest entry: the scored file, its truth and what the truth says of it."""
    return {"file": f"{name}/{file}", "truth": f"{name}/{truth_file}", "framework": truth["framework"],
            "label": truth["label"], "should_stop": truth["should_stop"], "n_points": len(truth["train_loss"]),
            "loss_name": truth["loss_name"], "step_unit": truth["step_unit"]}


def make(name: str, out: Path, runs: Runs, here: Path, tag: str) -> None:
    """Run ``name``'s generator into ``out/name`` (its train.log, truth and own files) and check its truth."""
    gen, args, label, stop = runs[name]
    dest = out / name
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k not in ("TERM", "PYTHONUNBUFFERED", "COLUMNS", "FORCE_COLOR")}
    env.update(HOLDOUT_DEST=str(dest), PYTHONPATH=str(here), HOLDOUT_LABEL=label,
               HOLDOUT_SHOULD_STOP="1" if stop else "0", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0", DDE_BACKEND="pytorch", HF_HUB_OFFLINE="1",
               TRANSFORMERS_OFFLINE="1", XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
    cmd = ["nice", "-n", "10", PY, str(here / gen), *args, "--label", label] + (["--should-stop"] if stop else [])
    log, truth = run_generator(name, cmd, env, dest, tag)
    for problem in check(name, truth, label, log):
        print(f"  {name}: {problem}", file=sys.stderr)
    store = dest / "truth_store.json"
    if store.is_file():
        t = json.loads(store.read_text())
        for problem in check(name, t, label, Path("/nonexistent")):
            print(f"  {name} ({t['file']}): {problem}", file=sys.stderr)


def entries_of(name: str, out: Path) -> list[dict]:
    """The manifest entries of a made run: its train.log, and a store with its own truth (``truth_store.json``
    naming the store in its ``file``)."""
    d = out / name
    entries = [_entry(name, "train.log", "truth.json", json.loads((d / "truth.json").read_text()))]
    store = d / "truth_store.json"
    if store.is_file():
        t = json.loads(store.read_text())
        entries.append(_entry(name, t["file"], "truth_store.json", t))
    return entries


def write_manifest(out: Path, runs: Runs) -> int:
    """manifest.jsonl from the run folders, in the runs' order (written whole at the end, so makers of different runs
    that overlap in time never lose each other's entries)."""
    lines = [json.dumps(e) for n in runs if (out / n / "truth.json").is_file() for e in entries_of(n, out)]
    (out / "manifest.jsonl").write_text("\n".join(lines) + "\n")
    return len(lines)


def main(runs: Runs, here: Path, default_out: str, tag: str, doc: str) -> int:
    """The maker's command line: make the runs (``--only``), or only rewrite the manifest or re-check the truths."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--out", default=default_out)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--manifest-only", action="store_true", help="only rewrite manifest.jsonl from the folders")
    ap.add_argument("--check", action="store_true", help="only re-check the made runs' truths (no run)")
    a = ap.parse_args()
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if a.check:
        bad = 0
        for n, (_, _, label, _) in runs.items():
            if not (out / n / "truth.json").is_file():
                print(f"  {n}: not made", file=sys.stderr)
                continue
            probs = check(n, json.loads((out / n / "truth.json").read_text()), label, out / n / "train.log")
            for p in probs:
                print(f"  {n}: {p}", file=sys.stderr)
            bad += bool(probs)
        print(f"{len(runs)} runs, {bad} with problems", file=sys.stderr)
        return 0
    names = [] if a.manifest_only else (a.only or list(runs))
    for n in names:
        if n not in runs:
            raise SystemExit(f"unknown run {n}")
    for n in names:
        print(f"{n} ...", file=sys.stderr, flush=True)
        make(n, out, runs, here, tag)
    print(f"manifest.jsonl: {write_manifest(out, runs)} entries", file=sys.stderr)
    return 0

