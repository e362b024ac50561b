"""Offline tracker stores for the tests, written by the real libraries (``comet_ml``, ``clearml``: the ``test``
extra) in a subprocess, through bench/tracker_stores/train_logged.py: a short numpy training logged as a user would.
Neptune's client is too heavy for the ``test`` extra: its tests read the stores its generator made
(``examples/trackers2/neptune_*``)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import require

REPO = Path(__file__).resolve().parents[1]
TRAIN = REPO / "bench" / "tracker_stores" / "train_logged.py"
CORPUS = REPO / "examples" / "trackers2"


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMET_", "NEPTUNE_", "CLEARML_"))}
    env["HOME"] = str(home)
    return env


def _argv(tracker: str, scenario: str, out: Path, steps: int, extra: list[str]) -> list[str]:
    return [sys.executable, str(TRAIN), "--tracker", tracker, "--scenario", scenario, "--out", str(out),
            "--steps", str(steps), *extra]


def require_library(module: str) -> None:
    require(importlib.util.find_spec(module) is not None, f"the {module} library (pip install -e '.[test]')")


def train(tracker: str, scenario: str, out: Path, steps: int = 80) -> list[list[float]]:
    """Run a training logged to ``tracker``'s offline store under ``out``; the train loss it logged."""
    require_library({"comet": "comet_ml", "clearml": "clearml"}[tracker])
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(_argv(tracker, scenario, out, steps, []), env=_env(out), cwd=out, check=True, timeout=240,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return json.loads((out / "logged.json").read_text())["train_loss"]


class Paused:
    """A training that stops after ``pause_at`` steps (its store flushed) until ``go()``: read while it is live."""

    def __init__(self, tracker: str, out: Path, pause_at: int, steps: int = 80):
        require_library({"comet": "comet_ml", "clearml": "clearml"}[tracker])
        out.mkdir(parents=True, exist_ok=True)
        self.out, self.go_file = out, out / "go"
        self.proc = subprocess.Popen(_argv(tracker, "healthy", out, steps,
                                           ["--pause-at", str(pause_at), "--go-file", str(self.go_file)]),
                                     env=_env(out), cwd=out, stdout=subprocess.DEVNULL,
                                     stderr=open(out / "stderr.txt", "wb"))
        deadline = time.time() + 180
        while not (out / "paused").exists():
            assert self.proc.poll() is None and time.time() < deadline, "the training did not reach its pause"
            time.sleep(0.1)

    def go(self) -> list[list[float]]:
        self.go_file.write_text("go")
        try:
            assert self.proc.wait(timeout=240) == 0
        except subprocess.TimeoutExpired:
            raise AssertionError((self.out / "stderr.txt").read_text()[-2000:]) from None
        return json.loads((self.out / "logged.json").read_text())["train_loss"]

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
