"""Make the 46th held-out library corpus (examples/libraries_holdout46): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout46/bin/python bench/holdout_libraries46/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- pyunlocbox (solvers.solve(verbosity='HIGH' / 'ALL') on stdout: "Iteration 12 of forward_backward:" then
# "    objective = 1.13e+02"; with ALL also "    norm_l2 evaluation: 1.097047e+02" per function)
run("unlocbox_fb_lasso_fista_40it", "unlocbox_solve.py", "--maxit 40")
run("unlocbox_fb_lasso_dummy_lam2_all", "unlocbox_solve.py",
    "--accel dummy --step 1.5 --maxit 60 --lam 2 --verbosity ALL")
run("unlocbox_gd_ls_step1.3_30it", "unlocbox_solve.py", "--solver gradient_descent --problem ls --step 1.3 --maxit 30")
run("unlocbox_gfb_lasso_ridge_25it_all", "unlocbox_solve.py",
    "--solver generalized_forward_backward --problem smooth --maxit 25 --verbosity ALL")
run("unlocbox_gd_ls_m120_50it_all", "unlocbox_solve.py",
    "--solver gradient_descent --problem ls --step 0.9 --maxit 50 --m 120 --n 40 --verbosity ALL")
run("unlocbox_fb_lasso_lam5_rtol1e-4", "unlocbox_solve.py", "--lam 5 --step 1 --rtol 1e-4 --maxit 80")
run("unlocbox_gd_ls_step3_diverged", "unlocbox_solve.py", "--solver gradient_descent --problem ls --step 3 --maxit 30",
    label="diverged", stop=True)
run("unlocbox_fb_lasso_step12_diverged", "unlocbox_solve.py", "--step 12 --maxit 40", label="diverged", stop=True)
run("unlocbox_gd_ls_step30_inf", "unlocbox_solve.py", "--solver gradient_descent --problem ls --step 30 --maxit 120",
    label="nan", stop=True)

# --- sklearn-genetic-opt (GASearchCV's DEAP logbook on stdout: "gen	nevals	fitness 	fitness_std	fitness_max
# fitness_min" then one row a generation; the fitness a CV score, maximised: minus the MSE)
run("ga_ridge_mupluslambda_10gen", "gasearch_fit.py", "--generations 10")
run("ga_tree_pop12_8gen", "gasearch_fit.py", "--model tree --generations 8 --population 12")
run("ga_knn_mucommalambda_8gen", "gasearch_fit.py", "--model knn --algorithm eaMuCommaLambda --generations 8")
run("ga_tree_easimple_cv5_12gen", "gasearch_fit.py",
    "--model tree --algorithm eaSimple --cv 5 --generations 12 --crossover 0.5 --mutation 0.3")
run("ga_sgd_eta_high_diverged", "gasearch_fit.py", "--model sgd --eta-low 1e3 --eta-high 1e5 --generations 6",
    label="diverged", stop=True)
run("ga_ridge_flat_space_flat", "gasearch_fit.py",
    "--alpha-high 1e-8 --intercept yes --generations 8 --algorithm eaSimple", label="flat", stop=True)

# --- aeon (its deep-learning estimators train a Keras model with verbose=True: "Epoch 3/20" then Keras' progress bar
# with ANSI colours, "4/4 ━━━━ 0s 12ms/step - loss: 0.6843"; made with ~/venvs/holdout46-aeon, TensorFlow's venv)
run("aeon_fcn_cls_adam_15ep", "aeon_deep.py", "--epochs 15")
run("aeon_mlp_cls_sgd_b8_20ep", "aeon_deep.py", "--model mlp --optimizer sgd --lr 0.01 --epochs 20 --batch 8")
run("aeon_timecnn_reg_adam_20ep", "aeon_deep.py", "--model timecnn --task reg --epochs 20 --lr 3e-3")
run("aeon_fcn_reg_rmsprop_12ep", "aeon_deep.py", "--task reg --optimizer rmsprop --epochs 12")
run("aeon_mlp_reg_sgd_lr_high_nan", "aeon_deep.py", "--model mlp --task reg --optimizer sgd --lr 0.3 --epochs 10",
    label="nan", stop=True)
run("aeon_fcn_reg_sgd_lr_high_nan", "aeon_deep.py", "--task reg --optimizer sgd --lr 1 --epochs 10", label="nan",
    stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout46", "libho46", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
