"""Make the thirty-first held-out library corpus (examples/libraries_holdout31): real runs of training libraries
nobody on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout31/bin/python bench/holdout_libraries31/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- swanlab, offline (its `swanlab:` lines, the user's prints "epoch 1 step 10 loss 1.2345"; its swanlog/ run folder)
run("swanlab_cls_sgd_p10_5ep", "swanlab_fit.py", "--lr 0.1 --epochs 5 --print-every 10")
run("swanlab_reg_adam_val_p5_8ep", "swanlab_fit.py",
    "--task reg --optimizer adam --lr 0.003 --epochs 8 --print-every 5 --val")
run("swanlab_cls_momentum_decay_p20_10ep", "swanlab_fit.py",
    "--optimizer momentum --lr 0.05 --gamma 0.8 --epochs 10 --print-every 20 --batch 16")
run("swanlab_reg_sgd_lr_high_nan", "swanlab_fit.py", "--task reg --lr 0.5 --epochs 4 --print-every 4", label="nan",
    stop=True)
run("swanlab_cls_sgd_lr_growth_p10_nan", "swanlab_fit.py", "--lr 0.05 --gamma 3 --epochs 8 --print-every 10",
    label="nan", stop=True)
run("swanlab_cls_adam_lr_growth_val_diverged", "swanlab_fit.py",
    "--optimizer adam --lr 0.003 --gamma 2.2 --epochs 10 --print-every 10 --val", label="diverged", stop=True)

# --- trackio, local (its `*` lines; the user's prints "[epoch 1/5] step 20: train_loss=1.23456" or
# "Epoch 3/20 - loss: 0.5123 - val_loss: 0.4987"; its SQLite database trackio/tiny-mlp.db)
run("trackio_cls_sgd_batch_p10_5ep", "trackio_fit.py", "--lr 0.1 --epochs 5 --print-every 10")
run("trackio_reg_rmsprop_epoch_val_15ep", "trackio_fit.py",
    "--task reg --optimizer rmsprop --lr 0.002 --per epoch --epochs 15 --val")
run("trackio_cls_adam_epoch_12ep", "trackio_fit.py", "--optimizer adam --lr 0.005 --per epoch --epochs 12 --batch 64")
run("trackio_reg_momentum_batch_p3_4ep", "trackio_fit.py",
    "--task reg --optimizer momentum --lr 0.005 --epochs 4 --print-every 3")
run("trackio_reg_sgd_lr_growth_batch_nan", "trackio_fit.py",
    "--task reg --lr 0.02 --gamma 3 --epochs 8 --print-every 10", label="nan", stop=True)
run("trackio_cls_sgd_lr_growth_epoch_val_9ep_diverged", "trackio_fit.py",
    "--lr 0.05 --gamma 2 --per epoch --epochs 9 --val", label="diverged", stop=True)

# --- EvoX (StdWorkflow + EvalMonitor; the user prints the monitor's output: "gen 10 tensor(6.7049)" or
# "gen 20: min 10.264645 mean 11.739589")
run("evox_pso_ackley_best_p10_100gen", "evox_run.py", "--algorithm PSO --problem Ackley --generations 100")
run("evox_de_sphere_latest_p5_60gen", "evox_run.py",
    "--algorithm DE --problem Sphere --show latest --generations 60 --print-every 5")
run("evox_openes_sphere_latest_p4_60gen", "evox_run.py",
    "--algorithm OpenES --problem Sphere --lr 0.2 --sigma 0.5 --show latest --generations 60 --print-every 4")
run("evox_pso_rosenbrock_best_p20_200gen", "evox_run.py",
    "--algorithm PSO --problem Rosenbrock --dim 5 --pop 40 --generations 200 --print-every 20")
run("evox_de_griewank_best_p5_50gen", "evox_run.py",
    "--algorithm DE --problem Griewank --pop 30 --generations 50 --print-every 5")
run("evox_openes_sphere_lr_high_16gen_diverged", "evox_run.py",
    "--algorithm OpenES --problem Sphere --lr 1.5 --sigma 0.5 --show latest --generations 16 --print-every 2",
    label="diverged", stop=True)
run("evox_openes_sphere_lr_high_nan", "evox_run.py",
    "--algorithm OpenES --problem Sphere --lr 3 --sigma 0.5 --show latest --generations 80 --print-every 4",
    label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout31", "libho31", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
