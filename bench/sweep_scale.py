"""Sweep scale bench: one many-run check (``assess_runs``, the sweep judgement included) over many local JSONL runs.

Writes ``--runs`` runs of ``--steps`` logged JSONL steps each (1,000 x 5,000 is about 400 MB) into a scratch
folder, then times, in one process on this machine:

- ``json.loads`` merely parsing every line of every run (the reference: Python reading the records, nothing more);
- the first sweep (a fresh store: every byte read, every run assessed, the sweep judged and stored);
- a sweep with nothing new (the same runs again: each run read, the cursors say nothing was added; a CONTINUE or
  WAIT judged on the same inputs is taken with the staleness finding a check on nothing new makes, the others
  judged in full: tools/recheck.derived_record);
- another sweep with nothing new (each run's last judgement stands; a local log unchanged since is not even read:
  a stat and a few store lookups a run, tools/recheck.steady_quick);
- the first sweep with the local runs on the caller's threads only, then on 2 worker processes (the first sweep
  uses processes unless the cores are crowded: tools/check_pool.py);
- the first sweep with one run read at a time (``max_concurrency=1``), to show what concurrent reads buy;

and prints the ratios to the reference, the per-run cost, and the size of the agent's answer (``ANSWER_BUDGET``)
against the CLI's ``--json`` (every run in full).

``--source wandb``: the same runs as a W&B project (``ent/proj``) on the stand-in W&B server of the tests
(tests/wandb_project.py, in its own process on 127.0.0.1), read by the real ``wandb.Api`` through
tools/sources/wandb_api.py: the sweeps are ``assess_runs(project="ent/proj")``.

    .venv/bin/python bench/sweep_scale.py                      # 1000 runs x 5000 steps (minutes; ~400 MB scratch)
    .venv/bin/python bench/sweep_scale.py --runs 100 --steps 2000
    .venv/bin/python bench/sweep_scale.py --source wandb       # the same through a stand-in W&B project

It also prints the reader's own CPU in the first three sweeps (this process's threads: not wandb-core's, the stand-in
server's or worker processes'), a figure the machine's load hardly moves. Figures (2 shared cores, 2026-12-05, medians
of 3, load 10-19; README "Sweeps" has the rest): W&B first sweep, 1,000 runs 49.5 s = 1.55x before (078aa55) -> 36.9 s
= 0.97x after the history pages went to the C kernel (tools/sources/wandb_history.py), 29.4 s = 1.28x at load 10-12;
200 runs 10.3 s = 1.57x -> 7.9 s = 1.25x (at load 6-7: 7.8 s = 2.18x -> 5.4 s = 1.95x); the reader's CPU 26-27 -> 16-17
ms a run. Local first sweep, 1,000 runs, load
10-12: 23.5 s = 0.96x.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def write_runs(folder: Path, runs: int, steps: int, seed: int = 0) -> list[str]:
    """Runs of a sweep: each a power-law loss with noise, its own learning rate, an eval every 100 steps; a few
    diverge to NaN."""
    rng = random.Random(seed)
    paths = []
    for i in range(runs):
        lr = 10 ** rng.uniform(-4, -1)
        floor = 0.5 + rng.random()
        nan_at = rng.randrange(steps // 4, steps) if rng.random() < 0.05 else None
        p = folder / f"run-{i:04d}.jsonl"
        with p.open("w") as f:
            for s in range(1, steps + 1):
                loss = floor + 3.0 * (1 + s * lr * 10) ** -0.5 + rng.gauss(0, 0.02)
                if nan_at is not None and s >= nan_at:
                    loss = math.nan
                rec = {"step": s, "train_loss": round(loss, 6), "lr": lr, "grad_norm": round(1 + rng.random(), 4)}
                if s % 100 == 0:
                    rec["eval_loss"] = round(loss + 0.05, 6)
                f.write(json.dumps(rec) + "\n")
        paths.append(str(p))
    return paths


def json_reference(paths: list[str]) -> float:
    t = time.perf_counter()
    loads = json.loads
    for p in paths:
        with open(p, "rb") as f:
            for line in f:
                loads(line)
    return time.perf_counter() - t


def sweep(paths: list[str] | None, home: Path, concurrency: int, fresh: bool, total: int, project: str | None = None,
          workers: int | None = None):
    from training_check.tools.assess_runs import assess_runs
    from training_check.tools.config import load_config
    from training_check.tools.store import Store

    if fresh and home.exists():
        shutil.rmtree(home)
    os.environ["TRAINING_CHECK_HOME"] = str(home)
    config = load_config(cwd=home.parent)
    store = Store(config.store_path)
    t = time.perf_counter()
    more = {} if workers is None else {"workers": workers}
    rep = assess_runs(paths, project, store=store, config=config, max_concurrency=concurrency, total_steps=total,
                      **more)
    return time.perf_counter() - t, rep


def cpu_seconds(pid: int | None) -> float | None:
    """CPU time (user + system) a process has used so far, from /proc; None where unknown."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def serve_project(runs_dir: Path, scratch: Path, steps: int) -> subprocess.Popen:
    """The runs of ``runs_dir`` as the W&B project ``ent/proj`` on the tests' stand-in server, in its own process;
    the real wandb client pointed at it the way the tests do (tests/helpers.use_wandb_api)."""
    server = subprocess.Popen([sys.executable, "-m", "tests.wandb_project", str(runs_dir),
                               json.dumps({"max_steps": steps})], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    os.environ.update(WANDB_BASE_URL=server.stdout.readline().strip(), WANDB_API_KEY="tcbench" + "0" * 33,
                      WANDB_CONFIG_DIR=str(scratch / "wandb-config"), WANDB_CACHE_DIR=str(scratch / "wandb-cache"),
                      WANDB_SILENT="true")
    os.environ.pop("WANDB_MODE", None)
    return server


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--keep", help="scratch folder to keep (default: a temporary one, removed)")
    ap.add_argument("--skip-serial", action="store_true", help="skip the one-at-a-time first sweep")
    ap.add_argument("--source", choices=("local", "wandb"), default="local",
                    help="read the runs as local files, or as a W&B project on the stand-in server")
    a = ap.parse_args()
    scratch = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="sweep-scale-"))
    runs_dir = scratch / "runs"
    runs_dir.mkdir(parents=True, exist_ok=True)
    server = None
    try:
        t = time.perf_counter()
        paths = sorted(str(p) for p in runs_dir.glob("*.jsonl"))
        if len(paths) != a.runs:
            paths = write_runs(runs_dir, a.runs, a.steps)
        size = sum(os.path.getsize(p) for p in paths)
        print(f"{a.runs} runs x {a.steps} steps: {size / 2**20:.0f} MB ({time.perf_counter() - t:.0f} s to have them)")
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        ref = json_reference(paths)
        print(f"json.loads of every line: {ref:.2f} s")
        project = None
        if a.source == "wandb":
            server = serve_project(runs_dir, scratch, a.steps)
            project, paths = "ent/proj", None  # type: ignore[assignment]
            print(f"through the stand-in W&B project {project} at {os.environ['WANDB_BASE_URL']} (real wandb.Api)")
        from training_check.tools.check_pool import pool_size
        from training_check.tools.config import load_config

        if paths:
            auto = pool_size(paths, load_config(cwd=scratch), a.concurrency)
            print(f"the first sweep's local runs go to {auto or 'no'} worker processes (the load decides)")
        pid = server.pid if server is not None else None
        served: list[float] = []  # the stand-in server's CPU seconds in each sweep (its cost, not the reader's)
        own: list[float] = []  # this process's CPU seconds in each sweep (every thread; not wandb-core's)

        def timed(fresh: bool, workers: int | None = None, concurrency: int = a.concurrency):
            before, mine = cpu_seconds(pid), time.process_time()
            out = sweep(paths, scratch / "home", concurrency, fresh, a.steps, project, workers)
            after = cpu_seconds(pid)
            own.append(time.process_time() - mine)
            if before is not None and after is not None:
                served.append(after - before)
            return out

        first, rep = timed(True)
        again, _ = timed(False)
        steady, rep2 = timed(False)
        if served:
            print("the stand-in server's own CPU in those sweeps (not the reader's): "
                  + ", ".join(f"{x:.2f} s" for x in served))
        print("the reader's own CPU in those sweeps (this process's threads, not wandb-core's or workers'): "
              + ", ".join(f"{x:.2f} s = {1000 * x / a.runs:.1f} ms a run" for x in own[:3]))
        print(f"first sweep ({a.concurrency} at once): {first:.2f} s = {first / ref:.2f}x json.loads, "
              f"{1000 * first / a.runs:.1f} ms a run")
        print(f"sweep with nothing new (read; judgements taken or made): {again:.2f} s = {again / ref:.2f}x "
              f"json.loads, "
              f"{1000 * again / a.runs:.1f} ms a run")
        print(f"another sweep with nothing new (judgements stand, unread): {steady:.2f} s = {steady / ref:.2f}x "
              f"json.loads, "
              f"{1000 * steady / a.runs:.1f} ms a run")
        for workers, what in ((0, "on threads only (no worker processes)"), (2, "on 2 worker processes")):
            if a.source != "local":
                break  # remote runs are always on the caller's threads (tools/check_pool.py)
            t, _ = timed(True, workers)
            print(f"first sweep {what}: {t:.2f} s = {t / ref:.2f}x json.loads ({t / first:.2f}x the first)"
                  + (f"; the server's CPU {served[-1]:.2f} s" if server is not None and served else ""))
        if not a.skip_serial:
            serial, _ = timed(True, concurrency=1)
            print(f"first sweep one run at a time: {serial:.2f} s ({serial / first:.2f}x the concurrent one)")
        answer = len(json.dumps(rep2.to_dict(), separators=(",", ":")))
        rep2._budget = None
        full = len(json.dumps(rep2.to_dict(), separators=(",", ":")))
        sw = rep2.sweep or {}
        print(f"answer for an agent: {answer / 1000:.1f} KB (every run in full, as --json: {full / 1000:.0f} KB); "
              f"sweep of {sw.get('compared')} on {sw.get('metric')}: {len(sw.get('prune') or [])} to prune, "
              f"leader {os.path.basename(str(sw.get('leader')))}; counts {rep2.counts}")
        print(f"load average {os.getloadavg()[0]:.1f} at the end")
    finally:
        if server is not None:
            server.communicate(timeout=30)  # closing its stdin ends it
        if not a.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
