"""Make the 41st held-out library corpus (examples/libraries_holdout41): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout41/bin/python bench/holdout_libraries41/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- coqui-tts-trainer (its `trainer` logger on stderr and in trainer_0_log.txt: "--> TIME: ... -- STEP: 4/15 --
# GLOBAL_STEP: 20" / "| > loss: 0.6055104732513428  (0.6258270591497421)")
run("coqui_cls_adam_val_6ep", "coqui_trainer_fit.py", "--epochs 6 --val")
run("coqui_cls_sgd_mom_p10_8ep", "coqui_trainer_fit.py",
    "--optimizer SGD --momentum 0.9 --lr 0.02 --epochs 8 --print-step 10")
run("coqui_reg_adam_p3_5ep", "coqui_trainer_fit.py", "--task reg --lr 5e-3 --epochs 5 --print-step 3")
run("coqui_reg_rmsprop_epoch_sched_val_10ep", "coqui_trainer_fit.py",
    "--task reg --optimizer RMSprop --lr 3e-3 --gamma 0.8 --epochs 10 --print-step 8 --val --batch 16")
run("coqui_cls_adamw_b64_p2_12ep", "coqui_trainer_fit.py",
    "--optimizer AdamW --lr 3e-3 --epochs 12 --batch 64 --print-step 2")
run("coqui_reg_sgd_lr_high_nan", "coqui_trainer_fit.py",
    "--task reg --optimizer SGD --lr 0.3 --epochs 4 --print-step 2",
    label="nan", stop=True)
run("coqui_reg_sgd_step_lr_growth_nan", "coqui_trainer_fit.py",
    "--task reg --optimizer SGD --lr 0.01 --gamma-step 1.06 --epochs 8 --print-step 4", label="nan", stop=True)
run("coqui_cls_sgd_step_lr_growth_diverged", "coqui_trainer_fit.py",
    "--optimizer SGD --momentum 0.9 --lr 0.01 --gamma-step 1.05 --epochs 10 --print-step 4 --val", label="diverged",
    stop=True)
run("coqui_reg_sgd_mom_lr_high_nan", "coqui_trainer_fit.py",
    "--task reg --optimizer SGD --momentum 0.9 --lr 0.08 --epochs 5 --print-step 3 --val", label="nan", stop=True)
run("coqui_cls_adam_step_lr_growth_diverged", "coqui_trainer_fit.py",
    "--optimizer Adam --lr 1e-3 --gamma-step 1.04 --epochs 12 --print-step 6", label="diverged", stop=True)
run("coqui_reg_adam_step_lr_growth_diverged", "coqui_trainer_fit.py",
    "--task reg --optimizer Adam --lr 1e-3 --gamma-step 1.05 --epochs 10 --print-step 5 --val", label="diverged",
    stop=True)
run("coqui_reg_adam_step_decay_p4_6ep", "coqui_trainer_fit.py",
    "--task reg --optimizer Adam --lr 0.01 --gamma-step 0.97 --epochs 6 --print-step 4 --val")

# --- sockeye (its logging on stderr and in its own `log`:
# "[INFO:sockeye.training] Checkpoint [2]\tTrain-ppl=57.502409";
# made with ~/venvs/holdout41-sockeye: sockeye 3.1.34 pins torch 1.13)
run("sockeye_adam_ckpt20_120up", "sockeye_train.py", "--updates 120 --checkpoint 20")
run("sockeye_adam_lr1e-3_ckpt10_80up", "sockeye_train.py", "--lr 1e-3 --updates 80 --checkpoint 10 --batch 16")
run("sockeye_sgd_mom_ckpt25_150up", "sockeye_train.py",
    "--optimizer sgd --lr 0.5 --updates 150 --checkpoint 25 --extra=--momentum,0.9")
run("sockeye_adam_b64_size48_ckpt15_90up", "sockeye_train.py",
    "--batch 64 --size 48 --lr 5e-4 --updates 90 --checkpoint 15 --sentences 1200")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout41", "libho41", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
