"""Real tracker stores for the tests, written by the real ``mlflow`` and ``dvclive`` libraries in a subprocess.

``python -m tests.tracker_runs SPEC_JSON`` runs the actions of a spec and prints the MLflow run ids (JSON). A spec
is a list of actions:

- ``{"mlflow": URI, "experiment": E, "run_name": N, "run_id": ID?, "metrics": {key: [[step, value], ...]},
  "params": {...}, "end": true|false, "no_step": [key...]}``: log into a new run (or the run ``run_id``, resumed);
  points with a step through ``log_batch``, the ``no_step`` keys one ``log_metric`` each without a step.
- ``{"dvclive": DIR, "resume": bool, "metrics": {key: [v0, v1, ...]}, "start": n}``: a DVCLive run, one
  ``next_step`` per value (``resume`` continues a run's steps).

Each spawn costs the import of the library (a few seconds), so the tests write their stores once per module.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _value(v: object) -> float:
    return float(v) if not isinstance(v, str) else {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[v]


def _mlflow(action: dict) -> str:
    import mlflow
    from mlflow.entities import Metric, Param
    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri=action["mlflow"])
    run_id = action.get("run_id")
    if not run_id:
        exp = client.get_experiment_by_name(action["experiment"])
        exp_id = exp.experiment_id if exp else client.create_experiment(action["experiment"])
        run_id = client.create_run(exp_id, run_name=action.get("run_name")).info.run_id
    now = int(1000 * __import__("time").time())
    metrics = [Metric(key, _value(v), now + i, int(step))
               for key, points in (action.get("metrics") or {}).items() for i, (step, v) in enumerate(points)]
    for i in range(0, len(metrics), 1000):
        client.log_batch(run_id, metrics=metrics[i:i + 1000])
    params = [Param(k, str(v)) for k, v in (action.get("params") or {}).items()]
    if params:
        client.log_batch(run_id, params=params)
    for key in action.get("no_step") or []:
        for v in action["no_step"][key]:
            client.log_metric(run_id, key, _value(v))
    if action.get("end", True):
        client.set_terminated(run_id)
    _ = mlflow
    return run_id


def _dvclive(action: dict) -> None:
    from dvclive import Live

    metrics = action["metrics"]
    n = max(len(v) for v in metrics.values())
    with Live(action["dvclive"], resume=bool(action.get("resume")), save_dvc_exp=False,
              dvcyaml=None) as live:
        for i in range(n):
            for key, values in metrics.items():
                if i < len(values):
                    live.log_metric(key, _value(values[i]))
            live.next_step()


def run(spec: list[dict], cwd: Path, timeout: float = 240) -> list[str]:
    """The spec's actions in a fresh interpreter (working in ``cwd``); the MLflow run ids."""
    env = {**os.environ, "MLFLOW_ALLOW_FILE_STORE": "true",
           "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("MLFLOW_TRACKING_URI", None)
    out = subprocess.run([sys.executable, "-m", "tests.tracker_runs", json.dumps(spec)], cwd=cwd, env=env,
                         capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        raise RuntimeError(f"tracker run failed: {out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ids: list[str] = []
    for action in json.loads(sys.argv[1]):
        if "mlflow" in action:
            ids.append(_mlflow(action))
        else:
            _dvclive(action)
    print(json.dumps(ids))


if __name__ == "__main__":
    main()
