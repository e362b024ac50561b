"""Make the second library dev corpus (examples/libraries2): real runs of fastai, MMEngine, Composer, Poutyne.

    ~/venvs/dev2a/bin/python bench/library_runs2/make_all.py --out examples/libraries2 [--only NAME ...]

Each run is ``nice -n 10 python GEN.py ARGS > train.log 2>&1`` started as a subprocess in a fresh temporary
working directory (stdout and stderr one file, no TTY, default buffering, 1 CPU thread, seeded), as
``bench/holdout_libraries/make_all.py`` makes its runs and with its truth helpers (``lib_truth``): the generator
writes ``truth.json`` from the library's own structured record and keeps the library's own small files; a file
other than the log that holds the series (a CSV logger's file, MMEngine's ``scalars.json``) is a second entry.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from truth_checks import LibraryRuns, library_maker_main, registry  # noqa: E402

RUNS: LibraryRuns = {}
run = registry(RUNS)


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


def main() -> int:
    return library_maker_main(RUNS, HERE, "examples/libraries2", "lib2", __doc__ or "", mark_stores=False)


if __name__ == "__main__":
    raise SystemExit(main())
