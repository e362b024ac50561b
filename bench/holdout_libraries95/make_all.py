"""Make the 95th held-out library corpus (examples/libraries_holdout95): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout95/bin/python bench/holdout_libraries95/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- pytorchtrainer (`create_default_trainer` and its callbacks; prints the model, then its own bar on stdout, one
# `\r` rewrite an iteration, `epoch 2/6 |██-----| 25.0% 2/8 | 0.00 s/it | 0:00:00 remaining | train loss 0.4031`
# [`| val loss 0.3868 | mae 0.4100`], a newline at each epoch's end, `train time 0.52`; its CsvWriter file kept)
run("ptt_sgd_reg_val_6ep", "pytorchtrainer_fit.py", "--epochs 6")
run("ptt_adam_reg_noval_b64_10ep", "pytorchtrainer_fit.py",
    "--optimizer adam --lr 0.01 --no-val --batch 64 --epochs 10")
run("ptt_sgdmom_cls_val_acc_8ep", "pytorchtrainer_fit.py", "--task cls --momentum 0.9 --lr 0.05 --metric --epochs 8")
run("ptt_adam_cls_val_earlystop", "pytorchtrainer_fit.py",
    "--task cls --optimizer adam --lr 0.01 --patience 2 --epochs 30")
run("ptt_rmsprop_reg_mae_decay_b16", "pytorchtrainer_fit.py",
    "--optimizer rmsprop --lr 0.005 --metric --gamma 0.7 --batch 16 --epochs 5 --no-val")
run("ptt_sgdmom_cls_acc_lr_high_diverged", "pytorchtrainer_fit.py",
    "--task cls --momentum 0.9 --lr 5 --metric --epochs 6", label="diverged", stop=True)
run("ptt_adam_reg_lr_x3_diverged", "pytorchtrainer_fit.py", "--optimizer adam --lr 0.005 --gamma 3 --epochs 7",
    label="diverged", stop=True)
run("ptt_sgd_reg_lr_high_noval_nan", "pytorchtrainer_fit.py", "--lr 2 --scale 10 --no-val --epochs 4", label="nan",
    stop=True)

# --- deep-trainer (`PytorchTrainer.train`: `Epoch 3/8`, its tqdm bar on stdout (`\r` updates, `Training --- Loss:
# 0.4031`), then `Avg Train Metrics --- Loss:  0.4031` [`Avg Eval Metrics  --- ...`], 4 significant digits; its
# TensorBoard events kept)
run("dt_adam_reg_val_8ep", "deep_trainer_fit.py", "--epochs 8")
run("dt_sgd_reg_noval_12ep", "deep_trainer_fit.py", "--optimizer sgd --lr 0.05 --no-val --epochs 12")
run("dt_adamw_cls_metrics_val_10ep", "deep_trainer_fit.py", "--task cls --optimizer adamw --metrics --epochs 10")
run("dt_adam_cls_onecycle_b64_8ep", "deep_trainer_fit.py", "--task cls --schedule onecycle --lr 0.02 --batch 64 "
    "--epochs 8")
run("dt_rmsprop_reg_steplr_epochsize5_noval", "deep_trainer_fit.py",
    "--optimizer rmsprop --lr 0.003 --schedule step --gamma 0.7 --epoch-size 5 --epochs 10 --no-val")
run("dt_adam_reg_steplr_x3_val_diverged", "deep_trainer_fit.py",
    "--optimizer adam --lr 0.003 --schedule step --gamma 3 --epochs 7", label="diverged", stop=True)
run("dt_adamw_cls_metrics_steplr_x4_diverged", "deep_trainer_fit.py",
    "--task cls --optimizer adamw --lr 0.002 --metrics --schedule step --gamma 4 --epochs 8", label="diverged",
    stop=True)
run("dt_sgd_reg_steplr_x3_nan", "deep_trainer_fit.py",
    "--optimizer sgd --lr 0.01 --schedule step --gamma 3 --epochs 10", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout95", "libho95", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
