"""Make the held-out framework corpus (examples/holdout): every run captured as ``python GEN.py > train.log 2>&1``.

    .venv/bin/python bench/holdout_runs/make_holdout.py --out examples/holdout [--only NAME ...]

Each run is a generator of this folder started as a subprocess in a fresh temporary working directory, its
stdout and stderr one file (no TTY, Python's default buffering), 1 CPU thread. A resumed run is two invocations
appended to one log. The generator writes ``truth.json`` (the framework's own record) after training. The
maker then checks the truth against the run's intent (label) and that every truth value is printed in the log,
and writes ``manifest.jsonl`` in the layout of examples/frameworks.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable
sys.path.insert(0, str(HERE.parent))

from truth_checks import child_env, label_problems, read_manifest, remake, unprinted  # noqa: E402

# name: (generator, [argv of each invocation appended to the log], label, should_stop)
RUNS: dict[str, tuple[str, list[list[str]], str, bool]] = {}


def run(name, gen, *argvs, label="healthy", stop=False):
    RUNS[name] = (gen, [list(a) for a in argvs], label, stop)


# --- HF Transformers Trainer
run("hf_bert_log7_ga3_cosine_eval10", "hf_textcls.py",
    "--max-steps 90 --logging-steps 7 --ga 3 --scheduler cosine --eval-strategy steps --eval-steps 10 "
    "--metrics --lr 1e-3".split())
run("hf_bert_log3_first_notqdm", "hf_textcls.py",
    "--max-steps 75 --logging-steps 3 --first-step --disable-tqdm --lr 1e-3".split())
run("hf_bert_log13_loadbest_save", "hf_textcls.py",
    "--epochs 4 --logging-steps 13 --eval-strategy steps --eval-steps 20 --save-steps 20 --load-best "
    "--metrics --lr 1e-3".split())
run("hf_gpt2_log1_warmup", "hf_textcls.py",
    "--model gpt2 --max-steps 45 --logging-steps 1 --warmup 10 --lr 2e-3".split())
run("hf_gpt2_epochlog_5ep_eval", "hf_textcls.py",
    "--model gpt2 --epochs 5 --n-train 200 --logging-strategy epoch --eval-strategy epoch --lr 2e-3".split())
run("hf_bert_resume_ckpt20", "hf_textcls.py",
    "--max-steps 60 --logging-steps 4 --save-steps 20 --crash-at 47 --lr 1e-3".split(),
    "--max-steps 60 --logging-steps 4 --save-steps 20 --resume --lr 1e-3".split())
run("hf_gpt2_lr50_diverged", "hf_textcls.py",
    "--model gpt2 --max-steps 60 --logging-steps 3 --lr 50 --scheduler constant".split(), label="diverged",
    stop=True)
run("hf_mlp_sgd_nan_unfiltered", "hf_textcls.py",
    "--model mlp --max-steps 50 --logging-steps 2 --optim sgd --lr 0.5 --max-grad-norm 0 --scheduler constant "
    "--no-nan-filter".split(), label="nan", stop=True)
# the Trainer's default logging_nan_inf_filter: the NaN steps are logged as loss 0, the grad_norm as nan
run("hf_mlp_sgd_nan_filtered_log1", "hf_textcls.py",
    "--model mlp --max-steps 40 --logging-steps 1 --optim sgd --lr 0.5 --max-grad-norm 0 --scheduler constant "
    "--disable-tqdm".split(), label="nan", stop=True)
run("hf_bert_ga3_notqdm_diverged", "hf_textcls.py",
    "--max-steps 90 --logging-steps 5 --ga 3 --disable-tqdm --warmup 90 --lr 0.3".split(),
    label="diverged", stop=True)

# --- Lightning
run("pl_loss_tqdm_log1_2ep", "pl_blobs.py", "--name loss --log-every 1 --epochs 2".split())
run("pl_trainslash_default_log3_val4x_logging", "pl_blobs.py",
    "--name train/loss --bar default --log-every 3 --val-check 0.25 --epochs 2 --echo logging "
    "--echo-every 3".split())
run("pl_trainslash_tqdm_val_every20_log1", "pl_blobs.py",
    "--name train/loss --bar tqdm --log-every 1 --val-check 20 --epochs 2 --lr 0.003".split())
run("pl_nll_tqdm5_log25_limit_8ep", "pl_blobs.py",
    "--name nll --bar tqdm5 --log-every 25 --limit-train 0.625 --epochs 8 --lr 0.003".split())
run("pl_loss_tqdm_onepoch_accum2_log5", "pl_blobs.py",
    "--name loss --bar tqdm --on-epoch --accum 2 --log-every 5 --epochs 4 --lr 0.003".split())
run("pl_loss_rich_print_log5", "pl_blobs.py",
    "--name loss --bar rich --log-every 5 --epochs 3 --echo print --echo-every 5".split())
run("pl_nobar_print_epoch_batch_log10", "pl_blobs.py",
    "--name train_loss --prog-bar false --bar none --log-every 10 --epochs 3 --echo print "
    "--echo-every 10".split())
run("pl_tqdm_progbar_false_logging_log4", "pl_blobs.py",
    "--name loss --prog-bar false --bar tqdm --log-every 4 --epochs 2 --echo logging --echo-every 4".split())
run("pl_loss_tqdm_sgd_lr_huge_nan", "pl_blobs.py",
    "--name loss --log-every 2 --epochs 2 --opt sgd --lr 50".split(), label="nan", stop=True)
run("pl_nll_nobar_lr_growth_logging", "pl_blobs.py",
    "--name nll --bar none --log-every 5 --epochs 3 --opt sgd --lr 0.01 --lr-growth 1.04 --echo logging "
    "--echo-every 5".split(), label="nan", stop=True)

# --- Keras 3 (torch backend)
run("keras_v1_reg_valsplit_reducelr", "keras_fit.py",
    "--verbose 1 --val-split 0.2 --reduce-lr --epochs 15 --lr 3e-3".split())
run("keras_v2_custom_smooth_l1", "keras_fit.py",
    "--verbose 2 --custom-loss --val-split 0.1 --epochs 12 --lr 3e-3".split())
run("keras_auto_generator_steps15", "keras_fit.py",
    "--verbose auto --task cls --steps-per-epoch 15 --batch 16 --epochs 8".split())
run("keras_v2_cls_reducelr_earlystop", "keras_fit.py",
    "--verbose 2 --task cls --val-split 0.25 --reduce-lr --early-stop --epochs 40 --lr 1e-2".split())
run("keras_v1_lr_growth_terminate_on_nan", "keras_fit.py",
    "--verbose 1 --opt sgd --lr 1e-4 --lr-sched-growth 3 --terminate-nan --epochs 20".split(), label="nan", stop=True)
run("keras_v2_lr_scheduler_growth_nan", "keras_fit.py",
    "--verbose 2 --opt sgd --lr 1e-4 --lr-sched-growth 2.5 --epochs 14".split(), label="nan", stop=True)

# --- scikit-learn
run("sklearn_mlpreg_adam_60it", "sk_models.py", "--model mlpreg --iters 60 --lr 3e-3".split())
run("sklearn_mlpreg_sgd_adaptive", "sk_models.py",
    "--model mlpreg --solver sgd --lr 1e-3 --lr-schedule adaptive --iters 150 --scale".split())
run("sklearn_mlpcls_partial_fit_loop", "sk_models.py", "--model mlpcls_partial --iters 40".split())
run("sklearn_sgdclf_logloss_verbose", "sk_models.py",
    "--model sgdcls --iters 25 --lr 0.01 --lr-schedule optimal".split())
run("sklearn_sgdreg_eta_huge", "sk_models.py",
    "--model sgdreg --iters 30 --lr 0.12 --lr-schedule constant".split(), label="diverged", stop=True)

# --- XGBoost
run("xgb_native_every7_three_evals_custom_metric", "gbdt.py",
    "--lib xgb --variant native3 --rounds 60 --every 7 --eta 0.15".split())
run("xgb_sklearn_verbose_true_early_stopping", "gbdt.py",
    "--lib xgb --variant sk_early --rounds 300 --every 1 --eta 0.2".split())
run("xgb_eval_first_every4", "gbdt.py", "--lib xgb --variant evalfirst --rounds 80 --every 4 --eta 0.3".split())
run("xgb_eval_first_eta_huge_diverged", "gbdt.py",
    "--lib xgb --variant evalfirst --rounds 40 --every 1 --eta 2.6".split(), label="diverged", stop=True)
# --- LightGBM
run("lgb_period3_l1_l2_named_sets", "gbdt.py",
    "--lib lgb --variant names_l1_l2 --rounds 90 --every 3 --eta 0.1".split())
run("lgb_sklearn_multiclass_early_stopping", "gbdt.py",
    "--lib lgb --variant sk_multiclass --rounds 200 --every 1 --eta 0.2".split())
run("lgb_binary_feval_valid_first_every4", "gbdt.py",
    "--lib lgb --variant binary_feval --rounds 100 --every 4 --eta 0.05".split())
run("lgb_rmse_lr_huge_diverged", "gbdt.py",
    "--lib lgb --variant rmse_huge --rounds 60 --every 2 --eta 2.5".split(), label="diverged", stop=True)

# --- plain PyTorch loops
run("torch_epoch_step_of_n_every5", "plain_torch.py", "--fmt epoch_step --epochs 3 --every 5".split())
run("torch_iter_bracket_lr_every20", "plain_torch.py", "--fmt iter --epochs 12 --every 20 --bs 24".split())
run("torch_json_per_step", "plain_torch.py", "--fmt json --epochs 3 --every 1 --opt adam --lr 3e-3".split())
run("torch_tsv_nll_header", "plain_torch.py", "--fmt tsv --epochs 4 --every 2".split())
run("torch_tqdm_write_train_loss", "plain_torch.py", "--fmt tqdm_write --epochs 5 --every 10".split())
run("torch_logging_asctime_step", "plain_torch.py", "--fmt logging --epochs 4 --every 6 --opt adam --lr 3e-3".split())
run("torch_pipe_ce_loss_ppl", "plain_torch.py", "--fmt pipe --epochs 3 --every 4".split())
run("torch_cr_inline_status", "plain_torch.py", "--fmt cr_inline --epochs 3 --every 1 --bs 48".split())
run("torch_iter_bracket_lr_huge_nan", "plain_torch.py", "--fmt iter --epochs 4 --every 5 --loss mse --lr 0.3".split(),
    label="nan", stop=True)
run("torch_json_lr_huge_nan", "plain_torch.py", "--fmt json --epochs 2 --every 1 --loss mse --lr 0.5".split(),
    label="nan", stop=True)
run("torch_epoch_step_lr_ramp_diverged", "plain_torch.py",
    "--fmt epoch_step --epochs 4 --every 3 --lr 0.01 --ramp 1.06".split(), label="diverged", stop=True)
# --- Accelerate
run("accelerate_ga2_print_every5", "plain_torch.py",
    "--fmt acc_print --accelerate --ga 2 --epochs 4 --every 5 --bs 16".split())
run("accelerate_logger_nll_every3", "plain_torch.py",
    "--fmt acc_logger --accelerate --epochs 3 --every 3 --opt adam --lr 3e-3".split())
run("accelerate_ga2_lr_huge_nan", "plain_torch.py",
    "--fmt acc_print --accelerate --ga 2 --epochs 3 --every 2 --loss mse --lr 0.2 --bs 16".split(), label="nan",
    stop=True)

def check(name: str, log: Path, truth: dict, label: str) -> list[str]:
    """What is wrong with a run: its truth against its intent, and truth values the log does not print."""
    vals = [float(v) for _, v in truth["train_loss"]]
    if not vals:
        return ["no train-loss point in the truth"]
    return label_problems(vals, label) + unprinted(log, truth)


def make(name: str, out: Path) -> dict:
    gen, argvs, label, stop = RUNS[name]
    dest = out / name
    dest.mkdir(parents=True, exist_ok=True)
    env = child_env(KERAS_BACKEND="torch", HOLDOUT_TRUTH=str(dest / "truth.json"))
    log = dest / "train.log"
    with tempfile.TemporaryDirectory(prefix=f"holdout-{name}-") as cwd:
        log.unlink(missing_ok=True)
        (dest / "truth.json").unlink(missing_ok=True)
        for i, argv in enumerate(argvs):
            with open(log, "ab") as f:
                rc = subprocess.run([PY, str(HERE / gen), *argv, "--label", label,
                                     *(["--should-stop"] if stop else [])],
                                    stdout=f, stderr=subprocess.STDOUT, cwd=cwd, env=env).returncode
            if rc != 0 and i == len(argvs) - 1:
                raise SystemExit(f"{name}: the generator failed (exit {rc}); see {log}")
    truth = json.loads((dest / "truth.json").read_text())
    for problem in check(name, log, truth, label):
        print(f"  {name}: {problem}", file=sys.stderr)
    return {"file": f"{name}/train.log", "truth": f"{name}/truth.json", "framework": truth["framework"],
            "label": truth["label"], "should_stop": truth["should_stop"], "n_points": len(truth["train_loss"]),
            "loss_name": truth["loss_name"], "step_unit": truth["step_unit"]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="examples/holdout")
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    remake(out, a.only, RUNS, lambda name, out: [make(name, out)], read_manifest(out / "manifest.jsonl"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
