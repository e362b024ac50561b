"""Make the 64th held-out library corpus (examples/libraries_holdout64): real runs of a training library nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout64/bin/python bench/holdout_libraries64/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- matgl (a tiny MEGNet / M3GNet property model in matgl's ModelLightningModule, a Lightning Trainer with a
# CSVLogger: Lightning's banner and model summary, then the tqdm bar on stderr, no TTY, `\r`-joined updates
# `Epoch 3: 100%|...| 4/4 [...it/s, v_num=0, val_Total_Loss=2.340, ..., train_Total_Loss=2.380, ...]`)
run("matgl_megnet_adam_cosine_val_10ep", "matgl_train.py", "--lr 0.01 --epochs 10")
run("matgl_megnet_adam_noval_8ep", "matgl_train.py", "--lr 0.01 --epochs 8 --no-val")
run("matgl_megnet_adamw_b4_8ep", "matgl_train.py", "--optimizer adamw --lr 0.005 --batch 4 --epochs 8")
run("matgl_megnet_sgd_step_12ep", "matgl_train.py",
    "--optimizer sgd --lr 0.01 --scheduler step --gamma 0.5 --epochs 12")
run("matgl_megnet_l1_b16_15ep", "matgl_train.py", "--loss l1_loss --lr 0.01 --batch 16 --epochs 15")
run("matgl_megnet_adam_n80_6ep", "matgl_train.py", "--n 80 --lr 0.01 --epochs 6")
run("matgl_m3gnet_adam_val_6ep", "matgl_train.py", "--model m3gnet --lr 0.01 --epochs 6")
run("matgl_m3gnet_huber_noval_8ep", "matgl_train.py",
    "--model m3gnet --loss huber_loss --lr 0.005 --epochs 8 --no-val")
run("matgl_m3gnet_adamw_exp_decay_10ep", "matgl_train.py",
    "--model m3gnet --optimizer adamw --scheduler exp --gamma 0.8 --lr 0.01 --epochs 10")
run("matgl_megnet_adam_lr_growth_diverged", "matgl_train.py", "--lr 0.01 --scheduler exp --gamma 3 --epochs 10",
    label="diverged", stop=True)
run("matgl_m3gnet_adam_lr_growth_diverged", "matgl_train.py",
    "--model m3gnet --lr 0.01 --scheduler exp --gamma 3 --epochs 7", label="diverged", stop=True)
run("matgl_megnet_sgd_lr_growth_nan", "matgl_train.py",
    "--optimizer sgd --lr 0.05 --scheduler exp --gamma 4 --epochs 12", label="nan", stop=True)
run("matgl_megnet_adam_lr_growth_nan", "matgl_train.py", "--lr 0.01 --scheduler exp --gamma 10 --epochs 10",
    label="nan", stop=True)
run("matgl_megnet_sgd_slow_lr_growth_nan", "matgl_train.py",
    "--optimizer sgd --lr 0.01 --scheduler exp --gamma 2 --epochs 12", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout64", "libho64", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
