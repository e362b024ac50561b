"""Make the 63rd held-out library corpus (examples/libraries_holdout63): real runs of a training library nobody on
the project had used (kornia's ``kornia.x`` trainers), each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout63/bin/python bench/holdout_libraries63/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- kornia.x (`ImageClassifierTrainer` / `SemanticSegmentationTrainer` over accelerate; `logging.basicConfig(level=
# logging.INFO)`: `INFO:train:Train: 3/6  Sample: 51/60 Loss: 0.712 0.698` every 50 batches, `INFO:train:Test: 0/3
# LOSSES: 0.53 0.53  TOP1: ...` on validation)
run("kornia_cls_adam_cosine_6ep", "kornia_x_train.py", "--epochs 6 --lr 0.002")
run("kornia_cls_sgd_step_b8_10ep", "kornia_x_train.py", "--optimizer sgd --lr 0.05 --sched step --batch 8 --epochs 10")
run("kornia_cls_adamw_augment_b2_4ep", "kornia_x_train.py", "--optimizer adamw --augment --batch 2 --epochs 4")
run("kornia_cls_rmsprop_time_const_8ep", "kornia_x_train.py",
    "--optimizer rmsprop --lr 0.0005 --sched const --fmt time --batch 16 --epochs 8")
run("kornia_cls_adam_earlystop_12ep", "kornia_x_train.py", "--lr 0.003 --early-stop 2 --epochs 12")
run("kornia_seg_adam_cosine_8ep", "kornia_x_train.py", "--task seg --epochs 8 --lr 0.003")
run("kornia_seg_sgd_exp_b2_4ep", "kornia_x_train.py",
    "--task seg --optimizer sgd --lr 0.1 --sched exp --gamma 0.8 --batch 2 --n 160 --epochs 4")
run("kornia_seg_adamw_augment_time_6ep", "kornia_x_train.py", "--task seg --optimizer adamw --augment --fmt time")
run("kornia_seg_rmsprop_b16_10ep", "kornia_x_train.py",
    "--task seg --optimizer rmsprop --lr 0.001 --batch 16 --n 480 --epochs 10")
run("kornia_cls_adam_lr_high_diverged", "kornia_x_train.py", "--lr 3 --sched const --epochs 8", label="diverged",
    stop=True)
run("kornia_cls_sgd_lr_growth_diverged", "kornia_x_train.py",
    "--optimizer sgd --lr 0.01 --sched exp --gamma 3 --epochs 8 --batch 8", label="diverged", stop=True)
run("kornia_seg_sgd_lr_growth_diverged", "kornia_x_train.py",
    "--task seg --optimizer sgd --lr 0.05 --sched exp --gamma 4 --epochs 10", label="diverged", stop=True)
run("kornia_seg_sgd_lr_growth_b8_diverged", "kornia_x_train.py",
    "--task seg --optimizer sgd --lr 0.1 --sched exp --gamma 10 --batch 8 --epochs 16", label="diverged", stop=True)
run("kornia_cls_sgd_lr_growth_time_diverged", "kornia_x_train.py",
    "--optimizer sgd --lr 0.1 --sched exp --gamma 5 --fmt time --epochs 10", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout63", "libho63", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
