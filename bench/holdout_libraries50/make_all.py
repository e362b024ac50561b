"""Make the 50th held-out library corpus (examples/libraries_holdout50): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout50/bin/python bench/holdout_libraries50/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- neuraloperator (its Trainer's lines on stdout: "[3] time=0.08, avg_loss=0.4820, train_err=7.7124" and
# "Eval: 32_h1=0.8293, 32_l2=0.4330")
run("neuralop_fno_adam_l2_12ep", "neuralop_fno.py", "--epochs 12")
run("neuralop_fno_adamw_h1_eval2_16ep", "neuralop_fno.py", "--optimizer adamw --loss h1 --epochs 16 --eval-interval 2")
run("neuralop_fno_sgd_b32_10ep", "neuralop_fno.py", "--optimizer sgd --lr 0.001 --batch 32 --n 256 --epochs 10")
run("neuralop_fno_adam_decay_w32_8ep", "neuralop_fno.py", "--lr 0.01 --gamma 0.8 --width 32 --modes 12 --epochs 8")
run("neuralop_fno_adam_n64_b8_eval4_20ep", "neuralop_fno.py",
    "--lr 0.002 --n 64 --batch 8 --epochs 20 --eval-interval 4")
run("neuralop_fno_adam_lr_growth_diverged", "neuralop_fno.py", "--epochs 12 --gamma 2", label="diverged", stop=True)
run("neuralop_fno_adam_lr_growth_inf", "neuralop_fno.py", "--epochs 14 --lr 0.01 --gamma 3", label="nan", stop=True)
run("neuralop_fno_sgd_lr_growth_h1_nan", "neuralop_fno.py",
    "--optimizer sgd --lr 0.001 --gamma 2 --loss h1 --epochs 12", label="nan", stop=True)

# --- joeynmt (its logger on stderr: "2026-12-06 19:48:15,191 - INFO - joeynmt.training - Epoch   1, Step:       10,
# Batch Loss:    22.175331, Batch Acc: 0.057063, Tokens per Sec:     8206, Lr: 0.000100")
run("joeynmt_reverse_adam_wisr_log10_val50_8ep", "joeynmt_train.py", "--epochs 8 --lr 0.003 --val-freq 50")
run("joeynmt_map_adam_noam_log5_6ep", "joeynmt_train.py", "--task map --scheduling noam --epochs 6 --log-freq 5")
run("joeynmt_reverse_adamw_b32_log4_val40_10ep", "joeynmt_train.py",
    "--optimizer adamw --lr 0.003 --batch 32 --epochs 10 --log-freq 4 --val-freq 40")
run("joeynmt_map_sgd_exp_decay_log10_8ep", "joeynmt_train.py",
    "--task map --optimizer sgd --lr 0.1 --scheduling exponential --gamma 0.9 --epochs 8 --clip 1.0")
run("joeynmt_reverse_adam_lr_growth_diverged", "joeynmt_train.py",
    "--epochs 6 --lr 0.003 --scheduling exponential --gamma 3 --val-freq 1000", label="diverged", stop=True)
run("joeynmt_map_sgd_lr_growth_nan", "joeynmt_train.py",
    "--task map --optimizer sgd --lr 0.01 --scheduling exponential --gamma 4 --epochs 7 --val-freq 1000",
    label="nan", stop=True)
run("joeynmt_map_adam_wisr_log8_val96_6ep", "joeynmt_train.py",
    "--task map --lr 0.005 --epochs 6 --log-freq 8 --val-freq 96")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout50", "libho50", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
