"""Make the 51st held-out library corpus (examples/libraries_holdout51): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout51/bin/python bench/holdout_libraries51/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- sevenn (`sevenn input.yaml -s`: per epoch `Epoch 3/10  lr: 0.004901` then a table with rows `trainset` and
# `validset` of Energy_RMSE, Force_RMSE, Stress_RMSE, TotalLoss; its own log.sevenn and lc.csv kept)
run("sevenn_adam_val_20ep", "sevenn_train.py", "--epochs 20")
run("sevenn_adam_noval_15ep", "sevenn_train.py", "--epochs 15 --no-val --lr 0.003")
run("sevenn_adamw_b8_25ep", "sevenn_train.py", "--optimizer adamw --epochs 25 --batch 8 --n 32")
run("sevenn_sgd_constlr_12ep", "sevenn_train.py", "--optimizer sgd --lr 0.1 --gamma 1.0 --epochs 12")
run("sevenn_radam_3layers_18ep", "sevenn_train.py", "--optimizer radam --lr 0.01 --layers 3 --epochs 18 --gamma 0.95")
run("sevenn_adam_lr_high_diverged", "sevenn_train.py", "--lr 0.5 --gamma 1.0 --epochs 15", label="diverged",
    stop=True)
run("sevenn_adam_lr_growth_diverged", "sevenn_train.py", "--lr 0.01 --gamma 1.6 --epochs 15", label="diverged",
    stop=True)
run("sevenn_sgd_lr_growth_noval_nan", "sevenn_train.py",
    "--optimizer sgd --lr 0.05 --gamma 2 --epochs 14 --no-val", label="nan", stop=True)

# --- ktrain (`get_learner` around a tiny tf.keras MLP; its `begin training using onecycle policy with max lr of
# 0.01...`, then Keras' progress on stdout, no TTY: `Epoch 3/10` and one line an epoch ending `- loss: 0.4031 -
# val_loss: 0.3868`)
run("ktrain_onecycle_cls_val_10ep", "ktrain_fit.py", "--lr 0.01 --epochs 10")
run("ktrain_autofit_cls_val_12ep", "ktrain_fit.py", "--method autofit --lr 0.005 --epochs 12")
run("ktrain_sgdr_reg_noval_6cycles", "ktrain_fit.py", "--task reg --method fit --lr 0.01 --epochs 6 --no-val")
run("ktrain_onecycle_reg_b64_val_15ep", "ktrain_fit.py", "--task reg --lr 0.02 --epochs 15 --batch 64")
run("ktrain_autofit_reg_noval_b16_10ep", "ktrain_fit.py",
    "--task reg --method autofit --lr 0.003 --epochs 10 --batch 16 --no-val")
run("ktrain_onecycle_cls_lr_high_diverged", "ktrain_fit.py", "--lr 5 --epochs 8", label="diverged", stop=True)
run("ktrain_onecycle_reg_lr_high_diverged", "ktrain_fit.py", "--task reg --lr 3 --epochs 8", label="diverged",
    stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout51", "libho51", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
