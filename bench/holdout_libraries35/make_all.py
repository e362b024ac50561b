"""Make the thirty-fifth held-out library corpus (examples/libraries_holdout35): real runs of training libraries
nobody on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout35/bin/python bench/holdout_libraries35/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- torchkeras (KerasModel.fit(plot=False) on stdout: "Epoch 3 / 10", a tqdm bar "... train_loss=0.532]")
run("torchkeras_cls_adam_val_10ep", "torchkeras_fit.py", "--epochs 10 --val")
run("torchkeras_cls_sgd_8ep", "torchkeras_fit.py", "--optimizer SGD --lr 0.02 --epochs 8")
run("torchkeras_reg_adam_val_12ep", "torchkeras_fit.py", "--task reg --lr 3e-3 --epochs 12 --val")
run("torchkeras_reg_rmsprop_decay_15ep", "torchkeras_fit.py",
    "--task reg --optimizer RMSprop --lr 1e-3 --gamma 0.995 --epochs 15 --batch 64")
run("torchkeras_cls_adam_b16_6ep", "torchkeras_fit.py", "--lr 2e-3 --batch 16 --epochs 6")
run("torchkeras_reg_sgd_lr_high_diverged", "torchkeras_fit.py", "--task reg --optimizer SGD --lr 5 --epochs 8",
    label="diverged", stop=True)
run("torchkeras_reg_adam_lr_growth_diverged", "torchkeras_fit.py",
    "--task reg --optimizer Adam --lr 0.003 --gamma 1.06 --epochs 10", label="diverged", stop=True)
run("torchkeras_cls_sgd_lr_growth_diverged", "torchkeras_fit.py", "--optimizer SGD --lr 0.05 --gamma 1.08 --epochs 10",
    label="diverged", stop=True)
run("torchkeras_cls_rmsprop_lr_growth_val_diverged", "torchkeras_fit.py",
    "--optimizer RMSprop --lr 0.01 --gamma 1.15 --epochs 12 --val", label="diverged", stop=True)
run("torchkeras_reg_sgd_lr_growth_nan", "torchkeras_fit.py",
    "--task reg --optimizer SGD --lr 0.05 --gamma 1.2 --epochs 14", label="nan", stop=True)

# --- cyanure (its C++ core on stdout: "Info : Epoch: 10, primal objective: 0.22976425997137500667, time: ...")
run("cyanure_logreg_ista_int2_20ep", "cyanure_fit.py", "--solver ista --interval 2 --max-iter 20")
run("cyanure_lasso_fista_int5_60ep", "cyanure_fit.py",
    "--task reg --penalty l1 --lambda1 0.05 --solver fista --interval 5")
run("cyanure_multi_miso_int2_60ep", "cyanure_fit.py", "--task multi --solver miso --interval 2")
run("cyanure_sqhinge_svrg_int1_30ep", "cyanure_fit.py",
    "--loss squared_hinge --solver svrg --interval 1 --max-iter 30")
run("cyanure_logreg_qning_int1_30ep", "cyanure_fit.py",
    "--lambda1 0.001 --solver qning-ista --interval 1 --max-iter 30")
run("cyanure_ridge_catalyst_int4_40ep", "cyanure_fit.py",
    "--task reg --lambda1 0.001 --solver catalyst-miso --interval 4 --max-iter 40")


# --- snapml (its C++ core on stdout: "epoch:     3, t_elap_sec:       0.00, train_obj: -5.029211e+01")
run("snapml_logreg_dual_20ep", "snapml_fit.py", "--max-iter 20")
run("snapml_svm_dual_25ep", "snapml_fit.py", "--model svm --max-iter 25")
run("snapml_logreg_primal_l1_15ep", "snapml_fit.py", "--primal --penalty l1 --regularizer 0.5 --max-iter 15")
run("snapml_linreg_primal_30ep", "snapml_fit.py", "--model linreg --primal --max-iter 30")
run("snapml_logreg_dpsgd_eta03_12ep", "snapml_fit.py", "--privacy-eta 0.3 --max-iter 12")
run("snapml_logreg_dpsgd_eta100_diverged", "snapml_fit.py", "--privacy-eta 100 --max-iter 10", label="diverged",
    stop=True)
run("snapml_logreg_dpsgd_eta1e4_nan", "snapml_fit.py", "--privacy-eta 1e4 --max-iter 8", label="nan", stop=True)

def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout35", "libho35", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
