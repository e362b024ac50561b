"""Make the 86th held-out library corpus (examples/libraries_holdout86): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout86/bin/python bench/holdout_libraries86/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- cell2location (`RegressionModel` / `Cell2location` `.train(...)`: scvi-tools' Pyro SVI loop on Lightning; its
# tqdm bar of epochs without a TTY, `\r` redraws `Epoch 3/40:   8%|▊  | 3/40 [00:00<00:03, 11.2it/s, v_num=1,
# elbo_train=1.17e+5]`, 3 significant digits; Lightning's warnings on stderr)
run("c2l_ref_clippedadam_b200_40ep", "c2l_train.py", "--lr 0.02 --batch 200 --epochs 40")
run("c2l_ref_fullbatch_lr005_30ep", "c2l_train.py", "--lr 0.05 --epochs 30")
run("c2l_ref_adam_lr1_b300_20ep", "c2l_train.py", "--optim adam --lr 1 --batch 300 --epochs 20")
run("c2l_spatial_fullbatch_60ep", "c2l_train.py", "--model spatial --n 200 --epochs 60")
run("c2l_spatial_b100_lr001_20ep", "c2l_train.py", "--model spatial --n 300 --batch 100 --lr 0.01 --epochs 20")
run("c2l_ref_lrd_growth_diverged", "c2l_train.py", "--optim clippedadam --lr 0.05 --lrd 1.06 --batch 200 --epochs 27",
    label="diverged", stop=True)
run("c2l_ref_lrd_growth_novalidation_nan", "c2l_train.py",
    "--optim clippedadam --lr 0.05 --lrd 1.06 --batch 200 --epochs 40 --no-pyro-validation", label="nan", stop=True)
run("c2l_spatial_lrd_growth_novalidation_nan", "c2l_train.py",
    "--model spatial --n 200 --optim clippedadam --lr 0.05 --lrd 1.2 --epochs 40 --no-pyro-validation", label="nan",
    stop=True)

# --- gpflux (a deep GP or a single GPLayer as a Keras model, `fit` with tf-keras' progress on stdout, no TTY: `Epoch
# 3/10` then `4/4 [=====] - 0s 1ms/step - loss: 53.1983 - gp_0_prior_kl: 0.2700 - gp_1_prior_kl: 0.0024` after the
# first batch's display and backspaces; `verbose=2`: `4/4 - 0s - loss: 4.9900 - gp_layer_prior_kl: 0.0030 - ...`)
run("gpflux_dgp2_adam_val_12ep", "gpflux_fit.py", "--val --epochs 12")
run("gpflux_dgp3_adam_b25_verbose2_10ep", "gpflux_fit.py", "--layers 3 --batch 25 --verbose 2 --epochs 10")
run("gpflux_svgp_adam_verbose2_15ep", "gpflux_fit.py", "--arch svgp --epochs 15 --verbose 2")
run("gpflux_svgp_3d_sgd_plateau_20ep", "gpflux_fit.py",
    "--arch svgp --dim 3 --optimizer sgd --lr 0.01 --plateau --epochs 20")
run("gpflux_dgp1_adam_b100_lr003_15ep", "gpflux_fit.py", "--layers 1 --lr 0.03 --batch 100 --epochs 15")
run("gpflux_dgp2_lr_growth_diverged", "gpflux_fit.py", "--lr 0.5 --growth 2 --epochs 10", label="diverged", stop=True)
run("gpflux_svgp_lr_growth_nan", "gpflux_fit.py", "--arch svgp --lr 0.3 --growth 3 --epochs 12 --verbose 2",
    label="nan", stop=True)
run("gpflux_dgp2_sgd_lr_growth_nan", "gpflux_fit.py", "--optimizer sgd --lr 0.05 --growth 2.5 --epochs 12",
    label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout86", "libho86", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
