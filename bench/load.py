"""Load bench: many runs assessed concurrently through ONE MCP server by several clients, two servers sharing one
store, a multi-gigabyte log, and a run with millions of steps. Prints wall time, peak memory and whether every
answer was right (a run with NaN losses must be STOP, a healthy one must not be STOP/ERROR/UNREACHABLE).

    .venv/bin/python bench/load.py [--runs 200] [--clients 4] [--ssh-runs 20] [--wandb-runs 40]
                                   [--big-gb 5] [--steps 10000000] [--skip big,steps,...] [--keep DIR]

Phases: ``many`` (one streamable-HTTP server, ``--clients`` SDK clients, log files + .wandb runs + logs over a real
sshd on 127.0.0.1), ``shared`` (two stdio servers, one store, same runs), ``big`` (a ``--big-gb`` GB log of
verbose noise with a metric line every ~1 KB, read streaming in a child process), ``steps`` (``--steps`` steps).
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO.parent)) if str(REPO.parent) not in sys.path else None
sys.path.insert(0, str(REPO))

from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

from tests.mcp_client import SERVER_ARGV, mcp_session, server_env  # noqa: E402

GOOD_BAD = ("good", "bad")


def log_text(steps: int, bad: bool, seed: int) -> str:
    rows = []
    for s in range(steps):
        loss = 5.0 / (s + 1) ** 0.35 + 0.4 + 0.01 * math.sin(s * 0.7 + seed)
        if bad and s >= steps // 2:
            loss = float("nan")
        rows.append(f"step={s} loss={loss:.6f} lr=0.0003 grad_norm={1.0 + 0.05 * math.cos(s + seed):.4f}\n")
    return "".join(rows)


def peak_kb(pid: int) -> int:
    """VmHWM of a live process, in kB (its peak resident memory)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return -1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def right(kind: str, verdict: str | None) -> bool:
    if kind == "bad":
        return verdict == "STOP"
    return verdict not in (None, "STOP", "ERROR", "UNREACHABLE")


# -- runs ---------------------------------------------------------------------------------------------------------

def make_runs(root: Path, n_runs: int, n_ssh: int, n_wandb: int,
              steps: int = 600) -> tuple[list[tuple[str, str]], dict]:
    """[(run reference, good|bad)] and the extra environment (sshd client files)."""
    runs: list[tuple[str, str]] = []
    env: dict[str, str] = {}
    n_ssh = min(n_ssh, n_runs)
    n_wandb = min(n_wandb, n_runs - n_ssh)
    n_logs = n_runs - n_ssh - n_wandb
    logs = root / "logs"
    logs.mkdir(parents=True)
    for i in range(n_logs + n_ssh):
        kind = GOOD_BAD[i % 5 == 0]  # one run in five diverges
        p = logs / f"run{i:04d}" / "train.log"
        p.parent.mkdir()
        p.write_text(log_text(steps, kind == "bad", i))
        runs.append((str(p), kind))
    if n_ssh:
        from tests.sshd_fixture import SshServer, find_sshd

        if not find_sshd():
            print("load: sshd not found: SSH runs read as local files instead")
        else:
            server = SshServer.start_in(root / "sshd")
            env.update(server.env())
            assert server.proc is not None  # started
            env["__sshd_pid"] = str(server.proc.pid)
            runs[n_logs:] = [(server.url(p), k) for p, k in runs[n_logs:]]
            make_runs.sshd = server  # type: ignore[attr-defined]
    if n_wandb:
        from tests.wandb_runs import wandb_file, write_offline_run

        t0 = time.monotonic()
        templates = {}
        for kind in GOOD_BAD:
            rows = [{"loss": (5.0 / (s + 1) ** 0.35 + 0.4) if (kind == "good" or s < 150) else float("nan"),
                     "lr": 3e-4} for s in range(300)]
            templates[kind] = wandb_file(write_offline_run(root / f"wandb-{kind}", rows, name=f"load-{kind}"))
        for i in range(n_wandb):
            kind = GOOD_BAD[i % 5 == 0]
            dst = root / "wandb-copies" / f"w{i:04d}" / templates[kind].name
            dst.parent.mkdir(parents=True)
            shutil.copyfile(templates[kind], dst)
            runs.append((str(dst), kind))
        print(f"load: wrote 2 offline W&B runs and {n_wandb} copies in {time.monotonic() - t0:.1f}s")
    return runs, env


# -- phase: many runs, one server, several clients ----------------------------------------------------------------

