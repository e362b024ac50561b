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

# --- tez (its Progress callback: a tqdm bar on stderr, and per epoch "[train] mae=8.2624, loss=105.5476 [e=2 steps=48]")
run("tez_reg_adam_val_10ep", "tez_fit.py", "--lr 3e-3 --epochs 10 --val")
run("tez_cls_adam_8ep", "tez_fit.py", "--task cls --lr 3e-3 --epochs 8")
run("tez_reg_sgd_decay_12ep", "tez_fit.py", "--optimizer sgd --lr 1e-3 --gamma 0.9 --epochs 12")
run("tez_cls_momentum_val_b64_15ep", "tez_fit.py", "--task cls --optimizer momentum --lr 0.01 --batch 64 --epochs 15 --val")
run("tez_reg_rmsprop_batchsched_6ep", "tez_fit.py",
    "--optimizer rmsprop --lr 1e-3 --gamma 0.995 --sched-after batch --epochs 6")
run("tez_reg_sgd_lr_growth_nan", "tez_fit.py", "--optimizer sgd --lr 0.01 --gamma 2.5 --epochs 12", label="nan",
    stop=True)
run("tez_cls_adam_lr_growth_diverged", "tez_fit.py", "--task cls --lr 3e-3 --gamma 2.5 --epochs 10",
    label="diverged", stop=True)
run("tez_reg_momentum_lr_growth_val_nan", "tez_fit.py", "--optimizer momentum --lr 1e-4 --gamma 3 --epochs 14 --val",
    label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout38", "libho38", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
