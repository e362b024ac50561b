"""Make the third held-out library corpus (examples/libraries_holdout3): real runs of training libraries nobody on
the project had used.

    ~/venvs/holdout3/bin/python bench/holdout_libraries3/make_all.py --out examples/libraries_holdout3 \
        [--only NAME ...]

Each run is ``nice -n 10 python GEN.py ARGS > train.log 2>&1`` started as a subprocess in a fresh temporary
working directory: stdout and stderr one file, no TTY, Python's default buffering, 1 CPU thread, seeded. The
generator writes ``truth.json`` (the library's own structured record) and copies the library's own small files into
the run folder (``HOLDOUT_DEST``). This maker then checks the truth against the run's intent (its label), that the
truth has at least 5 points and that every truth value is printed in the log within the tolerance, and writes
``manifest.jsonl`` (one entry per scored file) and ``FORMATS.md``. Self-contained: it uses no project code.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable

# name: (generator, args, label, should_stop)
RUNS: dict[str, tuple[str, list[str], str, bool]] = {}


def run(name: str, gen: str, args: str = "", label: str = "healthy", stop: bool = False) -> None:
    RUNS[name] = (gen, args.split(), label, stop)


# --- Vowpal Wabbit (its progress table on stderr: 'average loss  since last  example counter ...')
run("vw_logistic_default_doubling", "vw_online.py", "--task logistic --n 6000")
run("vw_squared_every250", "vw_online.py", "--task squared --n 4000 --progress 250")
run("vw_oaa3_every500", "vw_online.py", "--task oaa --n 5000 --progress 500")
run("vw_squared_sgd_lr50_diverged", "vw_online.py", "--task squared --n 4000 --scale 10 --vw=--sgd --vw=-l --vw=50",
    label="diverged", stop=True)
run("vw_squared_sgd_const_lr2_diverged", "vw_online.py",
    "--task squared --n 4000 --scale 3 --vw=--sgd --vw=-l --vw=2 --vw=--power_t --vw=0",
    label="diverged", stop=True)

# --- Poutyne (Model.fit's progression: '\rEpoch: 1/15 Step: 3/32 ... loss: 0.949919 acc: 68.75', an epoch summary)
run("poutyne_cls_val_csvlogger_15ep", "poutyne_fit.py", "--task cls --epochs 15 --csv")
run("poutyne_reg_noval_20ep", "poutyne_fit.py", "--task reg --epochs 20 --no-val --lr 0.005")
run("poutyne_cls_show_every10_csvlogger_12ep", "poutyne_fit.py",
    "--task cls --epochs 12 --progress steps --csv --batch 16")
run("poutyne_reg_sgd_lr_ramp_nan", "poutyne_fit.py", "--task reg --opt sgd --lr 0.005 --ramp 1.8 --epochs 14 --csv",
    label="nan", stop=True)
run("poutyne_cls_sgd_lr_ramp_diverged", "poutyne_fit.py", "--task cls --opt sgd --lr 0.05 --ramp 2 --epochs 9",
    label="diverged", stop=True)

# --- NGBoost ('[iter 10] loss=6.2884 val_loss=6.4348 scale=1.0000 norm=107.1929', every verbose_eval iterations)
run("ngboost_reg_normal_val_every10", "ngboost_fit.py", "--task reg --n-estimators 200 --lr 0.02 --every 10")
run("ngboost_cls_bernoulli_val_every20", "ngboost_fit.py", "--task cls --n-estimators 200 --every 20")
run("ngboost_reg_crps_noval_every5", "ngboost_fit.py", "--task reg --score crps --n-estimators 80 --lr 0.05 --every 5 "
    "--no-val")
run("ngboost_exp_earlystop_every25", "ngboost_fit.py", "--task exp --n-estimators 500 --lr 0.05 --every 25 "
    "--early-stopping 20")
run("ngboost_reg_lr1p5_diverged", "ngboost_fit.py", "--task reg --lr 1.5 --n-estimators 60 --every 5",
    label="diverged", stop=True)
run("ngboost_cls_lr4_inf", "ngboost_fit.py", "--task cls --lr 4 --n-estimators 60 --every 5", label="nan", stop=True)

# --- DeepXDE, PyTorch backend (its table: 'Step  Train loss  Test loss  Test metric', '100  [1.52e-01]  ...')
run("dde_function_adam_every100_2000it", "deepxde_train.py", "--iters 2000 --every 100")
run("dde_poisson_hardbc_adam_every200", "deepxde_train.py", "--problem poisson --iters 2000 --every 200 --lr 0.005")
run("dde_function_nometric_every50_1000it", "deepxde_train.py", "--no-metric --iters 1000 --every 50 --width 32")
run("dde_function_sgd_lr1_every5_nan", "deepxde_train.py", "--opt sgd --lr 1.0 --iters 400 --every 5",
    label="nan", stop=True)
run("dde_poisson_sgd_lr0p02_every5_nan", "deepxde_train.py",
    "--opt sgd --lr 0.02 --problem poisson --iters 600 --every 5",
    label="nan", stop=True)
run("dde_function_adam_step_gamma2p5_diverged", "deepxde_train.py",
    "--lr 0.002 --decay-gamma 2.5 --iters 1500 --every 50", label="diverged", stop=True)

# --- DeepCTR-Torch (Keras-like: 'Epoch 3/10' then '0s - loss:  0.6625 - binary_crossentropy:  0.6623 - auc: ...')
run("deepctr_deepfm_binary_val_v2_10ep", "deepctr_fit.py", "--model DeepFM --task binary --epochs 10")
run("deepctr_dcn_regression_val_v1_bar_12ep", "deepctr_fit.py", "--model DCN --task regression --epochs 12 --verbose 1")
run("deepctr_xdeepfm_binary_noval_v2_8ep", "deepctr_fit.py", "--model xDeepFM --task binary --epochs 8 --val 0")
run("deepctr_wdl_regression_sgd_v2_8ep", "deepctr_fit.py",
    "--model WDL --task regression --opt sgd --lr 0.003 --epochs 8")
run("deepctr_deepfm_binary_sgd_lr50_diverged", "deepctr_fit.py", "--task binary --opt sgd --lr 50 --epochs 8",
    label="diverged", stop=True)

# --- pykan (a tqdm bar whose description is '| train_loss: 3.57e-02 | test_loss: 3.63e-02 | reg: 1.78e+01 |')
run("kan_lbfgs_expsin_log1_30steps", "pykan_fit.py", "--steps 30 --log 1")
run("kan_adam_poly_log5_60steps", "pykan_fit.py", "--opt Adam --lr 0.05 --steps 60 --log 5 --func poly")
run("kan_lbfgs_bessel_width8_lamb_log3", "pykan_fit.py",
    "--func bessel --width 2,8,1 --steps 24 --log 3 --lamb 0.0005")
run("kan_adam_lr3_log2_diverged", "pykan_fit.py", "--opt Adam --lr 3 --steps 40 --log 2", label="diverged", stop=True)
run("kan_adam_lr50_bessel_diverged", "pykan_fit.py", "--opt Adam --lr 50 --steps 30 --log 1 --func bessel",
    label="diverged", stop=True)

# --- PaddlePaddle hapi (ProgBarLogger: 'Epoch 1/5', 'step 10/20 - loss: 0.6182 - acc: 0.5594 - 32ms/step')
run("paddle_cls_adam_v2_log10_eval_5ep", "paddle_hapi.py", "--task cls --epochs 5 --log-freq 10")
run("paddle_reg_adam_v1_bar_log5_noeval_5ep", "paddle_hapi.py",
    "--task reg --epochs 5 --verbose 1 --log-freq 5 --no-eval --lr 0.005")
run("paddle_cls_sgd_v2_log1_3ep", "paddle_hapi.py", "--task cls --opt sgd --lr 0.1 --log-freq 1 --epochs 3")
run("paddle_cls_sgd_lr40_v1_log5_nan", "paddle_hapi.py",
    "--task cls --opt sgd --lr 40 --epochs 4 --verbose 1 --log-freq 5",
    label="nan", stop=True)
run("paddle_reg_sgd_lr_ramp_v2_diverged", "paddle_hapi.py", "--task reg --opt sgd --lr 0.002 --gamma 1.08 --epochs 4",
    label="diverged", stop=True)

# --- flair ModelTrainer ('epoch 1 - iter 3/13 - loss 0.74620189 - ...', 'EPOCH 1 done: loss 0.7413 - lr: 0.100000')
run("flair_textclf_sgd_lr0p5_10ep", "flair_train.py", "--lr 0.5 --epochs 10")
run("flair_textclf_adam_lr0p01_8ep", "flair_train.py", "--opt adam --lr 0.01 --epochs 8")
run("flair_textclf_train_with_dev_8ep", "flair_train.py", "--lr 0.3 --epochs 8 --train-with-dev")
run("flair_textclf_sgd_lr10_diverged", "flair_train.py", "--lr 10 --epochs 8 --no-anneal", label="diverged", stop=True)

# --- Avalanche (InteractiveLogger / TextLogger: 'Epoch 3 ended.', '\tLoss_Epoch/train_phase/train_stream = 0.4312')
run("av_naive_sgd_1exp_interactive_10ep", "avalanche_cl.py", "--epochs 10")
run("av_naive_2exp_csv_interactive_6ep", "avalanche_cl.py", "--experiences 2 --epochs 6 --logger csv+interactive")
run("av_naive_adam_text_minibatch_8ep", "avalanche_cl.py", "--opt adam --lr 0.005 --logger text --minibatch --epochs 8")
run("av_naive_sgd_lr50_nan", "avalanche_cl.py", "--lr 50 --epochs 8", label="nan", stop=True)
run("av_naive_sgd_lr_ramp_nan", "avalanche_cl.py", "--lr 0.05 --gamma 2.5 --epochs 10", label="nan", stop=True)
run("av_naive_adam_lr_ramp_text_diverged", "avalanche_cl.py",
    "--lr 0.02 --gamma 3 --epochs 10 --opt adam --logger text",
    label="diverged", stop=True)

# --- torchtuples (one line per epoch, a counter first: '3:\t[0s / 0s],\t\ttrain_loss: 0.1546,\tval_loss: 0.0674')
run("tt_mlp_reg_val_20ep", "torchtuples_fit.py", "--epochs 20")
run("tt_mlp_cls_noval_15ep", "torchtuples_fit.py", "--task cls --epochs 15 --no-val")
run("tt_mlp_reg_adamwr_earlystop_30ep", "torchtuples_fit.py", "--cycle --epochs 30 --lr 0.01 --early-stopping")
# torchtuples prints no NaN score (the epoch's line ends after its timer), so this run's NaN epochs are not in its
# truth: what the log shows is a blow-up to 2e23, then blank epochs
run("tt_mlp_cls_sgd_lr_ramp_diverged_then_blank", "torchtuples_fit.py",
    "--task cls --opt sgd --lr 0.05 --ramp 2 --epochs 12", label="diverged", stop=True)
run("tt_mlp_cls_adam_lr_ramp_noval_diverged", "torchtuples_fit.py",
    "--task cls --opt adam --lr 0.01 --ramp 2.2 --epochs 12 --no-val", label="diverged", stop=True)
run("tt_mlp_reg_adam_lr_ramp_diverged", "torchtuples_fit.py", "--task reg --opt adam --lr 0.005 --ramp 1.8 --epochs 14",
    label="diverged", stop=True)

# Runs labelled by their intent where the label rule does not hold, and why
LABEL_EXCEPTIONS: dict[str, str] = {}

NUM = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)", re.IGNORECASE)


def _f(v) -> float:
    return float(v)


def label_problems(vals: list[float], label: str) -> list[str]:
    finite = all(math.isfinite(v) for v in vals)
    if label == "nan":
        return [] if not finite else ["label nan but every train-loss value is finite"]
    if not finite:
        return [f"label {label} but the train loss has a non-finite value"]
    if label == "healthy":
        return [] if vals[-1] < vals[0] else [f"label healthy but it ends at {vals[-1]:.4g} >= start {vals[0]:.4g}"]
    if label == "diverged":
        tail = vals[len(vals) * 3 // 4:]
        best = min(vals)
        ok = max(tail) >= 2 * best and max(tail) > vals[0]
        return [] if ok else [f"label diverged but the last quarter peaks at {max(tail):.4g} (best {best:.4g}, "
                              f"first {vals[0]:.4g})"]
    return []


def unprinted(log: Path, truth: dict) -> list[str]:
    """Truth values that no number printed in the log matches within the tolerance."""
    text = log.read_text(errors="replace").replace(",", "")
    nums = []
    for m in NUM.finditer(text):
        try:
            nums.append(float(m.group()))
        except ValueError:
            pass
    finite = sorted(x for x in nums if math.isfinite(x))
    has_nan = any(math.isnan(x) for x in nums)
    has_inf = any(math.isinf(x) for x in nums)
    tol = truth["tolerance"]
    rel, ab = tol.get("rel", 1e-9), tol.get("abs", 0.0)
    import bisect
    missing = []
    for step, v in truth["train_loss"]:
        if v == "nan":
            if not has_nan:
                missing.append((step, v))
            continue
        if v in ("inf", "-inf"):
            if not (has_inf or has_nan):
                missing.append((step, v))
            continue
        v = float(v)
        allow = max(ab, rel * abs(v)) * 1.0001 + 1e-15
        i = bisect.bisect_left(finite, v - allow)
        if not (i < len(finite) and finite[i] <= v + allow):
            missing.append((step, v))
    if missing:
        return [f"{len(missing)} of {len(truth['train_loss'])} truth values not printed, e.g. {missing[:3]}"]
    return []


def check(name: str, truth: dict, label: str, log: Path) -> list[str]:
    vals = [_f(v) for _, v in truth["train_loss"]]
    out = []
    if len(vals) < 5:
        out.append(f"only {len(vals)} truth points")
    steps = [s for s, _ in truth["train_loss"]]
    if steps != sorted(steps) or len(set(steps)) != len(steps):
        out.append("truth steps not strictly increasing")
    if vals and name not in LABEL_EXCEPTIONS:
        out += label_problems(vals, label)
    if log.is_file():
        out += unprinted(log, truth)
    return out


def _entry(name: str, file: str, truth_file: str, truth: dict) -> dict:
    return {"file": f"{name}/{file}", "truth": f"{name}/{truth_file}", "framework": truth["framework"],
            "label": truth["label"], "should_stop": truth["should_stop"], "n_points": len(truth["train_loss"]),
            "loss_name": truth["loss_name"], "step_unit": truth["step_unit"]}


def make(name: str, out: Path) -> None:
    gen, args, label, stop = RUNS[name]
    dest = out / name
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k not in ("TERM", "PYTHONUNBUFFERED", "COLUMNS", "FORCE_COLOR")}
    env.update(HOLDOUT_DEST=str(dest), PYTHONPATH=str(HERE), HOLDOUT_LABEL=label,
               HOLDOUT_SHOULD_STOP="1" if stop else "0", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0", DDE_BACKEND="pytorch", HF_HUB_OFFLINE="1",
               TRANSFORMERS_OFFLINE="1", XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
    cmd = ["nice", "-n", "10", PY, str(HERE / gen), *args, "--label", label] + (["--should-stop"] if stop else [])
    log = dest / "train.log"
    with tempfile.TemporaryDirectory(prefix=f"libho3-{name}-") as cwd, open(log, "wb") as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=cwd,
                            env=env).returncode
    if rc != 0:
        print(f"  {name}: exit {rc} (kept: a run that ends in an error is a real outcome)", file=sys.stderr)
    if not (dest / "truth.json").is_file():
        raise SystemExit(f"{name}: the generator wrote no truth.json; see {log}")
    truth = json.loads((dest / "truth.json").read_text())
    for problem in check(name, truth, label, log):
        print(f"  {name}: {problem}", file=sys.stderr)
    store = dest / "truth_store.json"
    if store.is_file():
        t = json.loads(store.read_text())
        for problem in check(name, t, label, Path("/nonexistent")):
            print(f"  {name} ({t['file']}): {problem}", file=sys.stderr)


def entries_of(name: str, out: Path) -> list[dict]:
    """The manifest entries of a made run: its train.log, and a store with its own truth (``truth_store.json``
    naming the store in its ``file``)."""
    d = out / name
    entries = [_entry(name, "train.log", "truth.json", json.loads((d / "truth.json").read_text()))]
    store = d / "truth_store.json"
    if store.is_file():
        t = json.loads(store.read_text())
        entries.append(_entry(name, t["file"], "truth_store.json", t))
    return entries


def write_manifest(out: Path) -> int:
    """manifest.jsonl from the run folders, in RUNS order (written whole at the end, so makers of different runs
    that overlap in time never lose each other's entries)."""
    lines = [json.dumps(e) for n in RUNS if (out / n / "truth.json").is_file() for e in entries_of(n, out)]
    (out / "manifest.jsonl").write_text("\n".join(lines) + "\n")
    return len(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="examples/libraries_holdout3")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--manifest-only", action="store_true", help="only rewrite manifest.jsonl from the folders")
    ap.add_argument("--check", action="store_true", help="only re-check the made runs' truths (no run)")
    a = ap.parse_args()
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if a.check:
        bad = 0
        for n, (_, _, label, _) in RUNS.items():
            if not (out / n / "truth.json").is_file():
                print(f"  {n}: not made", file=sys.stderr)
                continue
            probs = check(n, json.loads((out / n / "truth.json").read_text()), label, out / n / "train.log")
            for p in probs:
                print(f"  {n}: {p}", file=sys.stderr)
            bad += bool(probs)
        print(f"{len(RUNS)} runs, {bad} with problems", file=sys.stderr)
        return 0
    names = [] if a.manifest_only else (a.only or list(RUNS))
    for n in names:
        if n not in RUNS:
            raise SystemExit(f"unknown run {n}")
    for n in names:
        print(f"{n} ...", file=sys.stderr, flush=True)
        make(n, out)
    print(f"manifest.jsonl: {write_manifest(out)} entries", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
