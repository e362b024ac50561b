"""Make the 54th held-out library corpus (examples/libraries_holdout54): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout54/bin/python bench/holdout_libraries54/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- flashy (a `flashy.BaseSolver` started by Dora's `hydra_main`; its logging on stderr through colorlog, ANSI
# colours kept: `Train | Epoch 3 | 6/16 | 812.40 it/sec | loss 3.022` `log_updates` times an epoch, then a bold
# `Train Summary | Epoch 3 | loss=2.596 | duration=0.031` and `Valid Summary | ...`; Dora's history.json kept)
run("flashy_reg_adam_val_12ep", "flashy_train.py", "--epochs 12")
run("flashy_cls_adam_cifarfmt_val_10ep", "flashy_train.py", "--task cls --formats cifar --epochs 10")
run("flashy_reg_sgd_noval_3updates_15ep", "flashy_train.py", "--optim sgd --lr 0.005 --no-val --updates 3 --epochs 15")
run("flashy_cls_adamw_b64_noprogress_12ep", "flashy_train.py",
    "--task cls --optim adamw --batch 64 --updates 0 --epochs 12")
run("flashy_reg_rmsprop_decay_sig4_20ep", "flashy_train.py",
    "--optim rmsprop --lr 0.003 --gamma 0.9 --formats sig4 --updates 10 --epochs 20")
run("flashy_reg_adam_lr_growth_diverged", "flashy_train.py", "--lr 0.01 --gamma 1.8 --epochs 12", label="diverged",
    stop=True)
run("flashy_cls_sgd_lr_growth_diverged", "flashy_train.py", "--task cls --optim sgd --lr 0.05 --gamma 2.5 --epochs 12",
    label="diverged", stop=True)
run("flashy_reg_sgd_lr_growth_noval_nan", "flashy_train.py", "--optim sgd --lr 0.01 --gamma 3 --no-val --epochs 12",
    label="nan", stop=True)

# --- torch4keras (`Trainer(net)` or a `BaseModel` subclass, `compile(...)`, `fit(...)`; its KerasProgbar on stdout:
# `... - Start  Epoch: 3/10`, bar redraws on lines of their own (`16/16 [=====] - 0:00 2ms/step - loss: 3.7786`,
# smoothed over `smooth_interval` steps) or a tqdm bar, then `... - Finish Epoch: 3/10 - loss: 3.5011` (the epoch's
# mean, 4 decimals); its Evaluator's `val_loss: 4.9634. best_val_loss: 4.9634`)
run("t4k_reg_adam_val_10ep", "torch4keras_fit.py", "--epochs 10")
run("t4k_cls_adam_tqdm_noval_8ep", "torch4keras_fit.py", "--task cls --bar tqdm --no-val --epochs 8")
run("t4k_reg_basemodel_sgd_filelog_12ep", "torch4keras_fit.py",
    "--style basemodel --optim sgd --lr 0.002 --file-log --epochs 12")
run("t4k_cls_adamw_warmup_b64_val_15ep", "torch4keras_fit.py",
    "--task cls --optim adamw --warmup 20 --batch 64 --epochs 15")
run("t4k_reg_adam_accum2_smooth10_noval_12ep", "torch4keras_fit.py",
    "--grad-accum 2 --smooth 10 --no-val --epochs 12")
run("t4k_reg_sgd_clip_lr_growth_diverged", "torch4keras_fit.py",
    "--optim sgd --lr 0.003 --clip 1.0 --growth 1.05 --epochs 12", label="diverged", stop=True)
run("t4k_cls_sgd_lr_growth_diverged", "torch4keras_fit.py",
    "--task cls --optim sgd --lr 0.01 --growth 1.05 --epochs 12", label="diverged", stop=True)
run("t4k_reg_sgd_lr_growth_noval_nan", "torch4keras_fit.py",
    "--optim sgd --lr 0.003 --growth 1.08 --no-val --epochs 10", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout54", "libho54", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