async def client_work(url: str, jobs: list[tuple[str, str]], per_client: int, results: list) -> None:
    async with streamable_http_client(url) as (read, write):
        async with ClientSession(read, write) as client:
            await client.initialize()
            limit = anyio.Semaphore(per_client)

            async def one(run: str, kind: str) -> None:
                async with limit:
                    t0 = time.monotonic()
                    res = await client.call_tool("assess_run", {"run": run})
                    sc = res.structured_content or {}
                    text = " ".join(getattr(c, "text", "") for c in res.content)
                    results.append((run, kind, sc.get("verdict") if not res.is_error else "ERROR",
                                    time.monotonic() - t0, text[:200] if res.is_error else ""))

            async with anyio.create_task_group() as tg:
                for run, kind in jobs:
                    tg.start_soon(one, run, kind)


def phase_many(root: Path, args) -> dict:
    runs, env = make_runs(root / "many", args.runs, args.ssh_runs, args.wandb_runs)
    env.pop("__sshd_pid", None)  # not a server variable
    home = root / "many-home"
    port = free_port()
    proc = subprocess.Popen([*SERVER_ARGV, "--http", "--host", "127.0.0.1", "--port", str(port)],
                            env=server_env(home, **env), stdout=subprocess.DEVNULL,
                            stderr=open(root / "many-server.log", "w"))
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the HTTP server did not start: see many-server.log") from None
                time.sleep(0.2)
        results: list = []
        shares = [runs[i::args.clients] for i in range(args.clients)]
        t0 = time.monotonic()

        async def main():
            async with anyio.create_task_group() as tg:
                for share in shares:
                    tg.start_soon(client_work, f"http://127.0.0.1:{port}/mcp", share, args.per_client, results)

        anyio.run(main)
        wall = time.monotonic() - t0
        # a second round: every run read again incrementally (only new bytes: nothing appended -> fast)
        results2: list = []
        t1 = time.monotonic()

        async def again():
            async with anyio.create_task_group() as tg:
                for share in shares:
                    tg.start_soon(client_work, f"http://127.0.0.1:{port}/mcp", share, args.per_client, results2)

        anyio.run(again)
        wall2 = time.monotonic() - t1
        peak = peak_kb(proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        server = getattr(make_runs, "sshd", None)
        if server is not None:
            server.stop()
    wrong = [r for r in results + results2 if not right(r[1], r[2])]
    for r in wrong[:5]:
        print(f"  wrong: {r[0]} expected {r[1]} got {r[2]} {r[4]}")
    lat = sorted(r[3] for r in results)
    return {"phase": "many", "runs": len(runs), "clients": args.clients,
            "ssh": sum(r[0].startswith("ssh://") for r in runs),
            "wandb": sum("wandb-copies" in r[0] for r in runs), "answers": len(results) + len(results2),
            "right": len(results) + len(results2) - len(wrong), "wall_s": round(wall, 1),
            "wall_again_s": round(wall2, 1),
            "p50_s": round(lat[len(lat) // 2], 2), "p95_s": round(lat[int(len(lat) * 0.95)], 2),
            "server_peak_mb": round(peak / 1024, 1)}


# -- phase: two servers, one store -----------------------------------------------------------------------------------

def phase_shared(root: Path, args) -> dict:
    runs, _ = make_runs(root / "shared", args.shared_runs, 0, 0, steps=2000)
    home = root / "shared-home"
    results: list = []

    async def one_server(tag: str):
        async with mcp_session(home, cwd=root) as s:
            limit = anyio.Semaphore(4)

            async def one(run, kind):
                async with limit:
                    res = await s.call("assess_run", {"run": run})
                    results.append((run, kind, (res.structured_content or {}).get("verdict") if not res.is_error
                                    else "ERROR", tag))

            async with anyio.create_task_group() as tg:
                for run, kind in runs:
                    tg.start_soon(one, run, kind)

    home.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()

    async def main():
        async with anyio.create_task_group() as tg:
            tg.start_soon(one_server, "A")
            tg.start_soon(one_server, "B")

    anyio.run(main)
    wall = time.monotonic() - t0
    db = home / "state.sqlite3"
    with sqlite3.connect(db) as c:
        integrity = c.execute("PRAGMA integrity_check").fetchone()[0]
        n_assess = c.execute("SELECT COUNT(*) FROM assessments").fetchone()[0]
        per_source = dict(c.execute("SELECT run_key, n_points FROM sources").fetchall())
    # every source cached exactly once: 2000 steps x 3 metrics
    dup_or_lost = sum(1 for n in per_source.values() if n != 2000 * 3)
    wrong = [r for r in results if not right(r[1], r[2])]
    return {"phase": "shared", "servers": 2, "runs": len(runs), "answers": len(results),
            "right": len(results) - len(wrong), "assessments_stored": n_assess, "integrity": integrity,
            "sources_with_lost_or_duplicated_points": dup_or_lost, "wall_s": round(wall, 1)}


# -- phases: a big log, a long run (a child process each, so its peak memory is its own) --------------------------

CHILD = r"""
import json, resource, sys, time
from training_check.tools.assess import assess_run
from training_check.tools.config import load_config
from training_check.tools.store import Store
config = load_config()
store = Store(config.store_path)
t0 = time.monotonic()
a = assess_run(sys.argv[1], store=store, config=config)
first = time.monotonic() - t0
t1 = time.monotonic()
b = assess_run(sys.argv[1], store=store, config=config)
again = time.monotonic() - t1
src = store.load_source("log:" + sys.argv[1])
print(json.dumps({"verdict": a.verdict, "first_s": round(first, 1), "again_s": round(again, 2),
                  "last_step": src.batch.max_step(), "points": src.batch.n_points,
                  "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}))
"""


def run_child(path: Path, home: Path) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD, str(path)], env=server_env(home), capture_output=True,
                          text=True, timeout=3600)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


NOISE = ("[2026-01-01 00:00:00,000] INFO dataloader: worker 3 prefetched shard 00042 of 01024 "
         "(tokens 1048576, pad 0, seq 2048) " + "x" * 800 + "\n")


def phase_big(root: Path, args) -> dict:
    path = root / "big" / "train.log"
    path.parent.mkdir(parents=True)
    target = int(args.big_gb * (1 << 30))
    t0 = time.monotonic()
    step = 0
    written = 0
    with open(path, "wb", buffering=1 << 22) as f:
        while written < target:
            block = "".join(f"{NOISE}step={s} loss={5.0 / (s + 1) ** 0.35 + 0.4:.6f}\n"
                            for s in range(step, step + 20000)).encode()
            f.write(block)
            written += len(block)
            step += 20000
    gen = time.monotonic() - t0
    out = run_child(path, root / "big-home")
    ok = out["last_step"] == step - 1 and out["points"] == step and right("good", out["verdict"])
    path.unlink()
    return {"phase": "big", "gb": round(written / (1 << 30), 2), "steps": step, "generate_s": round(gen, 1), **out,
            "right": ok}


def phase_steps(root: Path, args) -> dict:
    path = root / "steps" / "train.log"
    path.parent.mkdir(parents=True)
    t0 = time.monotonic()
    with open(path, "wb", buffering=1 << 22) as f:
        for start in range(0, args.steps, 100000):
            f.write("".join(f"step={s} loss={5.0 / (s + 1) ** 0.35 + 0.4:.6f}\n"
                            for s in range(start, min(args.steps, start + 100000))).encode())
    gen = time.monotonic() - t0
    size = path.stat().st_size
    out = run_child(path, root / "steps-home")
    ok = out["last_step"] == args.steps - 1 and out["points"] == args.steps and right("good", out["verdict"])
    path.unlink()
    return {"phase": "steps", "steps": args.steps, "mb": round(size / (1 << 20)), "generate_s": round(gen, 1), **out,
            "right": ok}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--per-client", type=int, default=4, help="calls in flight per client (default 4)")
    ap.add_argument("--ssh-runs", type=int, default=20)
    ap.add_argument("--wandb-runs", type=int, default=40)
    ap.add_argument("--shared-runs", type=int, default=40)
    ap.add_argument("--big-gb", type=float, default=2.0,
                    help="size of the big log in GB (default 2; 5 takes ~8 min more)")
    ap.add_argument("--steps", type=int, default=10_000_000)
    ap.add_argument("--skip", default="", help="comma-separated phases to skip: many,shared,big,steps")
    ap.add_argument("--keep", help="work in this folder and keep it (default: a temporary folder)")
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="tc-load-"))
    root.mkdir(parents=True, exist_ok=True)
    rows = []
    t0 = time.monotonic()
    try:
        for name, fn in (("many", phase_many), ("shared", phase_shared), ("big", phase_big), ("steps", phase_steps)):
            if name in skip:
                continue
            t = time.monotonic()
            row = fn(root, args)
            rows.append(row)
            print(json.dumps(row), f"({time.monotonic() - t:.0f}s)", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print(f"\nload bench: {time.monotonic() - t0:.0f}s total")
    print(f"{'phase':<8}{'answers':>9}{'right':>7}{'wall s':>9}{'peak MB':>9}  notes")
    all_right = True
    for r in rows:
        answers = r.get("answers", 1)
        ok = r["right"] if isinstance(r["right"], int) and not isinstance(r["right"], bool) else int(bool(r["right"]))
        all_right &= ok == answers
        wall = r.get("wall_s", r.get("first_s"))
        peak = r.get("server_peak_mb", r.get("peak_mb", "-"))
        notes = {k: v for k, v in r.items() if k not in ("phase", "answers", "right", "wall_s", "server_peak_mb",
                                                          "peak_mb", "first_s")}
        print(f"{r['phase']:<8}{answers:>9}{ok:>7}{wall:>9}{peak:>9}  {notes}")
    print("every answer right:", all_right)
    return 0 if all_right else 1


if __name__ == "__main__":
    sys.exit(main())
