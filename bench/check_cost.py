"""Check-cost bench: what one whole healthy check costs over MCP stdio, as the /training-check slash command makes
it (``assess_run`` then ``reschedule`` with its assessment_id), and how long ``stop_run`` takes to end a local
process that exits on SIGINT.

END TO END figures first (what a check costs as the agent sees it, medians): the first check's MB/s through a whole
first check (``assess_run`` on a fresh store in this process: read + store + history + signals + judgment, median of
``--first-n``, after the imports are warm), the same first check over MCP, a long-lived server's later checks, a
second server's first call; then the COMPONENTS they are made of (server-side time of ``assess_run``, reschedule,
answer bytes). Process start to the first answer of a fresh server is bench/server_start.py's figure.

    .venv/bin/python bench/check_cost.py [--steps 100000] [--checks 20] [--append 1000] [--idle 5] [--keep DIR]

A healthy llm.c-style log (power-law loss with noise, warmup + cosine LR, grad norm, an eval every 1000 steps,
throughput, loss scale; bench/response_size.py writes the lines) of ``--steps`` steps is checked once (the first
check reads the whole file), then ``--checks`` times, each after ``--append`` new steps are appended to the log,
then ``--idle`` times with nothing new. Printed per phase: median (and max) wall time of a whole check (both calls,
client side, one long-lived stdio server), the server-side time of ``assess_run`` (the server's own "assess_run done
in X s" log line), and the bytes each check puts in the agent's context (structured content as json.dumps, and the
text content block); then the server process's peak RSS (VmHWM) and its RSS after the last check. Then
``stop_run`` as an agent makes it (the assessment_id of a STOP assessment of a run diverged to NaN,
``target=pid:N``) against a python child that traps SIGINT, names the log on its command line and exits: time
from the call to the child gone (reaped by a waiter thread), and the call's wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import anyio

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from response_size import log_text, run_arrays  # noqa: E402

from tests.mcp_client import mcp_session  # noqa: E402

EVAL_EVERY = 1000
SIGINT_CHILD = ("import signal, sys, time\n"
                "log = open(sys.argv[1], 'a')  # the run's writer: what ties a process to its run\n"
                "signal.signal(signal.SIGINT, lambda *a: sys.exit(0))\n"
                "print('ready', flush=True)\n"
                "time.sleep(600)\n")


def call_bytes(res) -> tuple[int, int]:
    """(bytes of json.dumps(structured_content), bytes of the text content) of a successful CallToolResult."""
    text = "".join(getattr(c, "text", "") for c in res.content)
    assert not res.is_error, text[:300]
    return len(json.dumps(res.structured_content).encode()), len(text.encode())


class Run:
    """A growing log: the whole run's arrays are drawn once, lines are written/appended in slices."""

    def __init__(self, path: Path, total: int, seed: int = 0):
        self.path, self.total, self.seed, self.written = path, total, seed, 0

    def extend(self, n: int) -> None:
        arr = run_arrays(n, self.seed, start=self.written, total=self.total)
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(log_text(arr, EVAL_EVERY, self.seed))
            f.flush()
        self.written += n


def first_check_in_process(path: Path, n: int) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of ``n`` whole first checks of ``path``, each ``assess_run`` on a fresh store (a new
    TRAINING_CHECK_HOME): read + store + history + signals + judgment; the imports warmed first. The CPU time is
    this process's own: on a shared machine it moves less than the wall time."""
    from training_check.tools.assess import assess_run
    from training_check.tools.config import load_config
    from training_check.tools.store import Store

    def fresh_check(log: Path) -> None:
        with tempfile.TemporaryDirectory(prefix="tc-first-") as home:
            config = load_config(cwd=home, env={"TRAINING_CHECK_HOME": home})
            assess_run(str(log), store=Store(config.store_path), config=config)

    with tempfile.TemporaryDirectory(prefix="tc-warm-") as warm:
        Path(warm, "w.log").write_text("".join(f"s:{i} trl:{4 - i / 1000:.4f}\n" for i in range(300)))
        fresh_check(Path(warm, "w.log"))
    times = []
    for _ in range(n):
        t, c = time.perf_counter(), time.process_time()
        fresh_check(path)
        times.append((time.perf_counter() - t, time.process_time() - c))
    return times


