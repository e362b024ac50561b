"""Make the 37th held-out library corpus (examples/libraries_holdout37): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout37/bin/python bench/holdout_libraries37/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- torchkeras (KerasModel.fit: "Epoch N / M" and one tqdm bar an epoch on stdout, postfix "lr=0.003,
# train_loss=0.532"; with plot=True its own emoji progress bar and "[best train_loss=0.6265 (@epoch 3)]")
run("torchkeras_cls_adam_val_8ep", "torchkeras_fit.py", "--val --epochs 8")
run("torchkeras_reg_sgd_10ep", "torchkeras_fit.py", "--task reg --optimizer sgd --lr 0.02 --epochs 10")
run("torchkeras_cls_momentum_plot_8ep", "torchkeras_fit.py", "--optimizer momentum --lr 0.02 --epochs 8 --plot")
run("torchkeras_reg_rmsprop_val_plot_12ep", "torchkeras_fit.py",
    "--task reg --optimizer rmsprop --lr 1e-3 --epochs 12 --val --plot --batch 64")
run("torchkeras_cls_adam_decay_b16_6ep", "torchkeras_fit.py", "--lr 5e-3 --gamma 0.995 --epochs 6 --batch 16")
run("torchkeras_cls_adam_lr_growth_val_diverged", "torchkeras_fit.py",
    "--lr 1e-3 --gamma 1.1 --epochs 12 --val --patience 8", label="diverged", stop=True)
run("torchkeras_reg_momentum_lr_growth_nan", "torchkeras_fit.py",
    "--task reg --optimizer momentum --lr 0.01 --gamma 1.4 --epochs 12 --patience 20", label="nan", stop=True)
run("torchkeras_reg_sgd_lr_growth_plot_diverged", "torchkeras_fit.py",
    "--task reg --optimizer sgd --lr 0.01 --gamma 1.08 --epochs 12 --plot --patience 20", label="diverged", stop=True)
run("torchkeras_cls_rmsprop_lr_growth_diverged", "torchkeras_fit.py",
    "--optimizer rmsprop --lr 1e-3 --gamma 1.12 --epochs 10 --patience 20", label="diverged", stop=True)
run("torchkeras_cls_momentum_lr_growth_val_diverged", "torchkeras_fit.py",
    "--optimizer momentum --lr 0.01 --gamma 1.5 --epochs 10 --val --patience 20", label="diverged", stop=True)

# --- arch (fit(update_freq=N): "Iteration:      5,   Func. Count:     41,   Neg. LLF: 1245.556431856312" on stdout,
# SciPy's SLSQP summary, then the results' summary table)
run("arch_garch_normal_freq1", "arch_fit.py", "")
run("arch_garch_t_freq1", "arch_fit.py", "--dist t --n 800")
run("arch_gjr_skewt_freq1", "arch_fit.py", "--vol GJR --dist skewt --n 1500")
run("arch_egarch_ar_freq1", "arch_fit.py", "--vol EGARCH --mean AR --n 1200")
run("arch_garch_zero_t_freq2_n3000", "arch_fit.py", "--mean Zero --dist t --freq 2 --n 3000")

# --- kmodes (KPrototypes, verbose=1: "Run: 1, iteration: 3/100, moves: 12, ncost: 3385.7802586317794" on stdout, a
# block per initialisation, "Best run was number 2")
run("kprototypes_huang_k6", "kprototypes_fit.py", "")
run("kprototypes_cao_k4_n800", "kprototypes_fit.py", "--init Cao --k 4 --n 800")
run("kprototypes_huang_ninit3_k8", "kprototypes_fit.py", "--k 8 --n-init 3 --n 900")
run("kprototypes_random_gamma2_k5_n1000", "kprototypes_fit.py", "--init random --k 5 --gamma 2 --seed 2 --n 1000")
run("kprototypes_cao_k8_noise55", "kprototypes_fit.py", "--init Cao --k 8 --n 1200 --noise 0.55")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout37", "libho37", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
