"""What the blind library sets' makers share (bench/holdout_libraries5, bench/holdout_libraries6): each run's
generator started as a user starts it (``nice -n 10 python GEN.py ARGS > train.log 2>&1``, one CPU thread, seeded, no
terminal), its truth checked (the third set's checks: labels, every truth value printed), and manifest.jsonl written
from the run folders. A set's make_all.py holds its RUNS and calls ``main``."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from holdout_libraries3.make_all import _entry, check  # noqa: E402

PY = sys.executable
# the runs of a set: name -> (generator, its arguments, label, should stop)
Runs = dict[str, tuple[str, list[str], str, bool]]


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
    log = dest / "train.log"
    with tempfile.TemporaryDirectory(prefix=f"{tag}-{name}-") as cwd, open(log, "wb") as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=cwd,
                            env=env).returncode
    if rc != 0:
        print(f"  {name}: exit {rc} (kept: a run that ends in an error is a real outcome)", file=sys.stderr)
    if not (dest / "truth.json").is_file():
        raise SystemExit(f"{name}: the generator wrote no truth.json; see {log}")
    truth = json.loads((dest / "truth.json").read_text())
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

