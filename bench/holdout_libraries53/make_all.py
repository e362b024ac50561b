"""Make the 53rd held-out library corpus (examples/libraries_holdout53): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout53/bin/python bench/holdout_libraries53/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- hippynn (`setup_and_train` on a tiny HIP-NN over synthetic Morse-labelled H/C clusters: per epoch `Epoch 3:`,
# `Learning rate:     0.003`, `Batch Size: 16`, tqdm bars on stderr unless PROGRESS is off, then a table of metrics
# (rows `T-RMSE`, ..., `Loss-Err`, `Loss-Reg`, `Loss`) by split (columns `train`, `valid`), `{:>10.5g}` with a `*`
# before a new best; its `training_log.txt` (log_terminal's copy) kept)
run("hippynn_adam_energy_12ep", "hippynn_train.py", "--epochs 12")
run("hippynn_adam_forces_12ep", "hippynn_train.py", "--forces --epochs 12")
run("hippynn_adamw_forces_b8_eval50_10ep", "hippynn_train.py",
    "--optimizer adamw --forces --batch 8 --train-eval 0.5 --epochs 10")
run("hippynn_adam_plateau_batch_noprogress_16ep", "hippynn_train.py",
    "--scheduler plateau_batch --lr 0.01 --no-progress --epochs 16")
run("hippynn_sgd_explr_2interactions_14ep", "hippynn_train.py",
    "--optimizer sgd --lr 0.001 --scheduler exp --gamma 0.95 --interactions 2 --epochs 14")
run("hippynn_adam_lr_growth_diverged", "hippynn_train.py", "--lr 0.01 --scheduler exp --gamma 1.6 --epochs 14",
    label="diverged", stop=True)
run("hippynn_sgd_lr_growth_nan", "hippynn_train.py", "--optimizer sgd --lr 0.001 --scheduler exp --gamma 2 --epochs 14",
    label="nan", stop=True)
run("hippynn_sgd_forces_lr_growth_nan", "hippynn_train.py",
    "--forces --optimizer sgd --lr 0.0005 --scheduler exp --gamma 2 --epochs 14", label="nan", stop=True)

# --- neuralhydrology (`nh-run train --config-file cfg.yml` on synthetic basins in its generic layout: logging lines
# `2026-12-06 22:28:04,791: Epoch 7 average loss: avg_loss: 0.03752, avg_total_loss: 0.03752` and `Epoch 7 average
# validation loss: 0.01903 -- Median validation metrics: avg_loss: 0.01903, NSE: 0.96189, KGE: ...`, between them a
# tqdm bar on stdout redrawn with `\r` per batch with `Loss: 0.0234` (none with `verbose: 0`); its `output.log` kept)
run("nh_cudalstm_mse_val_8ep", "nh_train.py", "--epochs 8")
run("nh_ealstm_nse_val_10ep", "nh_train.py", "--model ealstm --loss NSE --epochs 10")
run("nh_gru_rmse_noval_quiet_10ep", "nh_train.py", "--model gru --loss RMSE --validate-every 0 --verbose 0 --epochs 10")
run("nh_cudalstm_adamw_lrsteps_val3_12ep", "nh_train.py",
    "--optimizer AdamW --lr 0:0.01,4:0.005,8:0.001 --validate-every 3 --no-metrics --epochs 12")
run("nh_cudalstm_earlystop_b32_15ep", "nh_train.py", "--early-stopping --batch 32 --epochs 15")
run("nh_cudalstm_5basins_seq60_6ep", "nh_train.py", "--basins 5 --seq-length 60 --hidden 32 --epochs 6")
run("nh_cudalstm_lr_growth_diverged", "nh_train.py", "--lr 0:0.003,2:0.03,3:0.1,4:0.3,5:1,6:3,7:10 --clip 0 --epochs 8",
    label="diverged", stop=True)
run("nh_gru_nse_lr_growth_diverged", "nh_train.py",
    "--model gru --loss NSE --lr 0:0.002,2:0.02,3:0.2,4:2,5:20 --clip 0 --epochs 8", label="diverged", stop=True)
run("nh_ealstm_lr_growth_diverged", "nh_train.py",
    "--model ealstm --lr 0:0.001,1:0.004,2:0.016,3:0.064,4:0.256,5:1,6:4,7:16 --clip 0 --epochs 8", label="diverged",
    stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout53", "libho53", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
