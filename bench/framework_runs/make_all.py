"""Make the framework corpus: every run below, each a subprocess whose stdout and stderr go to its train.log.

    .venv/bin/python bench/framework_runs/make_all.py [--out examples/frameworks] [--only SUBSTRING ...]

Each run is ``python GEN.py --out RUN --work SCRATCH --settings JSON > RUN/train.log 2>&1`` (no TTY, the
environment a user has plus KERAS_BACKEND=torch, HF_HUB_OFFLINE=1, OMP_NUM_THREADS=1, and PYTHONUNBUFFERED=1
for a run with ``unbuffered``, as ``python -u``); a run with ``phases``
runs again with ``phase`` 2 appended to the same log (``>>``), as a user resuming after a crash does. The
generator writes ``truth.json`` from the framework's own record; this driver adds the intended label and
``should_stop``, checks the truth agrees with the label (nan: a non-finite train loss; diverged: finite, the
last quarter's highest value at least twice the best; healthy: finite, ends below where it started), and writes
``manifest.jsonl``. ``FORMATS.md`` is written by ``formats.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SCRATCH = Path("/tmp/tc-framework-runs")
STOP_LABELS = {"nan", "diverged"}

HF, PL, KE, SK, XG, LG, TL, AC = ("hf_trainer", "lightning_run", "keras_run", "sklearn_run", "xgboost_run",
                                  "lightgbm_run", "torch_loop", "accelerate_loop")
# (run name, generator, settings, intended label)
RUNS: list[tuple[str, str, dict[str, Any], str]] = [
    # HF Transformers Trainer
    ("hf_log10_steps300", HF, {"max_steps": 300, "logging_steps": 10}, "healthy"),
    ("hf_log5_ga4", HF, {"max_steps": 120, "logging_steps": 5, "gradient_accumulation_steps": 4}, "healthy"),
    ("hf_eval_steps50", HF, {"max_steps": 200, "logging_steps": 10, "eval_strategy": "steps", "eval_steps": 50},
     "healthy"),
    ("hf_eval_epoch_3ep_log20", HF, {"num_train_epochs": 3, "logging_steps": 20, "eval_strategy": "epoch"},
     "healthy"),
    ("hf_log1_steps100", HF, {"max_steps": 100, "logging_steps": 1, "learning_rate": 2e-3}, "healthy"),
    ("hf_resume_after_crash", HF, {"max_steps": 300, "logging_steps": 10, "crash_at": 170, "save_steps": 50,
                                   "phases": 2}, "healthy"),
    ("hf_disable_tqdm", HF, {"max_steps": 200, "logging_steps": 10, "disable_tqdm": True}, "healthy"),
    ("hf_2ep_ga2_log7", HF, {"num_train_epochs": 2, "logging_steps": 7, "gradient_accumulation_steps": 2,
                             "eval_strategy": "epoch"}, "healthy"),
    ("hf_lr_huge_nan", HF, {"max_steps": 200, "logging_steps": 10, "learning_rate": 1e20,
                            "logging_nan_inf_filter": False}, "nan"),
    ("hf_first_step_log25_unbuffered", HF, {"max_steps": 250, "logging_steps": 25, "logging_first_step": True,
                                            "unbuffered": True}, "healthy"),
    ("hf_logging_epoch_4ep", HF, {"num_train_epochs": 4, "logging_strategy": "epoch", "eval_strategy": "epoch"},
     "healthy"),
    ("hf_warmup_to_huge_lr_nan", HF, {"max_steps": 300, "logging_steps": 10, "learning_rate": 1e6,
                                      "warmup_steps": 300, "lr_scheduler_type": "constant_with_warmup",
                                      "logging_nan_inf_filter": False}, "nan"),
    ("hf_warmup_to_lr3_diverged", HF, {"max_steps": 300, "logging_steps": 10, "learning_rate": 3.0,
                                       "warmup_steps": 150, "lr_scheduler_type": "constant_with_warmup"},
     "diverged"),
    # Lightning
    ("pl_tqdm_log10", PL, {"max_epochs": 3, "log_every_n_steps": 10}, "healthy"),
    ("pl_tqdm_log50_10ep", PL, {"max_epochs": 10}, "healthy"),
    ("pl_tqdm_log1_noval", PL, {"max_epochs": 2, "log_every_n_steps": 1, "val": False}, "healthy"),
    ("pl_tqdm_on_epoch_log5", PL, {"max_epochs": 3, "log_every_n_steps": 5, "on_epoch": True}, "healthy"),
    ("pl_tqdm_objective_log20", PL, {"max_epochs": 4, "log_every_n_steps": 20, "loss_name": "objective"},
     "healthy"),
    ("pl_rich_print10", PL, {"max_epochs": 3, "log_every_n_steps": 10, "bar": "rich", "print_every": 10},
     "healthy"),
    ("pl_nobar_print20", PL, {"max_epochs": 4, "log_every_n_steps": 20, "bar": "none", "print_every": 20},
     "healthy"),
    ("pl_tqdm_resume_after_crash", PL, {"max_epochs": 4, "log_every_n_steps": 10, "crash_at": 150, "phases": 2},
     "healthy"),
    ("pl_tqdm_lr_huge_nan", PL, {"max_epochs": 3, "log_every_n_steps": 10, "learning_rate": 5.0}, "nan"),
    ("pl_nobar_lr_huge_nan", PL, {"max_epochs": 3, "log_every_n_steps": 10, "learning_rate": 5.0, "bar": "none",
                                  "print_every": 10}, "nan"),
    ("pl_tqdm_lr_high_inf_then_nan", PL, {"max_epochs": 4, "log_every_n_steps": 10, "learning_rate": 0.3}, "nan"),
    # Keras 3 (torch backend)
    ("keras_v1_regression", KE, {"verbose": 1, "epochs": 8}, "healthy"),
    ("keras_v2_regression", KE, {"verbose": 2, "epochs": 8}, "healthy"),
    ("keras_v1_classification_noval", KE, {"verbose": 1, "epochs": 6, "task": "classification",
                                           "validation": False}, "healthy"),
    ("keras_v2_classification_20ep", KE, {"verbose": 2, "epochs": 20, "task": "classification"}, "healthy"),
    ("keras_v1_many_batches", KE, {"verbose": 1, "epochs": 3, "n_train": 8192, "batch_size": 16}, "healthy"),
    ("keras_v1_sgd_lr_huge_nan", KE, {"verbose": 1, "epochs": 5, "optimizer": "sgd", "learning_rate": 5.0},
     "nan"),
    ("keras_v2_sgd_lr_huge_nan", KE, {"verbose": 2, "epochs": 8, "optimizer": "sgd", "learning_rate": 5.0},
     "nan"),
    ("keras_v2_lr_growth_diverged", KE, {"verbose": 2, "epochs": 12, "learning_rate": 1e-3, "lr_growth": 3.0},
     "diverged"),
    # scikit-learn
    ("sklearn_mlp_classifier", SK, {"model": "classifier", "max_iter": 60}, "healthy"),
    ("sklearn_mlp_regressor", SK, {"model": "regressor", "max_iter": 80}, "healthy"),
    ("sklearn_mlp_early_stopping", SK, {"model": "classifier", "max_iter": 200, "early_stopping": True},
     "healthy"),
    ("sklearn_mlp_sgd_lr_high_nan", SK, {"model": "regressor", "solver": "sgd", "learning_rate_init": 0.5,
                                      "max_iter": 40}, "nan"),
    # XGBoost
    ("xgb_rmse_every10", XG, {"rounds": 200, "verbose_eval": 10}, "healthy"),
    ("xgb_logloss_every1", XG, {"rounds": 60, "verbose_eval": 1, "objective": "binary:logistic",
                                "eval_metric": "logloss"}, "healthy"),
    ("xgb_rmse_every25_noval", XG, {"rounds": 300, "verbose_eval": 25, "valid": False}, "healthy"),
    ("xgb_two_metrics_every5", XG, {"rounds": 80, "verbose_eval": 5, "eval_metric": ["rmse", "mae"]}, "healthy"),
    ("xgb_eta_huge_diverged", XG, {"rounds": 100, "verbose_eval": 5, "eta": 2.2}, "diverged"),
    # LightGBM
    ("lgb_l2_every10", LG, {"rounds": 200, "period": 10}, "healthy"),
    ("lgb_binary_logloss_every5", LG, {"rounds": 100, "period": 5, "objective": "binary", "learning_rate": 0.05,
                                       "num_leaves": 5, "metric": "binary_logloss"}, "healthy"),
    ("lgb_l2_every1_quiet_noval", LG, {"rounds": 80, "period": 1, "valid": False, "lgb_verbose": -1}, "healthy"),
    ("lgb_early_stopping_every5", LG, {"rounds": 300, "period": 5, "early_stopping": 10}, "healthy"),
    ("lgb_lr_huge_diverged", LG, {"rounds": 100, "period": 5, "learning_rate": 3.0}, "diverged"),
    # plain PyTorch loops, logged the ways users log
    ("torch_hydra_train_loss", TL, {"style": "hydra", "loss_name": "train_loss", "epochs": 3, "log_every": 5},
     "healthy"),
    ("torch_pipe_nll_config_header", TL, {"style": "pipe", "loss_name": "nll", "header": "config", "epochs": 3},
     "healthy"),
    ("torch_logging_ce", TL, {"style": "basic_logging", "loss_name": "ce", "epochs": 2, "log_every": 20},
     "healthy"),
    ("torch_tutorial_loss", TL, {"style": "tutorial", "epochs": 4, "log_every": 25}, "healthy"),
    ("torch_tqdm_write_cost", TL, {"style": "tqdm_write", "loss_name": "cost", "epochs": 2, "log_every": 10},
     "healthy"),
    ("torch_jsonl_objective", TL, {"style": "jsonl", "loss_name": "objective", "epochs": 2}, "healthy"),
    ("torch_kv_xent_namespace", TL, {"style": "kv", "loss_name": "xent", "header": "namespace", "epochs": 3},
     "healthy"),
    ("torch_hydra_lr_huge_nan", TL, {"style": "hydra", "loss_name": "train_loss", "epochs": 3, "log_every": 5,
                                     "learning_rate": 1e20, "header": "config", "mode": "nan"}, "nan"),
    ("torch_hydra_lr_ramp_nan", TL, {"style": "hydra", "loss_name": "train_loss", "epochs": 3, "log_every": 5,
                                     "learning_rate": 0.05, "lr_growth": 1.1}, "nan"),
    ("torch_pipe_lr_ramp_diverged", TL, {"style": "pipe", "loss_name": "loss", "epochs": 4, "log_every": 10,
                                         "optimizer": "adam", "learning_rate": 1e-3, "lr_end": 2.0}, "diverged"),
    ("torch_tutorial_lr_huge_nan", TL, {"style": "tutorial", "epochs": 3, "log_every": 20,
                                        "learning_rate": 1e20}, "nan"),
    ("torch_jsonl_xent_nan", TL, {"style": "jsonl", "loss_name": "xent", "epochs": 2, "learning_rate": 1e20},
     "nan"),
    # Accelerate loops (HF no_trainer example style)
    ("accelerate_log10", AC, {"max_train_steps": 150, "log_every": 10}, "healthy"),
    ("accelerate_ga4_log5_nll", AC, {"max_train_steps": 100, "log_every": 5, "gradient_accumulation_steps": 4,
                                     "loss_name": "nll"}, "healthy"),
    ("accelerate_lr_huge_nan", AC, {"max_train_steps": 120, "log_every": 10, "learning_rate": 1e20}, "nan"),
]


def _env(unbuffered: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env.update(KERAS_BACKEND="torch", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", HF_DATASETS_OFFLINE="1",
               OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false")
    for k in ("PYTHONUNBUFFERED", "FORCE_COLOR", "TERM"):
        env.pop(k, None)
    if unbuffered:  # as `python -u train.py > train.log 2>&1`: stdout and stderr interleave line by line
        env["PYTHONUNBUFFERED"] = "1"
    return env


def check_label(label: str, loss: list[float]) -> str | None:
    """Why the truth disagrees with the intended label, or None."""
    if not loss:
        return "the truth has no train-loss point"
    finite = [v for v in loss if math.isfinite(v)]
    if label == "nan":
        return None if len(finite) < len(loss) else "no non-finite train loss"
    if len(finite) < len(loss):
        return "a non-finite train loss"
    if label == "diverged":
        tail = finite[len(finite) * 3 // 4:]
        best = min(finite)
        return None if max(tail) >= 2 * best and max(tail) > finite[0] else (
            f"does not diverge (best {best:.4g}, last quarter up to {max(tail):.4g}, first {finite[0]:.4g})")
    return None if finite[-1] < finite[0] else f"does not improve ({finite[0]:.4g} -> {finite[-1]:.4g})"


def make(name: str, gen: str, settings: dict[str, Any], label: str, out_root: Path) -> dict[str, Any]:
    run, work = out_root / name, SCRATCH / name
    shutil.rmtree(run, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    run.mkdir(parents=True)
    work.mkdir(parents=True)
    t0 = time.monotonic()
    for phase in range(1, int(settings.get("phases", 1)) + 1):
        st = dict(settings, phase=phase) if "phases" in settings else settings
        cmd = [sys.executable, str(HERE / f"{gen}.py"), "--out", str(run), "--work", str(work), "--settings",
               json.dumps(st)]
        with open(run / "train.log", "ab") as log:
            rc = subprocess.run(cmd, stdout=log, stderr=log, stdin=subprocess.DEVNULL, cwd=work,
                                env=_env(bool(settings.get("unbuffered"))), check=False).returncode
        if rc and phase == int(settings.get("phases", 1)):
            raise SystemExit(f"{name}: {gen} exited {rc}; see {run / 'train.log'}")
    truth = json.loads((run / "truth.json").read_text())
    truth["settings"] = settings
    loss = [float(v) for _, v in truth["train_loss"]]
    bad = check_label(label, loss)
    if bad:
        print(f"{name}: labelled {label} but {bad}: {[round(v, 4) for v in loss][:40]}", flush=True)
        return {}
    truth = {"framework": truth.pop("framework"), "settings": truth.pop("settings"), "label": label,
             "should_stop": label in STOP_LABELS, **truth}
    from _common import dump_truth

    dump_truth(run / "truth.json", truth)
    shutil.rmtree(work, ignore_errors=True)
    size = (run / "train.log").stat().st_size
    print(f"{name:34s} {truth['framework']:26s} {label:9s} {len(loss):5d} points {size / 1024:8.1f} KB "
          f"{time.monotonic() - t0:5.1f} s", flush=True)
    return {"file": f"{name}/train.log", "truth": f"{name}/truth.json", "framework": truth["framework"],
            "label": label, "should_stop": label in STOP_LABELS, "n_points": len(loss),
            "loss_name": truth["loss_name"], "step_unit": truth["step_unit"]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="examples/frameworks")
    ap.add_argument("--only", nargs="*", help="make only the runs whose name contains one of these")
    args = ap.parse_args()
    out_root = Path(args.out).resolve()
    out_root.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(HERE))
    manifest = out_root / "manifest.jsonl"
    entries = {}
    if manifest.is_file():
        for ln in manifest.read_text().splitlines():
            if ln.strip():
                e = json.loads(ln)
                entries[e["file"].split("/")[0]] = e
    known = {r[0] for r in RUNS}
    failed: list[str] = []
    for name, gen, settings, label in RUNS:
        if args.only and not any(s in name for s in args.only):
            continue
        entry = make(name, gen, settings, label, out_root)
        if not entry:
            failed.append(name)
            continue
        entries[name] = entry
    lines = [json.dumps(entries[r[0]]) for r in RUNS if r[0] in entries and r[0] in known]
    manifest.write_text("\n".join(lines) + "\n")
    if failed:
        print(f"label check failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
