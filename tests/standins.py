"""Stand-ins shared by the tests: training processes to stop, and the Server-Sent Events framing of the API stubs.

Trainers are real processes. ``TRAINER``'s argv is ``[ignore] [--log PATH] [anything else]``: by default SIGINT
ends it (exit 0); ``ignore`` first makes it ignore SIGINT and SIGTERM, so only SIGKILL does; ``--log`` makes it
hold the run's log open, as a real trainer does (stop_run ties a target to its run that way). Other arguments
(``trap``, ``--tag x``, ``--name x``) only change its command line. It prints ``ready`` once its handlers are set.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

TRAINER = r"""
import signal, sys, time
args = sys.argv[1:]
if "--log" in args:  # a training process holds its log open
    log = open(args[args.index("--log") + 1], "a")
if args[:1] == ["ignore"]:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
else:
    signal.signal(signal.SIGINT, lambda signum, frame: sys.exit(0))
print("ready", flush=True)
while True:
    time.sleep(0.05)
"""


class Trainers:
    """Starts stand-in trainers from one script file; ``close`` kills every one it started, each by its own PID."""

    def __init__(self, folder: Path, name: str = "fake_train.py"):
        self.script = folder / name
        self.script.write_text(TRAINER)
        self.started: list[subprocess.Popen] = []

    def start(self, *args: str, cwd: Path | None = None, **popen: Any) -> subprocess.Popen:
        """``python <script> *args``, returned once it said ready."""
        p = subprocess.Popen([sys.executable, str(self.script), *args], stdout=subprocess.PIPE, text=True,
                             cwd=None if cwd is None else str(cwd), **popen)
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        self.started.append(p)
        return p

    def close(self) -> None:
        for p in self.started:
            if p.poll() is None:
                p.kill()
            p.wait(timeout=10)


def holding_log(log: Path, seconds: float = 300, **popen: Any) -> subprocess.Popen:
    """The smallest trainer: ``python -c ... <log>`` holds ``log`` open for ``seconds`` (no handshake; the caller
    kills it)."""
    code = f"import sys, time; f = open(sys.argv[1], 'a'); time.sleep({seconds})"
    return subprocess.Popen([sys.executable, "-c", code, str(log)], **popen)


def sse_event(kind: str, data: dict) -> bytes:
    """One Server-Sent Event as the OpenAI and Anthropic streaming APIs send it: ``event:`` and JSON ``data:``."""
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n".encode()
