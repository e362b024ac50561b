"""A fresh server's first answers: ``initialize``, ``tools/list``, and the first ``assess_run`` of a cron check.

    python bench/server_start.py --runs 10

prints the median over N spawns (each a new process, timed from spawn) for:

- ``check``: what a headless or cron check pays: ``training-check serve`` spawned, ``initialize``, then
  ``tools/call assess_run`` on a run already in the store (a small log checked before): seconds to that answer;
- ``check-2026``: the same opened with the 2026-07-28 ``server/discover`` probe (Claude Code 2.1.332);
- ``cli``: ``training-check check RUN`` from spawn to its exit (its answer printed);
- ``turn``: a client as Claude Code is one (``claude -p "/training-check RUN"``): ``initialize``, ``tools/list``, a
  model's turn (``--turn`` seconds, 1 by default), then ``assess_run``: seconds from the call to its answer (the
  front loads the domain while the model thinks);
- ``floor``: a bare ``python`` that imports the domain and calls ``assess_run`` itself (no server, no CLI): what
  the check costs at the least on this machine, for comparison;
- ``front``: ``training-check serve`` as shipped, with its recorded first answers (a warm-up run records them):
  seconds to ``initialize`` and ``tools/list``;
- ``cold``: the same with no recorded answers (the first start after an install or a change);
- ``sdk``: the MCP SDK server alone, as ``serve`` was before the front (``create_server().run("stdio")``).

The first four are the end-to-end figures; ``--modes check,check-2026,cli,turn`` prints only those. Each line also
gives the median CPU time of the whole process (user + system; it moves less with the load than the wall time).

The package's bytecode is compiled first, as ``pip install`` does (``--no-compile``: as the environment is; an
editable install run with ``PYTHONDONTWRITEBYTECODE=1`` and no ``__pycache__`` compiles the domain's sources at every
start, ~0.07 s more here).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "bench", "version": "1"}}}
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"}}
SDK_ONLY = "from training_check.server.app import create_server; create_server().run('stdio')"


def argv_for(mode: str) -> list[str]:
    if mode == "sdk":
        return [sys.executable, "-c", SDK_ONLY]
    return [sys.executable, "-m", "training_check.server.cli", "serve"]


def one(mode: str, env: dict[str, str], timeout_s: float = 60.0) -> tuple[float, float, int]:
    """Seconds to the initialize answer and to the tools/list answer, and the number of tools listed."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv_for(mode), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         env=env)
    stdin, stdout = p.stdin, p.stdout
    assert stdin is not None and stdout is not None
    try:
        def send(msg: dict) -> None:
            stdin.write((json.dumps(msg) + "\n").encode())
            stdin.flush()

        def answer(want_id: int) -> dict:
            while True:
                line = stdout.readline()
                if not line:
                    raise RuntimeError(f"the server exited before answering request {want_id}")
                msg = json.loads(line)
                if msg.get("id") == want_id:
                    return msg

        send(INIT)
        answer(0)
        t_init = time.perf_counter() - t0
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        tools = answer(1)["result"]["tools"]
        t_list = time.perf_counter() - t0
    finally:
        stdin.close()
        try:
            p.wait(timeout_s)
        except subprocess.TimeoutExpired:
            p.kill()
    return t_init, t_list, len(tools)


def first_check(env: dict[str, str], run: str, modern: bool, timeout_s: float = 120.0,
                turn_s: float | None = None) -> float:
    """Seconds from spawning ``serve`` to the answer of its first ``assess_run`` (opened in either era); with
    ``turn_s``, the tools listed and ``turn_s`` seconds waited first, seconds from the call to its answer."""
    meta = {"_meta": ENVELOPE} if modern else {}
    opening = [{"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": meta}] if modern else \
        [INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "assess_run", "arguments": {"run": run}, **meta}}
    t0 = time.perf_counter()
    p = subprocess.Popen(argv_for("front"), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         env=env)
    stdin, stdout = p.stdin, p.stdout
    assert stdin is not None and stdout is not None
    try:
        stdin.write("".join(json.dumps(m) + "\n" for m in opening).encode())
        stdin.flush()
        while json.loads(stdout.readline() or "{}").get("id") != 0:
            pass
        if turn_s is not None:
            stdin.write((json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}) + "\n").encode())
            stdin.flush()
            while json.loads(stdout.readline() or "{}").get("id") != 2:
                pass
            time.sleep(turn_s)
            t0 = time.perf_counter()
        stdin.write((json.dumps(call) + "\n").encode())
        stdin.flush()
        while True:
            line = stdout.readline()
            if not line:
                raise RuntimeError("the server exited before answering assess_run")
            msg = json.loads(line)
            if msg.get("id") == 1:
                break
        took = time.perf_counter() - t0
        if msg.get("error") or msg["result"].get("isError"):
            raise RuntimeError(f"assess_run failed: {line[:300]!r}")
    finally:
        stdin.close()
        try:
            p.wait(timeout_s)
        except subprocess.TimeoutExpired:
            p.kill()
    return took


