"""Make the held-out library corpus (examples/libraries_holdout): real runs of training libraries.

    ~/venvs/holdout2/bin/python bench/holdout_libraries/make_all.py --out examples/libraries_holdout \
        [--only NAME ...]

Each run is ``nice -n 10 python GEN.py ARGS > train.log 2>&1`` (or the launcher the run names: ``torchrun``)
started as a subprocess in a fresh temporary working directory: stdout and stderr one file, no TTY, Python's
default buffering, 1 CPU thread, seeded. The generator writes ``truth.json`` (the library's own structured
record) and copies the library's own small files into the run folder (``HOLDOUT_DEST``). The maker then checks
the truth against the run's intent (label) and that every truth value of the log is printed in it, and writes
``manifest.jsonl`` in the layout of examples/frameworks: one entry for ``train.log`` and, for a run whose
natural source is a store or file other than the log (a TensorBoard event file, an MLflow ``mlruns/`` store),
one more entry whose ``file`` is that store, with its own truth.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable
sys.path.insert(0, str(HERE.parent))

from truth_checks import child_env, label_problems, read_manifest, remake, unprinted  # noqa: E402

# name: (argv template, label, should_stop); "{py}" is this interpreter, "{gen}" this folder
RUNS: dict[str, tuple[list[str], str, bool, bool]] = {}


def run(name: str, gen: str, args: str = "", label: str = "healthy", stop: bool = False,
        launcher: list[str] | None = None, label_in_argv: bool = True) -> None:
    argv = [*(launcher or ["{py}"]), f"{{gen}}/{gen}", *args.split()]
    RUNS[name] = (argv, label, stop, label_in_argv)


TORCHRUN = ["{py}", "-m", "torch.distributed.run"]

# --- pytorch-tabnet (History prints 'epoch N | loss: X | valid_auc: ...')
run("tabnet_cls_auc_logloss_v1", "tabnet_fit.py", "--task cls --epochs 25 --verbose 1")
run("tabnet_reg_mse_v3", "tabnet_fit.py", "--task reg --epochs 45 --verbose 3 --lr 0.03")
run("tabnet_multi_noeval_v2", "tabnet_fit.py", "--task multi --epochs 30 --verbose 2 --no-eval")
run("tabnet_cls_earlystop_patience4", "tabnet_fit.py", "--task cls --epochs 80 --verbose 1 --patience 4 --lr 0.05")
run("tabnet_reg_lr_ramp_diverged", "tabnet_fit.py", "--task reg --epochs 30 --verbose 1 --lr 0.02 --sched-gamma 1.6",
    label="diverged", stop=True)
run("tabnet_cls_lr_ramp_diverged", "tabnet_fit.py", "--task cls --epochs 20 --verbose 1 --lr 0.05 --sched-gamma 1.8",
    label="diverged", stop=True)

# --- river (evaluate.progressive_val_score's printout: '[1,000] LogLoss: 0.52')
run("river_logreg_logloss_every250", "river_online.py", "--task cls --every 250")
run("river_linreg_scaled_mse_every250", "river_online.py", "--task reg --metric MSE --lr 0.01 --scale")
run("river_logreg_rolling_logloss_time_every500", "river_online.py",
    "--task cls --scale --lr 0.05 --rolling 1000 --show-time --every 500 --n 8000")
run("river_linreg_mae_every400", "river_online.py", "--task reg --metric MAE --lr 0.005 --scale --every 400")
run("river_linreg_rolling_mae_lr_high_diverged", "river_online.py",
    "--task reg --metric MAE --lr 0.12 --scale --rolling 500", label="diverged", stop=True)

# --- Pyro SVI (no logger of its own: the tutorials' prints)
run("pyro_svi_regression_tutorial_every50", "pyro_svi.py", "--steps 600 --every 50")
run("pyro_svi_mixture_elbo_every_step", "pyro_svi.py", "--fmt elbo --model mixture --steps 150 --every 1 --lr 0.05")
run("pyro_svi_logging_every25", "pyro_svi.py", "--fmt logging --steps 400 --every 25 --lr 0.02")
run("pyro_svi_lr_huge_novalidation_nan", "pyro_svi.py", "--steps 300 --every 10 --lr 30 --no-validation",
    label="nan", stop=True)

# --- GPyTorch (the tutorial's 'Iter i/N - Loss: ...' loop)
run("gpytorch_exact_rbf_50it", "gpytorch_exact.py", "--iters 50 --lr 0.1")
run("gpytorch_exact_matern_every5_150it", "gpytorch_exact.py", "--iters 150 --lr 0.05 --every 5 --kernel matern")
run("gpytorch_exact_lr3_diverged", "gpytorch_exact.py", "--iters 60 --lr 3", label="diverged", stop=True)

# --- PyTorch Geometric (torch_geometric.logging.log: 'Epoch: 001, Loss: 0.6931, Train: ...')
run("pyg_gcn_node_log_100ep", "pyg_train.py", "--task node --epochs 100")
run("pyg_gin_graph_log_25ep", "pyg_train.py", "--task graph --epochs 25 --lr 0.001")
run("pyg_gcn_node_fstring_60ep", "pyg_train.py", "--task node --epochs 60 --print fstring --lr 0.02")
run("pyg_gcn_node_sgd_lr8_diverged", "pyg_train.py", "--task node --opt sgd --lr 8 --epochs 50",
    label="diverged", stop=True)
run("pyg_gin_graph_sgd_lr_high_nan", "pyg_train.py", "--task graph --opt sgd --lr 0.4 --epochs 15 --print fstring",
    label="nan", stop=True)

# --- trackers' local stores from a plain loop: tensorboardX event files, MLflow's file store (mlruns/)
run("tbx_events_loss_per_step", "tracker_loop.py", "--tracker tbx --epochs 10")
run("tbx_events_every4_train_loss_tag", "tracker_loop.py",
    "--tracker tbx --epochs 12 --every 4 --tag train_loss --bs 32")
run("tbx_events_lr_ramp_nan", "tracker_loop.py", "--tracker tbx --epochs 12 --lr 0.005 --ramp 1.04",
    label="nan", stop=True)
run("mlflow_filestore_every5", "tracker_loop.py", "--tracker mlflow --epochs 10 --every 5")
run("mlflow_filestore_every1", "tracker_loop.py", "--tracker mlflow --epochs 9 --every 1 --lr 0.003 --bs 128")
run("mlflow_filestore_lr_ramp_nan", "tracker_loop.py", "--tracker mlflow --epochs 12 --every 2 --lr 0.005 --ramp 1.04",
    label="nan", stop=True)

# --- torchrun --role NAME --tee 3: '[NAME0]:' prefixes, two ranks
run("torchrun_role_trainer_rank0_prints", "ddp_role.py", "--steps 150 --every 5",
    launcher=[*TORCHRUN, "--nproc-per-node", "2", "--role", "trainer", "--tee", "3"])
run("torchrun_role_worker_all_ranks_print", "ddp_role.py", "--steps 120 --every 4 --print-all",
    launcher=[*TORCHRUN, "--nproc-per-node", "2", "--role", "worker", "--tee", "3"])
run("torchrun_role_logging_all_ranks", "ddp_role.py", "--steps 100 --every 5 --print-all --fmt logging",
    launcher=[*TORCHRUN, "--nproc-per-node", "2", "--role", "ddp", "--tee", "3"])
run("torchrun_role_lr_ramp_diverged", "ddp_role.py", "--steps 150 --every 5 --print-all --lr 0.05 --ramp 1.06",
    label="diverged", stop=True, launcher=[*TORCHRUN, "--nproc-per-node", "2", "--role", "trainer", "--tee", "3"])

# --- srun --label on a private one-node Slurm cluster ('0: ', '1: ' prefixes), the same DDP script
SRUN = ["{py}", "{gen}/srun_launch.py", "--ntasks", "2"]
run("srun_label_two_tasks_all_print", "ddp_role.py", "--steps 120 --every 5 --print-all", launcher=SRUN)
run("srun_label_rank0_logging", "ddp_role.py", "--steps 100 --every 4 --fmt logging", launcher=SRUN)
run("srun_label_lr_ramp_diverged", "ddp_role.py", "--steps 150 --every 5 --print-all --lr 0.05 --ramp 1.06",
    label="diverged", stop=True, launcher=SRUN)

# --- Hydra app + logging ('[date time][__main__][INFO] - ...')
run("hydra_kv_adam_log10", "hydra_app.py", "train.epochs=4 train.log_every=10", label_in_argv=False)
run("hydra_epoch_sgd_log5", "hydra_app.py", "optim.name=sgd optim.lr=0.05 train.fmt=epoch train.log_every=5",
    label_in_argv=False)
run("hydra_kv_sgd_lr_ramp_diverged", "hydra_app.py",
    "optim.name=sgd optim.lr=0.01 optim.ramp=1.06 train.epochs=4 train.log_every=5", label="diverged", stop=True,
    label_in_argv=False)

# --- Ultralytics YOLO (column header + a bar row per batch; results.csv per epoch)
run("yolo11n_auto_optimizer_15ep", "yolo_detect.py", "--model yolo11n.yaml --optimizer auto --epochs 15 --n-train 64")
run("yolo_v8n_sgd_batch16_12ep", "yolo_detect.py", "--epochs 12 --n-train 64 --batch 16 --lr0 0.02")
run("yolo_v8n_adam_lr1_diverged", "yolo_detect.py", "--epochs 8 --lr0 1.0 --warmup 0 --optimizer Adam",
    label="diverged", stop=True)

# --- Ray Tune (one trial; verbose=2 prints a vertical result table per iteration)
run("ray_tune_v2_loss_30it", "ray_tune.py", "--iters 30 --lr 0.01")
run("ray_tune_v2_train_loss_60it", "ray_tune.py", "--iters 60 --lr 0.005 --metric train_loss")
run("ray_tune_v2_lr_ramp_nan", "ray_tune.py", "--iters 40 --lr 0.01 --ramp 1.5", label="nan", stop=True)

# Runs labelled by their intent where the label rule (healthy: ends below its start) does not hold, and why
LABEL_EXCEPTIONS = {
    "yolo11n_auto_optimizer_15ep": "a from-scratch YOLO's train losses rise over its first epochs as the task-aligned "
                                   "assigner matches more anchors; default settings, val/box_loss falls",
    "yolo_v8n_sgd_batch16_12ep": "as yolo11n_auto_optimizer_15ep",
}

def check_label(truth: dict, label: str) -> list[str]:
    vals = [float(v) for _, v in truth["train_loss"]]
    if not vals:
        return ["no train-loss point in the truth"]
    if truth.get("higher_is_better", False):
        vals = [-v for v in vals]
    return label_problems(vals, label)


def _entry(name: str, file: str, truth_file: str, truth: dict) -> dict:
    return {"file": f"{name}/{file}", "truth": f"{name}/{truth_file}", "framework": truth["framework"],
            "label": truth["label"], "should_stop": truth["should_stop"], "n_points": len(truth["train_loss"]),
            "loss_name": truth["loss_name"], "step_unit": truth["step_unit"]}


def make(name: str, out: Path) -> list[dict]:
    argv, label, stop, label_in_argv = RUNS[name]
    dest = out / name
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    env = child_env(strip=["TERM"], KERAS_BACKEND="torch", HOLDOUT_DEST=str(dest), PYTHONPATH=str(HERE),
                    YOLO_OFFLINE="1", RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled",
                    MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR="false", DO_NOT_TRACK="1",
                    HOLDOUT_LABEL=label, HOLDOUT_SHOULD_STOP="1" if stop else "0")
    cmd = ["nice", "-n", "10"] + [a.format(py=PY, gen=HERE) for a in argv]
    if label_in_argv:
        cmd += ["--label", label] + (["--should-stop"] if stop else [])
    log = dest / "train.log"
    with tempfile.TemporaryDirectory(prefix=f"libho-{name}-") as cwd, open(log, "wb") as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=cwd,
                            env=env).returncode
    if rc != 0:
        print(f"  {name}: exit {rc} (kept: a run that ends in an error is a real outcome)", file=sys.stderr)
    if not (dest / "truth.json").is_file():
        raise SystemExit(f"{name}: the generator wrote no truth.json; see {log}")
    truth = json.loads((dest / "truth.json").read_text())
    problems = check_label(truth, label) if name not in LABEL_EXCEPTIONS else []
    for problem in problems + unprinted(log, truth, without_commas=True):
        print(f"  {name}: {problem}", file=sys.stderr)
    entries = [_entry(name, "train.log", "truth.json", truth)]
    extra = dest / "extra_entries.json"
    if extra.is_file():
        for ln in extra.read_text().splitlines():
            e = json.loads(ln)
            t = json.loads((dest / e["truth"]).read_text())
            for problem in check_label(t, label):
                print(f"  {name} ({e['file']}): {problem}", file=sys.stderr)
            entries.append(_entry(name, e["file"], e["truth"], t))
        extra.unlink()
    return entries


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="examples/libraries_holdout")
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    old = read_manifest(out / "manifest.jsonl")
    remake(out, a.only, RUNS, make, old, count_entries=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
