"""Make the fourteenth held-out library corpus (examples/libraries_holdout14): real runs of training libraries nobody
on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout14/bin/python bench/holdout_libraries14/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- MindSpore (Model.train / Model.fit with LossMonitor and TimeMonitor: "epoch: 1 step: 5, loss is 1.448573946")
run("ms_cls_momentum_val_p5_5ep", "mindspore_model.py", "--epochs 5 --per-print 5 --val")
run("ms_cls_adam_p1_3ep", "mindspore_model.py", "--optimizer adam --lr 0.003 --epochs 3 --per-print 1")
run("ms_reg_sgd_p4_8ep", "mindspore_model.py", "--task reg --optimizer sgd --lr 0.01 --epochs 8 --per-print 4")
run("ms_reg_rmsprop_decay_val_p10_6ep", "mindspore_model.py",
    "--task reg --optimizer rmsprop --lr 0.003 --gamma 0.8 --epochs 6 --per-print 10 --val --batch 16")
run("ms_cls_sgd_b16_p40_6ep", "mindspore_model.py", "--optimizer sgd --lr 0.1 --batch 16 --epochs 6 --per-print 40")
run("ms_reg_sgd_lr_growth_val_diverged", "mindspore_model.py",
    "--task reg --optimizer sgd --lr 0.01 --gamma 3 --epochs 8 --per-print 10 --val", label="diverged", stop=True)
run("ms_reg_momentum_lr_high_diverged", "mindspore_model.py",
    "--task reg --optimizer momentum --lr 0.2 --epochs 5 --per-print 2", label="diverged", stop=True)
run("ms_cls_adam_lr_growth_diverged", "mindspore_model.py",
    "--optimizer adam --lr 0.01 --gamma 4 --epochs 6 --per-print 5",
    label="diverged", stop=True)

# --- MLX (the loop of its examples: "Iter 10: Train loss 1.573, It/sec 891.960", "Iter 50: Val loss 1.200, ...")
run("mlx_mlp_sgd_r10_eval50_200it", "mlx_loop.py",
    "--model mlp --lr 0.05 --iters 200 --steps-per-report 10 --steps-per-eval 50")
run("mlx_mlp_adamw_r5_100it", "mlx_loop.py",
    "--model mlp --optimizer adamw --lr 0.003 --iters 100 --steps-per-report 5")
run("mlx_lm_adam_r10_eval50_150it", "mlx_loop.py",
    "--model lm --optimizer adam --lr 0.003 --iters 150 --steps-per-report 10 --steps-per-eval 50")
run("mlx_lm_momentum_r20_eval100_200it", "mlx_loop.py",
    "--model lm --optimizer sgd --momentum 0.9 --lr 0.1 --iters 200 --steps-per-report 20 --steps-per-eval 100")
run("mlx_mlp_sgd_decay_r25_300it", "mlx_loop.py",
    "--model mlp --lr 0.2 --decay 0.995 --iters 300 --steps-per-report 25")
run("mlx_lm_adam_lr_growth_diverged", "mlx_loop.py",
    "--model lm --optimizer adam --lr 0.001 --decay 1.04 --iters 200 --steps-per-report 10",
    label="diverged", stop=True)
run("mlx_mlp_sgd_lr_growth_diverged", "mlx_loop.py",
    "--model mlp --lr 0.05 --decay 1.05 --iters 150 --steps-per-report 5",
    label="diverged", stop=True)
run("mlx_mlp_momentum_lr_growth_nan", "mlx_loop.py",
    "--model mlp --lr 0.1 --momentum 0.9 --decay 1.08 --iters 200 --steps-per-report 10", label="nan", stop=True)

# --- GPBoost (LightGBM's evaluation lines: "[12]	train's Negative log-likelihood: 332.811", then its model summary)
run("gpb_lr01_d3_30r", "gpboost_train.py", "--rounds 30")
run("gpb_lr005_d5_ve5_80r", "gpboost_train.py", "--lr 0.05 --depth 5 --rounds 80 --verbose-eval 5")
run("gpb_lr02_leaves8_ve2_40r", "gpboost_train.py", "--lr 0.2 --depth -1 --leaves 8 --rounds 40 --verbose-eval 2")
run("gpb_n1000_g50_ve10_100r", "gpboost_train.py", "--n 1000 --groups 50 --lr 0.03 --rounds 100 --verbose-eval 10")
run("gpb_lr05_d2_25r", "gpboost_train.py", "--lr 0.5 --depth 2 --rounds 25")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout14", "libho14", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