def cli_check(env: dict[str, str], run: str) -> float:
    """Seconds from spawning ``training-check check RUN`` to its exit (the verdict printed)."""
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "training_check.server.cli", "check", run], env=env,
                       capture_output=True, text=True, check=False)
    took = time.perf_counter() - t0
    if p.returncode not in (0, 1, 2, 3):
        raise RuntimeError(f"check exited {p.returncode}: {p.stderr[-300:]}")
    return took


FLOOR = ("import os, sys; from training_check.tools.assess import assess_run; "
         "from training_check.tools.config import load_config; from training_check.tools.store import Store; "
         "c = load_config(); assess_run(sys.argv[1], store=Store(c.store_path), config=c).to_dict(); os._exit(0)")


def floor_check(env: dict[str, str], run: str) -> float:
    """Seconds from spawning a bare python that imports the domain and calls assess_run to its exit (left at once,
    as ``serve`` and ``check`` leave, with numpy's BLAS on one thread as they set it)."""
    from training_check.server.cli import BLAS_THREAD_VARS

    if not any(name in env for name in BLAS_THREAD_VARS):
        env = {**env, "OPENBLAS_NUM_THREADS": "1"}
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", FLOOR, run], env=env, check=True, capture_output=True)
    return time.perf_counter() - t0


def write_run(folder: Path, steps: int = 2000) -> str:
    """A small llm.c-style log of a healthy run."""
    import math

    lines = [f"s:{s} trl:{10.5 * math.exp(-s / 300) + 3.0 + 0.02 * math.sin(s):.6f} lr:6.000000e-04 norm:1.0000"
             for s in range(steps)]
    path = folder / "train.log"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def compile_package() -> None:
    """The package's bytecode, as an install compiles it (read also under ``PYTHONDONTWRITEBYTECODE=1``)."""
    from training_check.server import stdio_front

    for sub in ("server", "tools"):
        compileall.compile_dir(stdio_front.PACKAGE / sub, quiet=1)


def children_cpu() -> float:
    """CPU seconds (user + system) of every child process waited for so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def clear_cache() -> None:
    from training_check.server.stdio_front import CACHE_NAME, cache_dirs, fingerprint

    for d in cache_dirs():
        (d / CACHE_NAME.format(fingerprint())).unlink(missing_ok=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--modes", default="check,check-2026,cli,turn,floor,front,cold,sdk")
    ap.add_argument("--turn", type=float, default=1.0, help="seconds a model's turn takes (mode turn)")
    ap.add_argument("--no-compile", action="store_true", help="do not compile the package's bytecode first")
    args = ap.parse_args()
    home = Path(tempfile.mkdtemp(prefix="tc-bench-"))
    env = {**os.environ, "TRAINING_CHECK_HOME": str(home)}
    if not args.no_compile:
        compile_package()
    try:
        run = write_run(home.parent / home.name)
        for mode in args.modes.split(","):
            if mode in ("check", "check-2026", "cli", "floor", "turn"):
                one("front", env)  # the first answers recorded
                cli_check(env, run)  # the run is in the store
                times, cpus = [], []
                for _ in range(args.runs):
                    cpu0 = children_cpu()
                    if mode == "cli":
                        times.append(cli_check(env, run))
                    elif mode == "floor":
                        times.append(floor_check(env, run))
                    elif mode == "turn":
                        times.append(first_check(env, run, False, turn_s=args.turn))
                    else:
                        times.append(first_check(env, run, mode == "check-2026"))
                    cpus.append(children_cpu() - cpu0)
                what = {"cli": "`training-check check RUN` to exit", "floor": "python: import the domain, assess_run",
                        "turn": f"tools listed, a {args.turn:g} s turn, then assess_run: the call to its answer"
                        }.get(mode, "spawn to the first assess_run answer")
                print(f"{mode:10s} {statistics.median(times):.3f} s  {what} (median of {args.runs}; "
                      f"min {min(times):.3f} max {max(times):.3f}; CPU {statistics.median(cpus):.3f} s)")
                continue
            if mode == "front":
                one(mode, env)  # the warm-up run records the first answers
            inits, lists = [], []
            for _ in range(args.runs):
                if mode == "cold":
                    clear_cache()
                t_init, t_list, n = one(mode, env)
                inits.append(t_init)
                lists.append(t_list)
            print(f"{mode:5s}  initialize {statistics.median(inits):.3f} s  tools/list {statistics.median(lists):.3f} s"
                  f"  (median of {args.runs}; {n} tools; tools/list min {min(lists):.3f} max {max(lists):.3f})")
        if "cold" in args.modes:
            one("front", env)  # leave the answers recorded
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