DONE_IN = re.compile(r"^assess_run done in ([0-9.]+)s")


def server_pid() -> int | None:
    """The pid of our ``training-check serve`` child (the stdio server)."""
    for child in Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read_text().split():
        try:
            if b"training_check.server.cli" in Path(f"/proc/{child}/cmdline").read_bytes():
                return int(child)
        except OSError:
            continue
    return None


def rss_mb(pid: int | None) -> tuple[float | None, float | None]:
    """(peak RSS, current RSS) of ``pid`` in MB, from /proc/PID/status."""
    if pid is None:
        return None, None
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmHWM"].split()[0]) / 1024, int(fields["VmRSS"].split()[0]) / 1024


async def one_check(s, run: str, job_id: str | None) -> dict:
    """assess_run + reschedule as the slash command makes them; wall time and bytes of both answers."""
    n_logs = len(s.logs)
    t = time.perf_counter()
    a = await s.client.call_tool("assess_run", {"run": run}, read_timeout_seconds=3600)  # a 10M-step first read
    t_a = time.perf_counter() - t
    server_s = None
    for entry in s.logs[n_logs:]:
        m = DONE_IN.match(str(getattr(entry, "data", "")))
        if m:
            server_s = float(m.group(1))
    aid = a.structured_content["assessment_id"] if a.structured_content else None
    args = {"run": run, "assessment_id": aid}
    if job_id:
        args["current_job_id"] = job_id
    r = await s.call("reschedule", args)
    wall = time.perf_counter() - t
    a_struct, a_text = call_bytes(a)
    r_struct, r_text = call_bytes(r)
    return {"wall": wall, "assess": t_a, "server": server_s, "resched": wall - t_a, "struct": a_struct + r_struct,
            "text": a_text + r_text,
            "a_struct": a_struct, "r_struct": r_struct, "verdict": a.structured_content.get("verdict"),
            "interval": r.structured_content.get("interval_minutes", r.structured_content.get("interval")),
            "step": (a.structured_content.get("progress") or {}).get("step")}


async def checks(run: Run, n_checks: int, append: int, n_idle: int, home: Path) -> dict[str, Any]:
    """Per phase the list of checks (first, append, idle, second), and the server's RSS as (peak, now) in MB."""
    phases: dict[str, Any] = {"first": [], "append": [], "idle": []}
    job = None
    async with mcp_session(home) as s:
        pid = server_pid()
        phases["first"].append(await one_check(s, str(run.path), job))
        phases["rss_after_first"] = rss_mb(pid)
        for i in range(n_checks):
            run.extend(append)
            job = f"job-{i}"
            phases["append"].append(await one_check(s, str(run.path), job))
        for _ in range(n_idle):
            phases["idle"].append(await one_check(s, str(run.path), job))
        phases["rss"] = rss_mb(pid)
    # A second server on the same store, as the next cron session starts one: what a later check costs in memory
    # when the first read did not happen in this process.
    phases["second"] = []
    async with mcp_session(home) as s:
        pid = server_pid()
        run.extend(append)
        phases["second"].append(await one_check(s, str(run.path), job))
        phases["second"].append(await one_check(s, str(run.path), job))
        phases["rss_second"] = rss_mb(pid)
    return phases


def write_diverged_log(path: Path) -> None:
    """An llm.c-style log whose loss turns NaN for its last 100 steps: a run assess_run says STOP to."""
    healthy = (f"s:{i} trl:{4.0 - i / 1000:.4f} lr:3.0000e-04 norm:1.0000\n" for i in range(1, 2001))
    diverged = (f"s:{i} trl:nan lr:3.0000e-04 norm:nan\n" for i in range(2001, 2101))
    path.write_text("".join(healthy) + "".join(diverged))


