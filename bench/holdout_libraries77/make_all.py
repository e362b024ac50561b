"""Make the 77th held-out library corpus (examples/libraries_holdout77): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout77/bin/python bench/holdout_libraries77/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- torch-training-loop (`TrainingLoop(model, SimpleTrainingStep(...)).fit(train, val, epochs, verbose)`: verbose=1
# a tqdm bar per epoch on stderr, `\r` redraws, its postfix `loss=2.7580; mse=2.7580`; verbose=2 one printed line an
# epoch `Epoch 3/10 - Finished: loss=1.9003; mse=1.9003; val_loss=1.6374; val_mse=1.6374`; verbose=N every N epochs)
run("ttl_reg_adam_val_bar_10ep", "ttl_fit.py", "--epochs 10 --verbose 1")
run("ttl_cls_adam_val_lines_12ep", "ttl_fit.py", "--task cls --lr 0.005 --epochs 12 --verbose 2")
run("ttl_reg_sgd_noval_every3_18ep", "ttl_fit.py", "--optimizer sgd --lr 0.05 --epochs 18 --verbose 3 --no-val")
run("ttl_cls_rmsprop_b16_nometrics_bar_8ep", "ttl_fit.py",
    "--task cls --optimizer rmsprop --lr 0.002 --batch 16 --epochs 8 --verbose 1 --no-metrics")
run("ttl_reg_adamw_b64_h64_lines_20ep", "ttl_fit.py",
    "--optimizer adamw --batch 64 --hidden 64 --epochs 20 --verbose 2")
run("ttl_linear_sgd_lr_high_b64_bar_diverged", "ttl_fit.py",
    "--hidden 0 --optimizer sgd --lr 1.0 --batch 64 --epochs 12 --verbose 1", label="diverged", stop=True)
run("ttl_linear_sgd_lr_high_lines_diverged", "ttl_fit.py",
    "--hidden 0 --optimizer sgd --lr 0.95 --epochs 12 --verbose 2", label="diverged", stop=True)
run("ttl_linear_sgd_lr_high_lines_nan", "ttl_fit.py", "--hidden 0 --optimizer sgd --lr 1.2 --epochs 12 --verbose 2",
    label="nan", stop=True)

# --- trainloop (a `BaseTrainer` subclass; its `ProgressHook` through `logging.basicConfig`, stderr: `INFO:trainer:Step
# 20/200: step 0.0004s data 0.0000s eta 0:00:00 loss 2.5516 lr/group_0 1.00e-02`, every `interval` steps)
run("trainloop_reg_adam_300st_every30", "trainloop_train.py", "--steps 300 --interval 30")
run("trainloop_cls_adam_cosine_records_time_200st", "trainloop_train.py",
    "--task cls --lr 0.02 --schedule cosine --steps 200 --interval 20 --with-records --log-format time")
run("trainloop_reg_sgd_clip_nounits_240st", "trainloop_train.py",
    "--optimizer sgd --lr 0.05 --grad-clip 1.0 --steps 240 --interval 20 --no-units")
run("trainloop_cls_adamw_accum2_80st_every5", "trainloop_train.py",
    "--task cls --optimizer adamw --lr 0.005 --accum 2 --steps 80 --interval 5")
run("trainloop_cls_adam_h64_every_step_40st", "trainloop_train.py",
    "--task cls --hidden 64 --lr 0.01 --steps 40 --interval 1")
run("trainloop_linear_sgd_lr_high_diverged", "trainloop_train.py",
    "--hidden 0 --optimizer sgd --lr 1.0 --steps 100 --interval 10", label="diverged", stop=True)
run("trainloop_sgd_lr_growth_diverged", "trainloop_train.py",
    "--optimizer sgd --lr 0.01 --schedule growth --gamma 1.05 --steps 150 --interval 10", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout77", "libho77", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
