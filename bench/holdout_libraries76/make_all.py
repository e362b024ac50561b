"""Make the 76th held-out library corpus (examples/libraries_holdout76): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout76/bin/python bench/holdout_libraries76/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- cellpose 3 (`train.train_seg` after `io.logger_setup()`: timestamped `[INFO]` lines on stdout, at epochs 0, 5,
# 10, 20, ... `10, train_loss=1.3926, test_loss=2.0125, LR=0.005000, time 3.30s`; a 10-epoch warm-up from LR 0; its
# run.log kept)
run("cellpose_adamw_test_41ep", "cellpose_train.py", "--epochs 41 --n 4 --bsize 48")
run("cellpose_adamw_notest_51ep", "cellpose_train.py", "--epochs 51 --n 4 --bsize 48 --no-test")
run("cellpose_sgd_test_41ep", "cellpose_train.py", "--epochs 41 --n 4 --bsize 48 --sgd --lr 0.2")
run("cellpose_adamw_b2_per8_41ep", "cellpose_train.py", "--epochs 41 --n 4 --bsize 48 --batch 2 --per-epoch 8")
run("cellpose_adamw_n6_bs64_lr01_61ep", "cellpose_train.py", "--epochs 61 --n 6 --bsize 64 --lr 0.01 --no-test")
run("cellpose_sgd_lr_high_diverged", "cellpose_train.py", "--epochs 41 --n 4 --bsize 48 --sgd --lr 5",
    label="diverged", stop=True)
run("cellpose_sgd_lr_huge_notest_nan", "cellpose_train.py", "--epochs 41 --n 4 --bsize 48 --sgd --lr 50 --no-test",
    label="nan", stop=True)

# --- scArches trVAE (`TRVAE.train(..., monitor_only_val=False)`: one `\r`-rewritten progress bar an epoch,
# ` |████----| 40.0%  - epoch_loss: 380.6178843180 - ... - val_loss: ...` (10 decimals); the trainer's logs kept)
run("scarches_nb_val_20ep", "scarches_trvae.py", "--epochs 20")
run("scarches_nb_earlystop_lr01_40ep", "scarches_trvae.py", "--epochs 40 --lr 0.01 --early-stop")
run("scarches_zinb_noval_15ep", "scarches_trvae.py", "--recon zinb --no-val --epochs 15")
run("scarches_mse_anneal_val_25ep", "scarches_trvae.py", "--recon mse --anneal 10 --epochs 25 --lr 0.003")
run("scarches_nb_b32_nommd_12ep", "scarches_trvae.py", "--batch 32 --no-mmd --epochs 12")
run("scarches_nb_noval_per256_18ep", "scarches_trvae.py", "--no-val --per-epoch 256 --epochs 18 --lr 0.005")
run("scarches_nb_lr_high_noval_diverged", "scarches_trvae.py", "--lr 3 --epochs 16 --no-val --per-epoch 64",
    label="diverged", stop=True)
run("scarches_zinb_lr_high_eps_noval_diverged", "scarches_trvae.py",
    "--recon zinb --lr 2 --eps 1e-8 --epochs 16 --no-val --per-epoch 64", label="diverged", stop=True)
run("scarches_mse_lr_high_val_diverged", "scarches_trvae.py", "--recon mse --lr 5 --epochs 16 --per-epoch 64",
    label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout76", "libho76", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
