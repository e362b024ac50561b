"""Make the thirty-second held-out library corpus (examples/libraries_holdout32): real runs of training libraries
nobody on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout32/bin/python bench/holdout_libraries32/make_all.py [--only NAME ...] [--check] [--manifest-only]

litgpt's runs need its own venv (~/venvs/holdout32-litgpt): ``--only`` them with that venv's python.
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

# --- CHGNet (its Trainer's prints on stdout: "Epoch: [0][6/6] | Time (0.033)(0.010) | Loss 2.0444(2.3682) | MAE e
# 1.393(1.506)", "*   e_MAE (1.319)")
run("chgnet_adam_cos_pf3_10ep", "chgnet_train.py", "--lr 3e-3 --epochs 10 --print-freq 3")
run("chgnet_adam_b16_pf1_12ep", "chgnet_train.py", "--lr 5e-3 --batch 16 --epochs 12 --print-freq 1")
run("chgnet_sgd_pf2_10ep", "chgnet_train.py", "--optimizer SGD --lr 0.01 --epochs 10 --print-freq 2")
run("chgnet_adamw_exp_decay_b4_pf6_8ep", "chgnet_train.py",
    "--optimizer AdamW --scheduler ExponentialLR --gamma 0.95 --lr 2e-3 --batch 4 --epochs 8 --print-freq 6")
run("chgnet_radam_dim32_pf4_8ep", "chgnet_train.py",
    "--optimizer RAdam --dim 32 --structures 80 --lr 3e-3 --epochs 8 --print-freq 4")
run("chgnet_adam_exp_lr_growth_diverged", "chgnet_train.py",
    "--scheduler ExponentialLR --gamma 1.3 --lr 3e-3 --epochs 10 --print-freq 3", label="diverged", stop=True)
run("chgnet_adam_exp_lr_growth_b16_pf1_diverged", "chgnet_train.py",
    "--scheduler ExponentialLR --gamma 1.5 --lr 2e-3 --batch 16 --epochs 12 --print-freq 1", label="diverged",
    stop=True)
run("chgnet_adamw_exp_lr_growth_pf2_diverged", "chgnet_train.py",
    "--optimizer AdamW --scheduler ExponentialLR --gamma 1.2 --lr 3e-3 --epochs 14 --print-freq 2", label="diverged",
    stop=True)
# dropped, not relabelled (labelled diverged, their checks failed): SGD `ExponentialLR` gamma 1.25 lr 0.01 12 epochs
# (`Exit due to NaN` after 3 epochs: 3 points, all finite and falling), Adam lr 0.05 batch 16 (fell: 1.078 -> 0.045)

# --- litgpt (`litgpt finetune_full` of a tiny GPT from a Config; Fabric's prints on stdout: "Epoch 1 | iter 4 step 2 |
# loss train: 5.860, val: n/a | iter time: 35.39 ms (step)", "iter 10: val loss 5.7243, val time: 40.46 ms"; its CSV
# logger's metrics.csv kept). Run with ~/venvs/holdout32-litgpt/bin/python.
run("litgpt_adamw_log1_val10_3ep", "litgpt_finetune.py", "--eval-interval 10")
run("litgpt_adamw_lr3e-2_log2_2ep", "litgpt_finetune.py", "--lr 0.03 --warmup 1 --epochs 2 --log-interval 2")
# dropped, not relabelled: "--optimizer SGD --lr 2 --warmup 5 --epochs 4 --log-interval 4" (labelled healthy: its
# loss went nan; and with log_interval 4 its CSV logger, flushed every log_interval steps at (step + 1), never wrote)
run("litgpt_sgd_log2_4ep", "litgpt_finetune.py", "--optimizer SGD --lr 0.5 --warmup 5 --epochs 4 --log-interval 2")
run("litgpt_adam_gb16_log2_val5_4ep", "litgpt_finetune.py",
    "--optimizer Adam --lr 0.01 --global-batch 16 --epochs 4 --log-interval 2 --eval-interval 5")
run("litgpt_rmsprop_mb8_3layers_3ep", "litgpt_finetune.py",
    "--optimizer RMSprop --lr 3e-3 --micro-batch 8 --layers 3 --epochs 3")
run("litgpt_sgd_lr_high_nan", "litgpt_finetune.py", "--optimizer SGD --lr 300 --warmup 2", label="nan", stop=True)
run("litgpt_adamw_warmup_lr_growth_diverged", "litgpt_finetune.py", "--lr 3 --warmup 40 --epochs 3",
    label="diverged", stop=True)
# dropped, not relabelled: SGD lr 300 warmup 30, log_interval 2 (labelled nan: it stayed finite)
run("litgpt_rmsprop_warmup_lr_growth_mb8_diverged", "litgpt_finetune.py",
    "--optimizer RMSprop --lr 1 --warmup 30 --micro-batch 8 --epochs 3", label="diverged", stop=True)
run("litgpt_adam_warmup_lr_growth_log2_diverged", "litgpt_finetune.py",
    "--optimizer Adam --lr 5 --warmup 20 --epochs 3 --log-interval 2", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout32", "libho32", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