async def stop_timing(root: Path) -> dict:
    """stop_run as an agent makes it, on a run diverged to NaN: assess_run (STOP), then stop_run with that
    assessment_id and target=pid:N, N a child that exits on SIGINT and holds the log open for writing (so the target
    is tied to the run: a command line that only names the log does not tie). Call -> child gone, and the call's
    wall time."""
    log = root / "diverged.log"
    write_diverged_log(log)
    home = root / "home"
    home.mkdir(parents=True, exist_ok=True)
    child = subprocess.Popen([sys.executable, "-c", SIGINT_CHILD, str(log)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    gone_at: list[float] = []

    def wait_child() -> None:
        child.wait()
        gone_at.append(time.perf_counter())

    waiter = threading.Thread(target=wait_child, daemon=True)
    waiter.start()
    try:
        async with mcp_session(home) as s:
            a = await s.call("assess_run", {"run": str(log)})
            verdict = (a.structured_content or {}).get("verdict")
            aid = (a.structured_content or {}).get("assessment_id")
            t = time.perf_counter()
            res = await s.call("stop_run", {"run": str(log), "reason": "bench: stop timing", "assessment_id": aid,
                                            "target": f"pid:{child.pid}"})
            call_s = time.perf_counter() - t
        waiter.join(5)
        sc = res.structured_content or {}
        return {"verdict": verdict, "gone_s": (gone_at[0] - t) if gone_at else None, "call_s": call_s,
                "rc": child.returncode, "stopped": sc.get("stopped"), "final_state": sc.get("final_state"),
                "elapsed": sc.get("elapsed_s"), "error": res.is_error,
                "text": "".join(getattr(c, "text", "") for c in res.content), "sc": sc}
    finally:
        if child.poll() is None:
            child.send_signal(signal.SIGKILL)
            child.wait()


def row(name: str, items: list[dict]) -> str:
    if not items:
        return f"{name:<22} | (none)"
    w = [x["wall"] for x in items]
    srv = [x["server"] for x in items if x["server"] is not None]
    srv_s = f"{statistics.median(srv):>8.3f}" if srv else f"{'?':>8}"
    def med(key: str) -> float:
        return statistics.median(x[key] for x in items)

    return (f"{name:<22} | {len(items):>3} | {statistics.median(w):>8.3f} | {max(w):>7.3f} | "
            f"{med('assess'):>8.3f} | {srv_s} | {med('resched'):>8.3f} | "
            f"{int(med('struct')):>8} | {int(med('text')):>7} | "
            f"{int(med('a_struct')):>6}+{int(med('r_struct')):<5} | "
            + ",".join(sorted({str(x['verdict']) for x in items})))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=100_000, help="steps in the log before the first check")
    ap.add_argument("--checks", type=int, default=20, help="later checks, each after --append new steps")
    ap.add_argument("--append", type=int, default=1000, help="steps appended before each later check")
    ap.add_argument("--idle", type=int, default=5, help="checks with nothing new")
    ap.add_argument("--first-n", type=int, default=5,
                    help="in-process first checks on a fresh store, for the first-check MB/s median (default 5)")
    ap.add_argument("--no-stop", action="store_true", help="skip the stop_run timing")
    ap.add_argument("--keep", type=Path, default=None, help="write the log and store here and keep them")
    args = ap.parse_args(argv)
    if args.first_n < 1:
        ap.error(f"--first-n must be at least 1, not {args.first_n}")
    root = args.keep or Path(tempfile.mkdtemp(prefix="tc-checkcost-"))
    root.mkdir(parents=True, exist_ok=True)
    try:
        total = args.steps + (args.checks + 1) * args.append
        run = Run(root / "train.log", total)
        t = time.perf_counter()
        run.extend(args.steps)
        print(f"wrote {run.path.name}: {args.steps} steps, {run.path.stat().st_size / 1e6:.1f} MB in "
              f"{time.perf_counter() - t:.1f}s; planned {total} steps", flush=True)
        first_mb = run.path.stat().st_size / 1e6
        first_times = first_check_in_process(run.path, args.first_n)
        home = root / "home"
        home.mkdir(parents=True, exist_ok=True)
        phases = anyio.run(checks, run, args.checks, args.append, args.idle, home)
        stop = None
        if not args.no_stop:
            (root / "stop").mkdir(parents=True, exist_ok=True)
            stop = anyio.run(stop_timing, root / "stop")

        print()
        first_s = statistics.median(w for w, _ in first_times)
        first_cpu = statistics.median(c for _, c in first_times)
        mcp_first = phases["first"][0]["wall"]

        def med_wall(items: list[dict]) -> str:
            return f"{statistics.median(x['wall'] for x in items):.3f} s (n={len(items)})" if items else "-"

        print("END TO END (what a check costs as the agent sees it; medians)")
        print(f"  first check of the whole {first_mb:.1f} MB log ({args.steps} steps), assess_run on a fresh store "
              f"(read + store + history + signals + judgment), in process: {first_s:.3f} s = "
              f"{first_mb / first_s:.1f} MB/s (n={len(first_times)}: "
              + ", ".join(f"{w:.2f}" for w, _ in first_times) + f"); CPU {first_cpu:.3f} s = "
              f"{first_mb / first_cpu:.1f} MB/s per CPU-second")
        print(f"  the same first check over MCP (assess_run + reschedule, client wall; the server's first call, "
              f"its first-call imports in it): "
              f"{mcp_first:.3f} s = {first_mb / mcp_first:.1f} MB/s")
        print(f"  later check, +{args.append} steps, long-lived server (assess_run + reschedule, client wall): "
              f"{med_wall(phases['append'])}")
        print(f"  later check, nothing new, long-lived server: {med_wall(phases['idle'])}")
        if phases["second"]:
            print(f"  a 2nd server's first call on the run in the store (+{args.append} steps; assess_run + "
                  f"reschedule, client wall, its first-call imports in it; process start not included, see "
                  f"bench/server_start.py): {phases['second'][0]['wall']:.3f} s")
        if phases["rss"][0] is not None:
            print(f"  server peak memory: {phases['rss'][0]:.0f} MB")
        print()
        print("COMPONENTS: one check = assess_run + reschedule over MCP stdio (one server for all checks); "
              "wall times client side, s; 'server s' is assess_run's own time in the server")
        hdr = (f"{'phase':<22} | {'n':>3} | {'median s':>8} | {'max s':>7} | {'assess s':>8} | {'server s':>8} | "
               f"{'resched s':>8} | "
               f"{'struct B':>8} | {'text B':>7} | {'a + r B':<12} | verdicts")
        print(hdr)
        print("-" * len(hdr))
        print(row(f"first ({args.steps} steps)", phases["first"]))
        print(row(f"+{args.append} steps each", phases["append"]))
        print(row("nothing new", phases["idle"]))
        print(row("2nd server: +1k, idle", phases["second"]))
        peak, now = phases["rss"]
        peak1, _ = phases["rss_after_first"]
        if peak is not None:
            print(f"server RSS: peak {peak:.0f} MB (peak by the end of the first check {peak1:.0f} MB), "
                  f"{now:.0f} MB after the last check; a second server doing one +{args.append} and one idle check: "
                  f"peak {phases['rss_second'][0]:.0f} MB")
        ivals = [x["interval"] for x in phases["first"] + phases["append"] + phases["idle"]]
        print(f"reschedule intervals (min) over the checks: {ivals}")
        if stop is None:
            return 0
        print()
        gone = f"{stop['gone_s']:.3f}s" if stop["gone_s"] is not None else "NOT GONE"
        print(f"stop_run(assessment_id of a {stop['verdict']} assessment, target=pid:N) on a child that exits on "
              f"SIGINT: call -> child gone {gone}; "
              f"call wall {stop['call_s']:.3f}s; stopped={stop['stopped']} final_state={stop['final_state']} "
              f"server-side elapsed_s={stop['elapsed']} exit code={stop['rc']}"
              + (f"; ERROR: {stop['text'][:200]}" if stop["error"] else ""))
        if stop["sc"].get("actions"):
            print("  actions: " + " | ".join(stop["sc"]["actions"]))
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
