"""Make the 70th held-out library corpus (examples/libraries_holdout70): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout70/bin/python bench/holdout_libraries70/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- nnunetv2 (nnU-Net v2: `nnUNetv2_plan_and_preprocess` then its trainer on the CPU; timestamped lines
# `2026-12-07 08:25:04.845681: train_loss -0.517`, `val_loss -0.7441`, `Pseudo dice [np.float32(0.9284)]` under
# `Epoch 1` and `Current learning rate: 0.00887`; its own training_log_*.txt kept)
run("nnunet_sgd_fold0_8ep", "nnunet_train.py", "--epochs 8")
run("nnunet_adam_fold0_10ep", "nnunet_train.py", "--base nnUNetTrainerAdam --lr 0.001 --epochs 10")
run("nnunet_cosanneal_foldall_12ep", "nnunet_train.py",
    "--base nnUNetTrainerCosAnneal --fold all --epochs 12 --iters 6")
run("nnunet_nodeepsup_fold1_10ep", "nnunet_train.py",
    "--base nnUNetTrainerNoDeepSupervision --fold 1 --epochs 10 --iters 12 --val-iters 4")
run("nnunet_celoss_7ep", "nnunet_train.py", "--base nnUNetTrainerCELoss --epochs 7 --iters 10")
run("nnunet_sgd_lr_growth_diverged", "nnunet_train.py", "--lr 0.01 --lr-growth 2.5 --epochs 10", label="diverged",
    stop=True)
run("nnunet_adam_lr_growth_diverged", "nnunet_train.py",
    "--base nnUNetTrainerVanillaAdam --lr 0.01 --lr-growth 3 --epochs 10", label="diverged", stop=True)
run("nnunet_sgd_lr_growth10_nan", "nnunet_train.py", "--lr 0.01 --lr-growth 10 --epochs 10", label="nan",
    stop=True)

# --- cellbender (`cellbender remove-background` on a synthetic droplet matrix; its logger's lines on stderr
# `cellbender:remove-background: [epoch 007]  average training loss: 302.4939` and every 5 epochs
# `[epoch 010] average test loss: 302.9220`; its own out.log and out_metrics.csv kept)
run("cellbender_full_20ep", "cellbender_train.py", "--epochs 20")
run("cellbender_full_lr1e-3_30ep", "cellbender_train.py", "--epochs 30 --lr 0.001")
run("cellbender_ambient_15ep", "cellbender_train.py", "--model ambient --epochs 15 --lr 0.0005")
run("cellbender_swapping_constlr_25ep", "cellbender_train.py", "--model swapping --epochs 25 --lr 0.0005 --constant-lr")
run("cellbender_full_notest_zdim32_18ep", "cellbender_train.py",
    "--epochs 18 --training-fraction 1.0 --z-dim 32 --z-layers 128")
run("cellbender_full_constlr_high_diverged", "cellbender_train.py", "--epochs 20 --lr 0.05 --constant-lr",
    label="diverged", stop=True)
run("cellbender_ambient_constlr_high_diverged", "cellbender_train.py",
    "--model ambient --epochs 20 --lr 0.05 --constant-lr", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout70", "libho70", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
