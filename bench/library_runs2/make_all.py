"""Make the second library dev corpus (examples/libraries2): real runs of fastai, MMEngine, Composer, Poutyne.

    ~/venvs/dev2a/bin/python bench/library_runs2/make_all.py --out examples/libraries2 [--only NAME ...]

Each run is ``nice -n 10 python GEN.py ARGS > train.log 2>&1`` started as a subprocess in a fresh temporary
working directory (stdout and stderr one file, no TTY, default buffering, 1 CPU thread, seeded), as
``bench/holdout_libraries/make_all.py`` makes its runs and with its truth helpers (``lib_truth``): the generator
writes ``truth.json`` from the library's own structured record and keeps the library's own small files; a file
other than the log that holds the series (a CSV logger's file, MMEngine's ``scalars.json``) is a second entry.
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

RUNS: dict[str, tuple[str, str, str, bool]] = {}


def run(name: str, gen: str, args: str = "", label: str = "healthy", stop: bool = False) -> None:
    RUNS[name] = (gen, args, label, stop)


# --- fastai (fastprogress's table: 'epoch  train_loss  valid_loss  accuracy  time' between bar redraws)
run("fastai_one_cycle_accuracy_8ep", "fastai_fit.py", "--epochs 8 --lr 1e-2")
run("fastai_fit_csvlogger_6ep", "fastai_fit.py", "--mode fit --epochs 6 --lr 3e-3 --csv")
run("fastai_one_cycle_nometrics_bs64_10ep", "fastai_fit.py", "--epochs 10 --lr 2e-2 --bs 64 --no-metrics --csv")
run("fastai_fit_lr_huge_nan", "fastai_fit.py", "--mode fit --epochs 6 --lr 300", label="nan", stop=True)
# --- MMEngine (LoggerHook lines 'Epoch(train)  [1][10/32]  lr: ...  eta: ...  loss: ...'; vis_data/scalars.json)
run("mmengine_epoch_sgd_interval10", "mmengine_runner.py", "--epochs 5 --interval 10")
run("mmengine_epoch_val_adam_interval5", "mmengine_runner.py", "--epochs 4 --interval 5 --opt Adam --lr 3e-3 --val")
run("mmengine_iter_sched_interval20", "mmengine_runner.py", "--loop iter --iters 300 --interval 20 --scheduler --val")
run("mmengine_epoch_sgd_lr_huge_nan", "mmengine_runner.py", "--epochs 4 --interval 5 --lr 60", label="nan", stop=True)
run("mmengine_iter_sgd_lr_high_diverged", "mmengine_runner.py", "--loop iter --iters 200 --interval 10 --lr 1.2",
    label="diverged", stop=True)
# --- MosaicML Composer (tqdm bars on stderr, ConsoleLogger lines, FileLogger)
run("composer_bar_console_every5ba", "composer_trainer.py", "--epochs 4 --bar --console 5ba")
run("composer_console_every1ba_file", "composer_trainer.py", "--epochs 3 --console 1ba --file --eval")
run("composer_bar_only_adam", "composer_trainer.py", "--epochs 5 --bar --opt adam --lr 3e-3")
run("composer_console_lr_huge_nan", "composer_trainer.py", "--epochs 3 --console 2ba --lr 200", label="nan",
    stop=True)
# --- Poutyne (progress 'Epoch: 1/8 Train steps: 32 ... loss: 1.05 acc: 47.3 val_loss ...', CSVLogger)
run("poutyne_sgd_valid_8ep", "poutyne_fit.py", "--epochs 8")
run("poutyne_adam_novalid_6ep", "poutyne_fit.py", "--epochs 6 --opt adam --lr 3e-3 --no-valid")
run("poutyne_batch_granularity_4ep", "poutyne_fit.py", "--epochs 4 --batch-granularity")
run("poutyne_sgd_lr_huge_nan", "poutyne_fit.py", "--epochs 6 --lr 80", label="nan", stop=True)


def check_label(truth: dict, label: str) -> list[str]:
    vals = [float(v) for _, v in truth["train_loss"]]
    return label_problems(vals, label) if vals else ["no train-loss point in the truth"]


def _entry(name: str, file: str, truth_file: str, truth: dict) -> dict:
    return {"file": f"{name}/{file}", "truth": f"{name}/{truth_file}", "framework": truth["framework"],
            "label": truth["label"], "should_stop": truth["should_stop"], "n_points": len(truth["train_loss"]),
            "loss_name": truth["loss_name"], "step_unit": truth["step_unit"]}


def make(name: str, out: Path) -> list[dict]:
    gen, args, label, stop = RUNS[name]
    dest = out / name
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    env = child_env(strip=["TERM"], HOLDOUT_DEST=str(dest),
                    PYTHONPATH=f"{HERE}:{HERE.parent / 'holdout_libraries'}", DO_NOT_TRACK="1")
    cmd = ["nice", "-n", "10", PY, str(HERE / gen), *args.split(), "--label", label] + (["--should-stop"] if stop
                                                                                        else [])
    log = dest / "train.log"
    with tempfile.TemporaryDirectory(prefix=f"lib2-{name}-") as cwd, open(log, "wb") as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=cwd,
                            env=env).returncode
    if rc != 0:
        print(f"  {name}: exit {rc} (kept: a run that ends in an error is a real outcome)", file=sys.stderr)
    if not (dest / "truth.json").is_file():
        raise SystemExit(f"{name}: the generator wrote no truth.json; see {log}")
    truth = json.loads((dest / "truth.json").read_text())
    for problem in check_label(truth, label) + unprinted(log, truth):
        print(f"  {name}: {problem}", file=sys.stderr)
    entries = [_entry(name, "train.log", "truth.json", truth)]
    extra = dest / "extra_entries.json"
    if extra.is_file():
        for ln in extra.read_text().splitlines():
            e = json.loads(ln)
            entries.append(_entry(name, e["file"], e["truth"], json.loads((dest / e["truth"]).read_text())))
        extra.unlink()
    return entries


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="examples/libraries2")
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    remake(out, a.only, RUNS, make, read_manifest(out / "manifest.jsonl"), count_entries=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
