"""One short real training (numpy SGD on a linear regression), logged to one tracker's OFFLINE store with the
tracker's own library, as a user of it would: run under a venv holding the library (``pip install comet_ml neptune
clearml``; see make_stores.py), no network.

    python bench/tracker_stores/train_logged.py --tracker comet|neptune|clearml --scenario healthy|diverged \
        --out DIR [--steps N] [--pause-at N --go-file PATH]

Writes the store under DIR (Comet: ``DIR/comet/<id>.zip``; Neptune: ``DIR/.neptune/offline/run__...``; ClearML:
``~/.clearml/cache/offline/offline-<id>/`` and its zip, with ``--beside`` moved to ``DIR/clearml/``; HOME is set
to DIR by the callers)
and ``DIR/logged.json``: every value handed to the library (the truth: what the library was told to record).
``--pause-at N``: after step N, flush the store, write ``DIR/paused`` and wait for ``--go-file`` (a test reads the
store while the run is live, then lets it go on).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

SCENARIOS = {  # lr, its growth per step: healthy runs, and one whose lr schedule grows until SGD diverges (the loss
    # falls for ~50 steps, then grows by orders of magnitude)
    "healthy": (0.02, 1.0),
    "healthy_slow": (0.005, 1.0),
    "diverged": (0.02, 1.07),
}


class Tracker:
    """The three libraries behind one small interface: log a train loss (with epoch), a val loss, settings."""

    exp: Any
    run: Any
    task: Any
    logger: Any

    def __init__(self, kind: str, out: Path, name: str, params: dict):
        self.kind, self.out = kind, out
        if kind == "comet":
            import comet_ml

            self.exp = comet_ml.OfflineExperiment(
                offline_directory=str(out / "comet"), project_name="tracker-stores", display_summary_level=0,
                log_code=False, log_graph=False, auto_param_logging=False, auto_metric_logging=False,
                parse_args=False, auto_output_logging=None, log_env_details=False, log_git_metadata=False,
                log_git_patch=False, log_env_gpu=False, log_env_host=False, log_env_cpu=False,
                log_env_network=False, log_env_disk=False, auto_histogram_weight_logging=False)
            self.exp.set_name(name)
            self.exp.log_parameters(params)
        elif kind == "neptune":
            import neptune

            os.chdir(out)  # neptune keeps .neptune/ in the working folder
            self.run = neptune.init_run(mode="offline", project="demo/tracker-stores", name=name,
                                        capture_stdout=False, capture_stderr=False,
                                        capture_hardware_metrics=False, capture_traceback=False, git_ref=False,
                                        source_files=[])
            self.run["parameters"] = params
        else:
            from clearml import Task

            Task.set_offline(offline_mode=True)
            # no framework hooks, and no repository / package analysis: under load its background thread can hold
            # task.close() for minutes (the corpus stores were made with it; the points are the same)
            frameworks = {k: False for k in ("matplotlib", "tensorflow", "tensorboard", "pytorch", "xgboost",
                                             "scikit", "fastai", "lightgbm", "hydra", "joblib", "megengine",
                                             "catboost", "gradio", "jsonargparse", "detect_repository")}
            self.task = Task.init(project_name="tracker-stores", task_name=name, auto_connect_frameworks=frameworks,
                                  auto_resource_monitoring=False, auto_connect_streams=False,
                                  auto_connect_arg_parser=False)
            self.task.connect(params)
            self.logger = self.task.get_logger()

    def train_loss(self, step: int, epoch: int, value: float) -> None:
        if self.kind == "comet":
            self.exp.log_metric("train_loss", value, step=step, epoch=epoch)
        elif self.kind == "neptune":
            self.run["train/loss"].append(value, step=step)
            self.run["train/epoch"].append(epoch, step=step)
        else:
            self.logger.report_scalar("loss", "train", value=value, iteration=step)

    def val_loss(self, step: int, value: float) -> None:
        if self.kind == "comet":
            self.exp.log_metric("val_loss", value, step=step)
        elif self.kind == "neptune":
            self.run["val/loss"].append(value, step=step)
        else:
            self.logger.report_scalar("loss", "validation", value=value, iteration=step)

    def flush(self) -> None:
        if self.kind == "neptune":
            self.run.wait()
        elif self.kind == "clearml":
            self.task.flush(wait_for_uploads=True)

    def close(self) -> None:
        if self.kind == "comet":
            self.exp.end()
        elif self.kind == "neptune":
            self.run.stop()
        else:
            self.task.close()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tracker", choices=("comet", "neptune", "clearml"), required=True)
    ap.add_argument("--scenario", choices=tuple(SCENARIOS), required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--steps", type=int, default=80)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pause-at", type=int, default=0)
    ap.add_argument("--go-file", default="")
    ap.add_argument("--beside", action="store_true", help="ClearML: move the sessions from HOME's cache to DIR/clearml")
    args = ap.parse_args()
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    lr0, growth = SCENARIOS[args.scenario]
    rng = np.random.default_rng(args.seed)
    n, d, batch = 256, 8, 16
    x = rng.normal(size=(n, d))
    w_true = rng.normal(size=d)
    y = x @ w_true + 0.1 * rng.normal(size=n)
    xv, yv = x[:64], y[:64]
    w = np.zeros(d)
    params = {"lr": lr0, "lr_growth": growth, "batch_size": batch, "max_steps": args.steps, "seed": args.seed}
    tracker = Tracker(args.tracker, out, f"{args.tracker}-{args.scenario}", params)
    logged: dict = {"tracker": args.tracker, "scenario": args.scenario, "params": params, "train_loss": [],
                    "val_loss": []}
    steps_per_epoch = n // batch
    nonfinite_after = 0
    with np.errstate(all="ignore"):
        for step in range(1, args.steps + 1):
            epoch = (step - 1) // steps_per_epoch
            i = ((step - 1) % steps_per_epoch) * batch
            xb, yb = x[i:i + batch], y[i:i + batch]
            lr = lr0 * growth ** step
            err = xb @ w - yb
            loss = float(np.mean(err ** 2))
            w = w - lr * 2 * xb.T @ err / batch
            tracker.train_loss(step, epoch, loss)
            logged["train_loss"].append([step, loss])
            if step % 10 == 0:
                val = float(np.mean((xv @ w - yv) ** 2))
                tracker.val_loss(step, val)
                logged["val_loss"].append([step, val])
            if args.pause_at and step == args.pause_at:
                tracker.flush()
                (out / "paused").write_text(str(step))
                deadline = time.time() + 120
                while not os.path.exists(args.go_file) and time.time() < deadline:
                    time.sleep(0.05)
            if not math.isfinite(loss):
                nonfinite_after += 1
                if nonfinite_after > 5:  # a diverged script goes on a few steps, then its user stops it
                    break
    tracker.close()
    if args.tracker == "clearml" and args.beside:  # ClearML keeps its sessions in HOME's cache: move them beside
        cache = Path(os.environ.get("HOME", "~")).expanduser() / ".clearml" / "cache" / "offline"
        dest = out / "clearml"
        dest.mkdir(exist_ok=True)
        for p in cache.iterdir():
            shutil.move(str(p), dest / p.name)
    (out / "logged.json").write_text(json.dumps(logged))
    return 0


if __name__ == "__main__":
    sys.exit(main())
