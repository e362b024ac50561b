"""Make the 48th held-out library corpus (examples/libraries_holdout48): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout48/bin/python bench/holdout_libraries48/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- TEDEouS (its EarlyStopping's info string on stdout: "[date] Step = 100 loss = 0.123456 normalized loss line= ...")
run("tedeous_osc_adam_1000", "tedeous_solve.py", "--epochs 1000 --every 100")
run("tedeous_decay_adam_every50_600", "tedeous_solve.py", "--problem decay --epochs 600 --every 50 --lr 3e-3")
run("tedeous_osc_rmsprop_every200_1600", "tedeous_solve.py",
    "--optimizer RMSprop --lr 1e-3 --epochs 1600 --every 200 --points 30")
run("tedeous_decay_sgd_decay_every100_800", "tedeous_solve.py",
    "--problem decay --optimizer SGD --lr 0.01 --gamma 0.9 --decay-every 100 --epochs 800 --every 100")
run("tedeous_osc_adam_lr_growth_diverged", "tedeous_solve.py",
    "--lr 1e-3 --gamma 2 --decay-every 50 --epochs 800 --every 50", label="diverged", stop=True)
run("tedeous_decay_sgd_lr_growth_nan", "tedeous_solve.py",
    "--problem decay --optimizer SGD --lr 0.01 --gamma 3 --decay-every 20 --epochs 400 --every 20", label="nan",
    stop=True)
run("tedeous_osc_sgd_lr_growth_nan", "tedeous_solve.py",
    "--optimizer SGD --lr 1e-4 --gamma 2 --decay-every 50 --epochs 600 --every 25", label="nan", stop=True)
run("tedeous_decay_rmsprop_every25_500", "tedeous_solve.py",
    "--problem decay --optimizer RMSprop --lr 3e-3 --epochs 500 --every 25 --hidden 16")
run("tedeous_osc_adam_bound100_every100_1200", "tedeous_solve.py",
    "--epochs 1200 --every 100 --lambda-bound 100 --lr 2e-3")

# --- skada (its deep methods' skorch table on stdout: "      1        \x1b[36m0.6508\x1b[0m  0.0715")
run("skada_deepcoral_sgd_20ep", "skada_deep.py", "--method DeepCoral --epochs 20")
run("skada_dan_adam_15ep", "skada_deep.py", "--method DAN --optimizer Adam --lr 0.01 --epochs 15")
run("skada_sourceonly_sgd_b16_12ep", "skada_deep.py", "--method SourceOnly --lr 0.1 --batch 16 --epochs 12")
run("skada_deepjdot_adam_25ep", "skada_deep.py", "--method DeepJDOT --optimizer Adam --lr 0.005 --epochs 25 --reg 0.5")
run("skada_deepcoral_sgd_decay_30ep", "skada_deep.py", "--method DeepCoral --lr 0.1 --gamma 0.9 --epochs 30 --n 200")
run("skada_deepcoral_sgd_lr_growth_nan", "skada_deep.py", "--method DeepCoral --lr 0.05 --gamma 3 --epochs 20",
    label="nan", stop=True)
run("skada_dan_adam_lr_growth_diverged", "skada_deep.py",
    "--method DAN --optimizer Adam --lr 0.01 --gamma 1.8 --epochs 20", label="diverged", stop=True)
run("skada_deepjdot_sgd_lr_growth_nan", "skada_deep.py", "--method DeepJDOT --lr 0.05 --gamma 3 --epochs 20",
    label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout48", "libho48", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
