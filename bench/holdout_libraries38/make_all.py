"""Make the thirty-eighth held-out library corpus (examples/libraries_holdout38): real runs of training libraries
nobody on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout38/bin/python bench/holdout_libraries38/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- tez (its Progress callback: a tqdm bar on stderr, and per epoch
# "[train] mae=8.2624, loss=105.5476 [e=2 steps=48]")
run("tez_reg_adam_val_10ep", "tez_fit.py", "--lr 3e-3 --epochs 10 --val")
run("tez_cls_adam_8ep", "tez_fit.py", "--task cls --lr 3e-3 --epochs 8")
run("tez_reg_sgd_decay_12ep", "tez_fit.py", "--optimizer sgd --lr 1e-3 --gamma 0.9 --epochs 12")
run("tez_cls_momentum_val_b64_15ep", "tez_fit.py",
    "--task cls --optimizer momentum --lr 0.01 --batch 64 --epochs 15 --val")
run("tez_reg_rmsprop_batchsched_6ep", "tez_fit.py",
    "--optimizer rmsprop --lr 1e-3 --gamma 0.995 --sched-after batch --epochs 6")
run("tez_reg_sgd_lr_growth_nan", "tez_fit.py", "--optimizer sgd --lr 0.01 --gamma 2.5 --epochs 12", label="nan",
    stop=True)
run("tez_cls_adam_lr_growth_diverged", "tez_fit.py", "--task cls --lr 3e-3 --gamma 2.5 --epochs 10",
    label="diverged", stop=True)
run("tez_reg_momentum_lr_growth_val_nan", "tez_fit.py", "--optimizer momentum --lr 1e-4 --gamma 3 --epochs 14 --val",
    label="nan", stop=True)

# --- fastNLP (its RawTextCallback through its rich logger on stdout, wrapped at 80 columns with no terminal:
# "           INFO     Epoch:0/2, Batch:4, loss:1.093948, finished    logger.py:108" / "                    16.67%.")
run("fastnlp_cls_adam_val_6ep", "fastnlp_fit.py", "--lr 3e-3 --epochs 6 --val")
run("fastnlp_cls_sgd_every4_10ep", "fastnlp_fit.py", "--optimizer sgd --lr 0.1 --epochs 10 --every 4")
run("fastnlp_reg_adam_every3_8ep", "fastnlp_fit.py", "--task reg --lr 1e-2 --epochs 8 --every 3")
run("fastnlp_cls_adagrad_val_every6_12ep", "fastnlp_fit.py",
    "--optimizer adagrad --lr 0.05 --epochs 12 --every 6 --val")
run("fastnlp_reg_momentum_decay_b64_10ep", "fastnlp_fit.py",
    "--task reg --optimizer momentum --lr 1e-3 --gamma 0.8 --batch 64 --epochs 10 --every 2")
run("fastnlp_reg_sgd_lr_growth_nan", "fastnlp_fit.py",
    "--task reg --optimizer sgd --lr 0.003 --gamma 3 --epochs 10 --every 4", label="nan", stop=True)
run("fastnlp_cls_adam_lr_growth_val_diverged", "fastnlp_fit.py", "--lr 3e-3 --gamma 2.5 --epochs 10 --every 6 --val",
    label="diverged", stop=True)
run("fastnlp_reg_momentum_lr_high_nan", "fastnlp_fit.py", "--task reg --optimizer momentum --lr 0.05 --epochs 4",
    label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout38", "libho38", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
