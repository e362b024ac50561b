"""The installed CLI as a test runs it (``training-check ...`` in a subprocess, the test's home as its state), and
stand-in trainers started in a folder of their own: what the CLI tests and the watch tests share."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from .mcp_client import server_env
from .standins import Trainers

TC = str(Path(sys.executable).parent / "training-check")  # the console script pip installed beside this python


def tc(tc_home: Path, *args: str, timeout: float = 120, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([TC, *args], capture_output=True, text=True, timeout=timeout,
                          env=server_env(tc_home, **env), cwd=tc_home.parent)


def trainer_starter(tmp_path: Path) -> Iterator[Callable[..., subprocess.Popen]]:
    """For a ``trainers`` fixture: real stand-in trainers, started in a folder of their own (their working folder
    ties them to no run), and ended after the test."""
    home = tmp_path / "trainer_home"
    home.mkdir()
    t = Trainers(home)
    yield lambda *args, **popen: t.start(*args, cwd=home, **popen)
    t.close()
