"""Write real W&B offline runs for tests and benches, with the real ``wandb`` library in a subprocess.

Each row of ``rows`` is one ``wandb.log`` call. Two optional keys in a row are
log arguments, not metrics: ``"__step__"`` (``step=``) and ``"__commit__"``
(``commit=``). The subprocess keeps wandb's global state out of the caller.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

STEP_ARG = "__step__"
COMMIT_ARG = "__commit__"

_CHILD = r"""
import json, os, sys
import wandb

spec = json.loads(open(sys.argv[1]).read())
settings = wandb.Settings(
    mode="offline", console="off", x_disable_stats=spec["disable_stats"], x_disable_meta=True,
    disable_git=True, disable_code=True, silent=True,
)
kwargs = dict(project=spec["project"], entity=spec["entity"], name=spec["name"], config=spec["config"],
              dir=spec["dir"], settings=settings)
if spec["run_id"]:
    kwargs["id"] = spec["run_id"]
if spec["resume"]:
    kwargs["resume"] = spec["resume"]
run = wandb.init(**kwargs)
with open(sys.argv[2]) as rows:
    for line in rows:
        row = json.loads(line)
        step = row.pop("__step__", None)
        commit = row.pop("__commit__", None)
        run.log(row, step=step, commit=commit)
if spec["crash"]:
    import time
    time.sleep(spec["crash"])  # let wandb-core write what was logged, then die as a killed process would
    os._exit(3)  # no finish, no exit record: what a killed training process leaves
run.finish(exit_code=spec["exit_code"])
print(run.dir)
"""


def write_offline_run(
    dir: str | os.PathLike,
    rows: Iterable[dict],
    *,
    project: str = "tc-test",
    entity: str = "tc-entity",
    name: str = "test-run",
    config: dict | None = None,
    run_id: str | None = None,
    resume: str | None = None,
    exit_code: int = 0,
    crash: float = 0.0,
    disable_stats: bool = True,
    timeout_s: float = 1800.0,
) -> Path:
    """Run the real wandb in offline mode under ``dir`` logging ``rows``; returns the run directory
    (``dir/wandb/offline-run-*``) that holds the ``.wandb`` file. ``crash=s`` waits ``s`` seconds after the
    last row and kills the process (no finish, no exit record); ``resume``/``run_id`` are ``wandb.init``'s."""
    base = Path(dir)
    base.mkdir(parents=True, exist_ok=True)
    spec = {
        "project": project, "entity": entity, "name": name, "config": config or {}, "dir": str(base),
        "run_id": run_id, "resume": resume, "exit_code": exit_code, "crash": float(crash),
        "disable_stats": disable_stats,
    }
    with tempfile.TemporaryDirectory(prefix="tc-wandb-rows-") as tmp:
        spec_path = Path(tmp) / "spec.json"
        rows_path = Path(tmp) / "rows.jsonl"
        spec_path.write_text(json.dumps(spec))
        with rows_path.open("w") as f:
            for row in rows:
                f.write(json.dumps(row))  # NaN/Infinity spelled as Python's json reads them back
                f.write("\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("WANDB_")}
        env.update({"WANDB_MODE": "offline", "WANDB_SILENT": "true", "WANDB_DIR": str(base),
                    "WANDB_CONFIG_DIR": str(Path(tmp) / "config"), "WANDB_CACHE_DIR": str(Path(tmp) / "cache"),
                    "WANDB_DATA_DIR": str(Path(tmp) / "data")})
        before = set((base / "wandb").glob("offline-run-*")) if (base / "wandb").is_dir() else set()
        proc = subprocess.run([sys.executable, "-c", _CHILD, str(spec_path), str(rows_path)], env=env,
                              capture_output=True, text=True, timeout=timeout_s)
    if proc.returncode not in (0, 3 if crash else 0):
        raise RuntimeError(f"wandb offline run failed (exit {proc.returncode}): {proc.stderr.strip()[-2000:]}")
    new = sorted(set((base / "wandb").glob("offline-run-*")) - before)
    if len(new) != 1:
        raise RuntimeError(f"expected one new offline run under {base / 'wandb'}, found {len(new)}")
    return new[0]


def wandb_file(run_dir: str | os.PathLike) -> Path:
    """The ``run-*.wandb`` transaction log inside an offline run directory."""
    files = sorted(Path(run_dir).glob("*.wandb"))
    if len(files) != 1:
        raise FileNotFoundError(f"expected one .wandb file in {run_dir}, found {len(files)}")
    return files[0]


@functools.lru_cache(maxsize=1)
def leet_available() -> bool:
    """True when this wandb ships ``wandb leet inspect`` (the oracle for the native reader)."""
    exe = Path(sys.executable).with_name("wandb")
    if not exe.exists():
        return False
    proc = subprocess.run([str(exe), "leet", "inspect", "--help"], capture_output=True, text=True, timeout=60)
    return proc.returncode == 0 and "--json" in proc.stdout


def leet_records(path: str | os.PathLike, timeout_s: float = 600.0) -> list[dict]:
    """Every record of a .wandb file as ``wandb leet inspect --json`` prints it (one JSON object per line)."""
    exe = Path(sys.executable).with_name("wandb")
    proc = subprocess.run([str(exe), "leet", "inspect", "--json", str(path)], capture_output=True, text=True,
                          timeout=timeout_s, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise RuntimeError(f"wandb leet inspect failed (exit {proc.returncode}): {proc.stderr.strip()[-2000:]}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
