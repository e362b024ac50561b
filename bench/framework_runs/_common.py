"""Shared by the framework-run generators: arguments, determinism, and the truth file.

Every generator is run by ``make_all.py`` as ``python GEN.py --out DIR --settings JSON`` with stdout and stderr
redirected to ``DIR/train.log`` (no TTY), exactly as a user's ``python train.py > train.log 2>&1``. The generator
trains with the framework's own logging and writes ``DIR/truth.json`` from the framework's own structured record.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parents[1]))  # bench/: truth_file (after the installed packages)

from truth_file import seed_all as seed_python_numpy_torch  # noqa: E402
from truth_file import series  # noqa: E402


def parse_args() -> tuple[Path, dict[str, Any], Path]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True, help="the run's folder (truth.json goes here)")
    ap.add_argument("--work", required=True, help="scratch folder (checkpoints, the framework's own files)")
    ap.add_argument("--settings", required=True, help="JSON object of the run's settings")
    a = ap.parse_args()
    out, work = Path(a.out), Path(a.work)
    out.mkdir(parents=True, exist_ok=True)
    work.mkdir(parents=True, exist_ok=True)
    return out, json.loads(a.settings), work


def seed_all(seed: int) -> None:
    """The shared seeding (truth_file.seed_all), and PYTHONHASHSEED for what this run starts."""
    seed_python_numpy_torch(seed)
    os.environ.setdefault("PYTHONHASHSEED", str(seed))


def write_truth(out: Path, *, framework: str, settings: dict[str, Any], train_loss: list[tuple[int, float]],
                loss_name: str, step_unit: str, tolerance: dict[str, float], record: str,
                steps_per_epoch: int | None = None, extra: dict[str, Any] | None = None) -> None:
    """truth.json without the label: make_all.py adds label and should_stop (the run's intent, checked)."""
    doc: dict[str, Any] = {
        "framework": framework,
        "settings": settings,
        "loss_name": loss_name,
        "step_unit": step_unit,
        "tolerance": tolerance,
        "record": record,
        "train_loss": series(train_loss),
    }
    if steps_per_epoch is not None:
        doc["steps_per_epoch"] = int(steps_per_epoch)
    if extra:
        doc.update(extra)
    dump_truth(out / "truth.json", doc)


def dump_truth(path: Path, doc: dict[str, Any]) -> None:
    """One top-level key a line: small diffs, and still one JSON document."""
    body = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in doc.items())
    path.write_text("{\n" + body + "\n}\n")
