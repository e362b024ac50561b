"""Make the 62nd held-out library corpus (examples/libraries_holdout62): real runs of a training library nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout62/bin/python bench/holdout_libraries62/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- torchphysics (a PINN for a Poisson problem trained by its `Solver` under a PyTorch Lightning `Trainer` with
# `max_steps`: Lightning's banner and model summary, then its tqdm bar on stderr without a TTY, `\r` updates
# `Epoch 0:  33%|###   | 100/300 [00:00<00:01, 209.56it/s, v_num=0, train/loss=0.235]`;
# its CSVLogger's metrics.csv kept)
run("tp_adam_300", "torchphysics_train.py", "")
run("tp_adam_val_400", "torchphysics_train.py", "--val --steps 400")
run("tp_adam_decay_400_log20", "torchphysics_train.py", "--gamma 0.995 --steps 400 --log-every 20")
run("tp_sgd_300", "torchphysics_train.py", "--optimizer sgd --lr 0.0005")
run("tp_lbfgs_wolfe_60_log5", "torchphysics_train.py",
    "--optimizer lbfgs --lr 1 --line-search --steps 60 --log-every 5")
run("tp_adam_refresh10_500", "torchphysics_train.py", "--refresh 10 --steps 500")
run("tp_adam_wide_val_log25", "torchphysics_train.py",
    "--hidden 32 32 32 --n-inner 400 --val --steps 300 --log-every 25")
run("tp_adam_600_log50", "torchphysics_train.py", "--lr 0.003 --steps 600 --log-every 50")
run("tp_lbfgs_wolfe_val_40", "torchphysics_train.py",
    "--optimizer lbfgs --lr 1 --line-search --val --steps 40 --log-every 4")
run("tp_adam_lr_growth_diverged", "torchphysics_train.py", "--gamma 1.03 --steps 300", label="diverged", stop=True)
run("tp_adam_lr_growth_val_diverged", "torchphysics_train.py", "--gamma 1.05 --val --steps 200", label="diverged",
    stop=True)
run("tp_lbfgs_lr_high_diverged", "torchphysics_train.py", "--optimizer lbfgs --lr 0.5 --steps 60 --log-every 5",
    label="diverged", stop=True)
run("tp_sgd_lr_high_nan", "torchphysics_train.py", "--optimizer sgd --lr 0.01 --steps 100 --log-every 5",
    label="nan", stop=True)
run("tp_sgd_lr_growth_nan", "torchphysics_train.py", "--optimizer sgd --lr 0.0003 --gamma 1.05 --steps 200",
    label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout62", "libho62", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
