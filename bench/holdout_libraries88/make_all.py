"""Make the 88th held-out library corpus (examples/libraries_holdout88): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout88/bin/python bench/holdout_libraries88/make_all.py [--only NAME ...] [--check] [--manifest-only]
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import blind_maker  # noqa: E402

# name: (generator, args, label, should_stop)
RUNS: blind_maker.Runs = {}
run = blind_maker.registry(RUNS)

# --- deepdow (`Run(network, loss, train_dl, val_dataloaders={'train': ..., 'test': ...}).launch(n)`: tqdm bars on
# stderr, one `Epoch 3: 100%|...| 16/16 [..., loss=0.00451, test_loss=0.00470, train_loss=0.00437]` an epoch)
run("deepdow_linear_adam_test_8ep", "deepdow_run.py", "--epochs 8")
run("deepdow_linear_adam_notest_b64_10ep", "deepdow_run.py", "--no-test --batch 64 --epochs 10")
run("deepdow_linear_rmsprop_bench_metrics_8ep", "deepdow_run.py",
    "--optimizer rmsprop --lr 0.003 --benchmarks --metrics --epochs 8")
run("deepdow_linear_adam_downside_b16_7ep", "deepdow_run.py", "--loss downside --batch 16 --epochs 7")
run("deepdow_minimal_sgd_notest_8ep", "deepdow_run.py", "--net minimal --optimizer sgd --lr 3 --no-test --epochs 8")
run("deepdow_linear_sgd_16assets_lr_growth_diverged", "deepdow_run.py",
    "--n-assets 16 --optimizer sgd --lr 2 --lr-growth 4 --epochs 10", label="diverged", stop=True)
run("deepdow_linear_adam_16assets_lr_growth_diverged", "deepdow_run.py",
    "--n-assets 16 --lr 0.002 --lr-growth 2.5 --epochs 12", label="diverged", stop=True)
run("deepdow_linear_rmsprop_16assets_lr_growth_diverged", "deepdow_run.py",
    "--n-assets 16 --optimizer rmsprop --lr 0.002 --lr-growth 2.5 --epochs 12", label="diverged", stop=True)

# --- pzflow (`Flow.train(..., verbose=True)` on its bundled example data: `Training 10 epochs`, `Loss:`, then
# `(0) 5.2405` before training and `(3) 1.4630` after each epoch, the validation loss beside it with a validation set;
# `Training stopping after epoch 5 because training loss diverged.` on a non-finite loss)
run("pzflow_moons_adam_val_10ep", "pzflow_train.py", "--n 2000 --epochs 10 --val")
run("pzflow_moons_adam_noval_b128_8ep", "pzflow_train.py", "--n 2000 --batch 128 --epochs 8")
run("pzflow_galaxy_cond_adam_val_8ep", "pzflow_train.py", "--data galaxy --n 2000 --epochs 8 --val")
run("pzflow_moons_adamw_bar_10ep", "pzflow_train.py", "--n 2000 --optimizer adamw --progress-bar --epochs 10")
run("pzflow_galaxy_cond_sgd_noval_10ep", "pzflow_train.py",
    "--data galaxy --n 2000 --optimizer sgd --lr 0.01 --epochs 10")
run("pzflow_moons_adam_lr_growth_nan", "pzflow_train.py", "--n 2000 --lr 0.003 --lr-growth 3 --epochs 12",
    label="nan", stop=True)
run("pzflow_moons_sgd_lr_growth_nan", "pzflow_train.py",
    "--n 2000 --optimizer sgd --lr 0.02 --lr-growth 2 --epochs 12", label="nan", stop=True)
run("pzflow_galaxy_adam_lr_growth_val_nan", "pzflow_train.py",
    "--data galaxy --n 2000 --lr 0.003 --lr-growth 3 --epochs 12 --val", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout88", "libho88", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
