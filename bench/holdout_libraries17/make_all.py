"""Make the seventeenth held-out library corpus (examples/libraries_holdout17): real runs of training libraries
nobody on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout17/bin/python bench/holdout_libraries17/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- scipy.optimize (trust-constr's verbose=2 table on stdout: "|   3   |   3   |   2   | +4.8436e-01 | 6.72e+00 |")
run("scipy_trust_constr_logreg_exact_40it", "scipy_trust_constr.py", "--model logreg --maxiter 40")
run("scipy_trust_constr_linreg_bounds_25it", "scipy_trust_constr.py", "--model linreg --bounds 1 --maxiter 25")
run("scipy_trust_constr_logreg_norm_bfgs_30it", "scipy_trust_constr.py",
    "--model logreg --norm 2 --hess bfgs --maxiter 30")
run("scipy_trust_constr_mlp_bfgs_60it", "scipy_trust_constr.py", "--model mlp --maxiter 60")
run("scipy_trust_constr_linreg_sr1_20it", "scipy_trust_constr.py", "--model linreg --hess sr1 --maxiter 20")

# --- mace-torch (its run_train logger on stdout and in logs/<name>_run-<seed>.log, scored too: "2026-12-06
# 07:01:46.561 INFO: Epoch 0: head: Default, loss=2.40230370, RMSE_E_per_atom=   23.32 meV, RMSE_F=  256.64 meV / A")
run("mace_lj_adam_12ep", "mace_run_train.py", "--epochs 12")
run("mace_lj_adamw_eval2_20ep", "mace_run_train.py", "--optimizer adamw --epochs 20 --eval-interval 2")
run("mace_lj_exp_decay_b5_10ep", "mace_run_train.py",
    "--scheduler ExponentialLR --gamma 0.8 --batch 5 --epochs 10 --channels 16")
run("mace_lj_lr3e-3_eval3_24ep", "mace_run_train.py", "--lr 0.003 --epochs 24 --eval-interval 3 --seed 2")
run("mace_lj_lr_growth_g3_nan", "mace_run_train.py", "--scheduler ExponentialLR --gamma 3 --epochs 12",
    label="nan", stop=True)
run("mace_lj_lr_growth_g1.8_diverged", "mace_run_train.py", "--scheduler ExponentialLR --gamma 1.8 --epochs 12",
    label="diverged", stop=True)
run("mace_lj_lr_high_diverged", "mace_run_train.py", "--lr 1 --epochs 10", label="diverged", stop=True)
run("mace_lj_adamw_lr_growth_g2.2_eval2_nan", "mace_run_train.py",
    "--optimizer adamw --scheduler ExponentialLR --gamma 2.2 --epochs 16 --eval-interval 2", label="nan", stop=True)
run("mace_lj_lr_growth_g1.5_12ep_diverged", "mace_run_train.py", "--scheduler ExponentialLR --gamma 1.5 --epochs 12",
    label="diverged", stop=True)

# --- ctgan (TVAE's tqdm bar over epochs on stderr, its description set each epoch: "\rLoss: +10.85:   0%|   | 0/10")
run("ctgan_tvae_10ep", "ctgan_fit.py", "--epochs 10")
run("ctgan_tvae_b50_dim64_20ep", "ctgan_fit.py", "--batch 50 --dim 64 --epochs 20")
run("ctgan_tvae_lf1_emb8_15ep", "ctgan_fit.py", "--loss-factor 1 --embedding 8 --epochs 15")
run("ctgan_tvae_b200_n800_30ep", "ctgan_fit.py", "--batch 200 --n 800 --epochs 30")
run("ctgan_tvae_dim16_b25_12ep", "ctgan_fit.py", "--dim 16 --batch 25 --epochs 12")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout17", "libho17", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
