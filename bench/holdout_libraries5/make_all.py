"""Make the fifth held-out library corpus (examples/libraries_holdout5): real runs of training libraries nobody on
the project had used.

    ~/venvs/holdout5/bin/python bench/holdout_libraries5/make_all.py --out examples/libraries_holdout5 \
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
import os
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


# --- NumPyro (SVI.run tqdm bar: "\r...| 200/2000 [..., init loss: 812.3456, avg. loss [101-200]: 140.2154]")
run("numpyro_linreg_adam_2000", "numpyro_svi.py", "--steps 2000")
run("numpyro_logreg_adam_lr5e-2_2000", "numpyro_svi.py", "--model logreg --steps 2000 --lr 0.05")
run("numpyro_hier_diag_clipped_1500", "numpyro_svi.py",
    "--model hier --guide diag --optimizer clipped_adam --steps 1500")
run("numpyro_linreg_sgd_lr_high_nan", "numpyro_svi.py", "--optimizer sgd --lr 1e-3 --steps 1000", label="nan",
    stop=True)
# made first as `diverged`, it reached NaN: made again under the label nan
run("numpyro_hier_adam_lr_growth_nan", "numpyro_svi.py", "--model hier --lr 0.005 --growth 2 --steps 2000",
    label="nan", stop=True)
run("numpyro_logreg_sgd_lr_growth_diverged", "numpyro_svi.py",
    "--model logreg --optimizer sgd --lr 1e-6 --growth 3 --steps 1000", label="diverged", stop=True)
# made first as `diverged`, it reached NaN: made again under the label nan
run("numpyro_linreg_adam_lr_growth_nan", "numpyro_svi.py", "--lr 0.01 --growth 1.6 --steps 2000",
    label="nan", stop=True)


# --- CLU (absl INFO lines of its LoggingWriter: "I1205 ... logging_writer.py:48] [100] accuracy=0.8125, loss=0.4467")
run("clu_cls_adam_log20", "clu_loop.py", "--steps 400 --log_every 20")
run("clu_reg_momentum_log50_eval100_logging", "clu_loop.py",
    "--task reg --optimizer momentum --lr 0.01 --steps 1000 --log_every 50 --eval_every 100 --writer logging")
run("clu_cls_sgd_collection_log10_async", "clu_loop.py",
    "--optimizer sgd --lr 0.1 --steps 300 --log_every 10 --collection train --writer default_async")
run("clu_reg_sgd_lr6e-1_log10", "clu_loop.py", "--task reg --optimizer sgd --lr 0.6 --steps 300 --log_every 10")
run("clu_reg_adam_log25_600", "clu_loop.py", "--task reg --steps 600 --log_every 25 --progress_every 200")
run("clu_cls_adam_lr_growth_diverged", "clu_loop.py", "--lr 0.003 --growth 2 --steps 600 --log_every 20",
    label="diverged", stop=True)
run("clu_reg_sgd_lr_high_nan", "clu_loop.py", "--task reg --optimizer sgd --lr 2 --steps 300 --log_every 10",
    label="nan", stop=True)
# made first as `diverged`, it reached NaN: made again under the label nan
run("clu_cls_momentum_lr_growth_eval_nan", "clu_loop.py",
    "--optimizer momentum --lr 0.01 --growth 2.5 --eval_every 100 --steps 500 --log_every 25", label="nan",
    stop=True)

# --- EvoTorch (StdOutLogger blocks: "         iter : 12" / "    mean_eval : 0.7413..." / ... / blank line)
run("evotorch_pgpe_reg_40gen", "evotorch_ne.py", "--generations 40")
run("evotorch_snes_cls_int5_csv_100gen", "evotorch_ne.py",
    "--problem cls --algo SNES --generations 100 --interval 5 --center-lr 0.5 --csv")
run("evotorch_cem_func_60gen", "evotorch_ne.py", "--problem func --algo CEM --generations 60 --stdev 0.5")
run("evotorch_xnes_func_int2_csv_50gen", "evotorch_ne.py",
    "--problem func --algo XNES --generations 50 --interval 2 --center-lr 0.5 --stdev 0.3 --csv")
run("evotorch_pgpe_reg_adam_lr_high_diverged", "evotorch_ne.py", "--center-lr 1.0 --generations 40",
    label="diverged", stop=True)
run("evotorch_pgpe_cls_adam_lr_high_diverged", "evotorch_ne.py", "--problem cls --center-lr 2.0 --generations 40",
    label="diverged", stop=True)
run("evotorch_pgpe_reg_lr3e-1_int4_60gen", "evotorch_ne.py", "--center-lr 0.3 --generations 60 --interval 4")

# --- torch-rechub (CTRTrainer: "epoch: 0", a tqdm bar "train: 100%|...| 10/10 [..., loss=0.693]", validation auc)
run("rechub_deepfm_val_10ep", "rechub_ctr.py", "--model DeepFM --epochs 10")
run("rechub_widedeep_noval_12ep", "rechub_ctr.py", "--model WideDeep --epochs 12 --no-val --lr 3e-3")
run("rechub_dcn_val_steplr_8ep", "rechub_ctr.py", "--model DCN --epochs 8 --gamma 0.8 --lr 3e-3")
run("rechub_deepfm_sgd_b128_15ep", "rechub_ctr.py", "--model DeepFM --optimizer sgd --lr 0.5 --batch 128 --epochs 15")
run("rechub_dcn_adam_lr_ramp_diverged", "rechub_ctr.py", "--model DCN --lr 3e-3 --gamma 4 --epochs 10 --no-val",
    label="diverged", stop=True)
run("rechub_deepfm_adam_lr3e-1_10ep", "rechub_ctr.py", "--model DeepFM --lr 0.3 --epochs 10")
run("rechub_deepfm_sgd_b128_lr_ramp_diverged", "rechub_ctr.py",
    "--model DeepFM --optimizer sgd --lr 0.5 --batch 128 --gamma 2.5 --epochs 12", label="diverged", stop=True)
run("rechub_widedeep_sgd_lr_ramp_diverged", "rechub_ctr.py",
    "--model WideDeep --optimizer sgd --lr 0.05 --gamma 3 --epochs 10", label="diverged", stop=True)

# --- pytorch-metric-learning (trainer's tqdm bar per epoch: "total_loss=0.23456:  40%|...| 24/60 [...]",
# "INFO:PML:TRAINING EPOCH 1"; record-keeper CSVs)
run("pml_triplet_tester_3ep", "pml_trainer.py", "--epochs 3 --iters 60 --tester")
run("pml_contrastive_classifier_3ep", "pml_trainer.py",
    "--epochs 3 --iters 60 --loss contrastive --trainer TrainWithClassifier")
run("pml_arcface_logfreq20_tester_4ep", "pml_trainer.py", "--epochs 4 --iters 60 --loss arcface --log-freq 20 --tester")
run("pml_ntxent_b32_logfreq5_3ep", "pml_trainer.py", "--epochs 3 --iters 40 --loss ntxent --batch 32 --log-freq 5")
run("pml_classifier_adam_lr_ramp_tester_diverged", "pml_trainer.py",
    "--epochs 4 --iters 60 --trainer TrainWithClassifier --lr 0.003 --gamma 1.03 --tester", label="diverged",
    stop=True)
run("pml_classifier_sgd_lr_ramp3_nan", "pml_trainer.py",
    "--epochs 4 --iters 60 --trainer TrainWithClassifier --optimizer sgd --lr 0.05 --gamma 1.03", label="nan",
    stop=True)
run("pml_classifier_sgd_lr_ramp_diverged", "pml_trainer.py",
    "--epochs 4 --iters 60 --trainer TrainWithClassifier --optimizer sgd --lr 0.05 --gamma 1.02", label="diverged",
    stop=True)


# --- PyMC (ADVI fit + refine calls: "Finished [100%]: Average Loss = 1,176.5" after the rich bar's final state)
run("pymc_linreg_advi_8x1000", "pymc_advi.py", "--chunks 8")
run("pymc_hier_fullrank_6x2000", "pymc_advi.py", "--model hier --method fullrank --chunk 2000 --chunks 6")
run("pymc_logreg_adam_10x500", "pymc_advi.py", "--model logreg --optimizer adam --lr 0.02 --chunk 500 --chunks 10")
run("pymc_linreg_sgd_8x1000", "pymc_advi.py", "--optimizer sgd --lr 1e-3 --chunks 8")
run("pymc_linreg_adam_lr_growth_diverged", "pymc_advi.py", "--optimizer adam --lr 0.01 --growth 4",
    label="diverged", stop=True)
run("pymc_logreg_adam_lr_growth_diverged", "pymc_advi.py",
    "--model logreg --optimizer adam --lr 0.01 --growth 4 --chunk 500 --chunks 10", label="diverged", stop=True)

# --- FuxiCTR (its logger: "2026-12-05 23:26:23,093 P11859 INFO Train loss: 0.680591", then
# "Evaluation @epoch 1 - batch 32: ", "[Metrics] AUC: 0.702789"; its own log file under checkpoints/)
run("fuxictr_adam_v1_8ep", "fuxictr_fit.py", "--epochs 8")
run("fuxictr_adam_v0_eval10_6ep", "fuxictr_fit.py", "--verbose 0 --eval-steps 10 --epochs 6 --patience 3")
run("fuxictr_adagrad_lr1e-2_b256_10ep", "fuxictr_fit.py",
    "--optimizer adagrad --lr 0.01 --batch 256 --epochs 10 --patience 3")
run("fuxictr_adam_lr5e-2_eval4_nopatience_6ep", "fuxictr_fit.py",
    "--lr 0.05 --eval-steps 4 --patience 20 --no-reduce-lr --epochs 6")
run("fuxictr_adam_lr_high_eval8_diverged", "fuxictr_fit.py",
    "--lr 0.5 --patience 20 --no-reduce-lr --epochs 10 --eval-steps 8", label="diverged", stop=True)
run("fuxictr_adam_lr_high_v0_eval8_diverged", "fuxictr_fit.py",
    "--lr 0.2 --eval-steps 8 --patience 20 --no-reduce-lr --epochs 8 --verbose 0", label="diverged", stop=True)

# Runs labelled by their intent where the label rule does not hold, and why
LABEL_EXCEPTIONS: dict[str, str] = {}

# the third blind set's checks of a made run (labels, every truth value printed, manifest entries), used as they are
sys.path.insert(0, str(HERE.parent))
from holdout_libraries3.make_all import _entry, check  # noqa: E402


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
    with tempfile.TemporaryDirectory(prefix=f"libho5-{name}-") as cwd, open(log, "wb") as f:
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
    ap.add_argument("--out", default="examples/libraries_holdout5")
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
