"""Make the 44th held-out library corpus (examples/libraries_holdout44): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout44/bin/python bench/holdout_libraries44/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- torchtnt (a TrainUnit logging through its StdoutLogger: "\n[Step 20] train_loss=1.3871 lr=0.0100", and its
# CSVLogger's metrics.csv, the truth)
run("tnt_cls_sgd_val_tqdm_info_6ep", "torchtnt_train.py", "--lr 0.1 --epochs 6 --val --tqdm --info")
run("tnt_cls_adam_log5_8ep", "torchtnt_train.py", "--optimizer adam --lr 0.003 --epochs 8 --log-every 5")
run("tnt_reg_adam_log4_prec6_val_8ep", "torchtnt_train.py",
    "--task reg --optimizer adam --lr 0.01 --epochs 8 --batch 64 --log-every 4 --precision 6 --val")
run("tnt_reg_adam_tqdm_log20_10ep", "torchtnt_train.py",
    "--task reg --optimizer adam --lr 0.005 --epochs 10 --log-every 20 --tqdm")
run("tnt_cls_sgd_decay_prec3_info_12ep", "torchtnt_train.py",
    "--lr 0.2 --gamma 0.8 --epochs 12 --batch 64 --log-every 5 --precision 3 --info")
run("tnt_reg_momentum_lr_high_nan", "torchtnt_train.py",
    "--task reg --optimizer momentum --lr 0.3 --epochs 6 --log-every 4", label="nan", stop=True)
run("tnt_cls_sgd_lr_growth_diverged", "torchtnt_train.py", "--lr 0.05 --gamma 2 --epochs 10 --log-every 10 --info",
    label="diverged", stop=True)
run("tnt_reg_sgd_lr_growth_val_nan", "torchtnt_train.py",
    "--task reg --lr 0.05 --gamma 1.6 --epochs 10 --log-every 5 --val", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout44", "libho44", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
