"""Bench: the native .wandb reader against ``wandb leet inspect --json`` on a 1M-step run, and an incremental re-read.

    .venv/bin/python bench/wandb_read.py [--steps 1000000] [--append-steps 1000]

The run is written once by the real wandb in offline mode (several minutes for
1M steps) and cached under bench/out/. Prints records/s of both readers and
their ratio, then the cost of re-reading after ``--append-steps`` more steps
reach the file (the file is grown by copying its own tail in, as the writer
would append it).
"""

from __future__ import annotations

import argparse
import math
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from training_check.tools.sources.files import LocalFileSystem  # noqa: E402
from training_check.tools.sources.wandb_local import WandbLocalSource  # noqa: E402

from tests.wandb_runs import wandb_file, write_offline_run  # noqa: E402


def rows(steps: int):
    for i in range(steps):
        row = {"train/loss": 3.0 * math.exp(-i / 200000) + 0.01 * math.sin(i), "lr": 3e-4 * min(1.0, i / 2000),
               "grad_norm": 1.0 + 0.1 * math.cos(i / 7)}
        if i % 1000 == 999:
            row["eval/loss"] = 3.1 * math.exp(-i / 200000)
        yield row


def run_file(steps: int) -> Path:
    out = REPO / "bench" / "out" / f"wandb_{steps}"
    existing = sorted(out.glob("wandb/offline-run-*/*.wandb"))
    if existing:
        return existing[-1]
    if out.exists():
        shutil.rmtree(out)
    t = time.perf_counter()
    print(f"writing a {steps}-step run with the real wandb (offline), cached in {out} ...", flush=True)
    run_dir = write_offline_run(out, rows(steps), name=f"bench-{steps}", config={"lr": 3e-4, "max_steps": steps},
                                timeout_s=7200)
    print(f"  written in {time.perf_counter() - t:.0f} s", flush=True)
    return wandb_file(run_dir)


def leet_count(path: Path) -> tuple[int, float]:
    exe = Path(sys.executable).with_name("wandb")
    t = time.perf_counter()
    proc = subprocess.Popen([str(exe), "leet", "inspect", "--json", str(path)], stdout=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    n = 0
    out = proc.stdout
    assert out is not None
    for chunk in iter(lambda: out.read(1 << 20), b""):
        n += chunk.count(b"\n")
    proc.wait()
    return n, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=1_000_000)
    ap.add_argument("--append-steps", type=int, default=1000)
    args = ap.parse_args()
    path = run_file(args.steps)
    size = path.stat().st_size
    fs = LocalFileSystem()

    t = time.perf_counter()
    result = WandbLocalSource(fs, str(path)).read(None)
    read_s = time.perf_counter() - t
    t = time.perf_counter()
    scan = WandbLocalSource(fs, str(path))._scan(7, size, None)  # the same pass read() makes, counting records
    ours_s = time.perf_counter() - t
    points = result.batch.n_points
    n_leet, leet_s = leet_count(path)
    print(f"file: {path} ({size / 1e6:.1f} MB, {args.steps} steps, {scan.records} records, {points} points)")
    print(f"ours (read()):          {read_s:8.2f} s  {scan.records / read_s:12,.0f} records/s  "
          f"{size / 1e6 / read_s:7.1f} MB/s")
    print(f"ours (scan only):       {ours_s:8.2f} s  {scan.records / ours_s:12,.0f} records/s")
    print(f"wandb leet inspect --json: {leet_s:5.2f} s  {n_leet / leet_s:12,.0f} records/s  ({n_leet} records)")
    print(f"ratio ours/leet (records/s): {(scan.records / read_s) / (n_leet / leet_s):.1f}x")

    # Incremental: a copy of the file cut some steps before its end, read fully; then the rest appended, re-read.
    bytes_per_step = size / max(args.steps, 1)
    cut = max(7, int(size - args.append_steps * bytes_per_step))
    with tempfile.TemporaryDirectory() as tmp:
        grow = Path(tmp) / path.name
        with path.open("rb") as src_f, grow.open("wb") as dst:
            remaining = cut
            while remaining:
                chunk = src_f.read(min(1 << 24, remaining))
                dst.write(chunk)
                remaining -= len(chunk)
        reader = WandbLocalSource(fs, str(grow))
        first = reader.read(None)
        with path.open("rb") as src_f, grow.open("ab") as dst:
            src_f.seek(cut)
            dst.write(src_f.read())
        t = time.perf_counter()
        again = reader.read(first.cursor)
        inc_s = time.perf_counter() - t
        t = time.perf_counter()
        idle = reader.read(again.cursor)
        idle_s = time.perf_counter() - t
    new_steps = len(next(iter(again.batch.columns.values()))) if again.batch.columns else 0
    print(f"incremental re-read after {size - cut:,} bytes (~{new_steps} steps) appended: {inc_s * 1000:.1f} ms, "
          f"{again.bytes_read:,} bytes read; no-change re-read: {idle_s * 1000:.2f} ms ({idle.bytes_read} bytes)")
    total = first.batch.n_points + again.batch.n_points
    print(f"points after incremental reads: {total} (full read: {points}) -> "
          f"{'equal' if total == points else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
