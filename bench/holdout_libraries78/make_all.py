"""Make the 78th held-out library corpus (examples/libraries_holdout78): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout78/bin/python bench/holdout_libraries78/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- nni (a one-shot NAS, `NasExperiment(space, Classification(...) / Regression(...), DARTS()).run()`: NNI's colored
# log lines, Lightning's model summary, then the tqdm bar on stderr, no TTY: `\r`-separated redraws
# `Epoch 2:  50%|█████     | 4/8 [00:00<00:00, 52.43it/s, v_num=0, train_loss=0.987, train_acc=0.594]`; its own
# experiment.log and Lightning's TensorBoard event file kept)
run("nni_darts_cls_val_5ep", "nni_nas.py", "")
run("nni_gumbel_cls_val_b32_4ep", "nni_nas.py", "--strategy gumbel --batch 32 --epochs 4")
run("nni_random_reg_b128_10ep", "nni_nas.py", "--strategy random --task reg --batch 128 --epochs 10")
run("nni_darts_cls_log2_lr005_6ep", "nni_nas.py", "--log-every 2 --lr 0.005 --epochs 6")
run("nni_proxyless_cls_adamw_6ep", "nni_nas.py",
    "--strategy proxyless --optimizer adamw --weight-decay 0.01 --epochs 6")
run("nni_darts_reg_sgd_val_8ep", "nni_nas.py", "--task reg --optimizer sgd --lr 0.1 --epochs 8")
run("nni_random_cls_adam_lr_high_diverged", "nni_nas.py", "--strategy random --lr 1 --epochs 6", label="diverged",
    stop=True)
run("nni_darts_cls_sgd_lr_high_nan", "nni_nas.py", "--optimizer sgd --lr 20 --epochs 6", label="nan", stop=True)
run("nni_gumbel_reg_sgd_lr_high_nan", "nni_nas.py", "--strategy gumbel --task reg --optimizer sgd --lr 2 --epochs 6",
    label="nan", stop=True)

# --- torch-ecg (a subclass of its `BaseTrainer` around a small 1-D CNN on synthetic 2-lead windows: its
# `LoggerManager` prints `TorchECG - INFO - Train Metrics:` blocks `Epoch 0 / Step 8: train/loss : 0.6443` to stdout
# every `log_step` steps, its tqdm bar `Epoch 0/6:  58%|...| 112/192 [...] loss (batch)=0.644]` on stderr; its own
# .txt log and .csv metrics file kept)
run("ecg_adam_val_6ep", "torch_ecg_train.py", "")
run("ecg_sgd_step_noval_8ep", "torch_ecg_train.py",
    "--optimizer sgd --lr 0.05 --scheduler step --step-size 24 --gamma 0.5 --no-val --epochs 8")
run("ecg_adamw_onecycle_b32_log2_8ep", "torch_ecg_train.py",
    "--optimizer adamw --scheduler one_cycle --lr 0.01 --batch 32 --log-step 2 --epochs 8")
run("ecg_adam_nomonitor_log8_10ep", "torch_ecg_train.py", "--no-monitor --log-step 8 --epochs 10")
run("ecg_adam_plateau_b8_4ep", "torch_ecg_train.py", "--scheduler plateau --batch 8 --log-step 6 --epochs 4")
run("ecg_sgd_lr_growth_diverged", "torch_ecg_train.py",
    "--optimizer sgd --lr 0.05 --scheduler step --step-size 12 --gamma 4 --epochs 8", label="diverged", stop=True)
run("ecg_sgd_lr_growth_noval_log2_diverged", "torch_ecg_train.py",
    "--optimizer sgd --lr 0.1 --scheduler step --step-size 12 --gamma 30 --epochs 10 --no-val --log-step 2",
    label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout78", "libho78", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
