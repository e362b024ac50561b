"""Time from spawning ``training-check serve`` (stdio) to its ``initialize`` and ``tools/list`` answers.

    python bench/server_start.py --runs 10

prints the median over N spawns for three ways of starting:

- ``front``: ``training-check serve`` as shipped, with its recorded first answers (a warm-up run records them);
- ``cold``: the same with no recorded answers (the first start after an install or a change);
- ``sdk``: the MCP SDK server alone, as ``serve`` was before the front (``create_server().run("stdio")``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "bench", "version": "1"}}}
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


def clear_cache() -> None:
    from training_check.server.stdio_front import CACHE_NAME, cache_dirs, fingerprint

    for d in cache_dirs():
        (d / CACHE_NAME.format(fingerprint())).unlink(missing_ok=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--modes", default="front,cold,sdk")
    args = ap.parse_args()
    home = Path(tempfile.mkdtemp(prefix="tc-bench-"))
    env = {**os.environ, "TRAINING_CHECK_HOME": str(home)}
    try:
        for mode in args.modes.split(","):
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
