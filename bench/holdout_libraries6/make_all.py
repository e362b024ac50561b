"""Make the sixth held-out library corpus (examples/libraries_holdout6): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout6/bin/python bench/holdout_libraries6/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- mlxtend (its estimators' print_progress on stderr: "\rIteration: 12/50 | Cost 0.53 | Elapsed: 00:00:00")
run("mlxtend_linreg_gd_p1_30ep", "mlxtend_fit.py", "--model linreg --eta 0.001 --epochs 30 --progress 1")
run("mlxtend_linreg_sgd_mb10_p3_40ep", "mlxtend_fit.py",
    "--model linreg --eta 0.0005 --minibatches 10 --epochs 40 --progress 3")
run("mlxtend_logreg_p2_50ep", "mlxtend_fit.py", "--model logreg --eta 0.002 --epochs 50 --progress 2")
run("mlxtend_softmax_mb5_p1_40ep", "mlxtend_fit.py", "--model softmax --eta 0.005 --minibatches 5 --epochs 40")
run("mlxtend_mlp_mb10_p3_60ep", "mlxtend_fit.py", "--model mlp --eta 0.1 --minibatches 10 --epochs 60 --progress 3")
run("mlxtend_linreg_eta_high_diverged", "mlxtend_fit.py", "--model linreg --eta 0.01 --epochs 20 --progress 2",
    label="diverged", stop=True)
run("mlxtend_adaline_eta_high_diverged", "mlxtend_fit.py", "--model adaline --eta 0.01 --epochs 20",
    label="diverged", stop=True)
run("mlxtend_mlp_eta_high_nan", "mlxtend_fit.py", "--model mlp --eta 5 --epochs 20 --progress 3", label="nan",
    stop=True)
run("mlxtend_linreg_noscale_eta_high_nan", "mlxtend_fit.py",
    "--model linreg --no-scale --eta 0.005 --epochs 120 --progress 1", label="nan", stop=True)

# --- pytorch-pfn-extras (ExtensionsManager + PrintReport table on stdout: "1           20          1.38078     0.01")
run("ppe_cls_sgd_val_progress_8ep", "ppe_manager.py", "--lr 0.1 --epochs 8 --val --progress")
run("ppe_cls_adam_iter10_8ep", "ppe_manager.py", "--optimizer adam --lr 0.003 --epochs 8 --trigger 10,iteration")
run("ppe_reg_momentum_iter5_val_6ep", "ppe_manager.py",
    "--task reg --optimizer momentum --lr 0.01 --epochs 6 --trigger 5,iteration --val")
run("ppe_cls_sgd_decay_12ep", "ppe_manager.py", "--lr 0.2 --gamma 0.8 --epochs 12 --batch 64")
run("ppe_reg_adam_epoch_progress_15ep", "ppe_manager.py",
    "--task reg --optimizer adam --lr 0.005 --epochs 15 --progress")
run("ppe_reg_sgd_lr_growth_nan", "ppe_manager.py", "--task reg --lr 0.05 --gamma 1.6 --epochs 8 --trigger 10,iteration",
    label="nan", stop=True)
run("ppe_cls_sgd_lr_growth_diverged", "ppe_manager.py", "--lr 0.05 --gamma 2 --epochs 10 --trigger 10,iteration",
    label="diverged", stop=True)
run("ppe_cls_adam_lr_growth_val_diverged", "ppe_manager.py",
    "--optimizer adam --lr 0.003 --gamma 2.2 --epochs 10 --val", label="diverged", stop=True)
run("ppe_reg_momentum_lr_high_nan", "ppe_manager.py",
    "--task reg --optimizer momentum --lr 0.3 --epochs 6 --trigger 4,iteration", label="nan", stop=True)

# --- python-crfsuite (CRFsuite's messages on stdout: "***** Iteration #12 *****" / "Loss: 478.692026" / ...)
run("crfsuite_lbfgs_60it", "crfsuite_train.py", "--iters 60")
run("crfsuite_lbfgs_l1_40it", "crfsuite_train.py", "--iters 40 --c1 0.5 --c2 0.01 --sentences 400")
run("crfsuite_l2sgd_20ep", "crfsuite_train.py", "--algorithm l2sgd --iters 20")
run("crfsuite_arow_15it", "crfsuite_train.py", "--algorithm arow --iters 15")
run("crfsuite_ap_noise5_25it", "crfsuite_train.py", "--algorithm ap --iters 25 --noise 0.05")
run("crfsuite_l2sgd_c2_1e-1_30ep", "crfsuite_train.py", "--algorithm l2sgd --iters 30 --c2 0.1 --sentences 200")

# --- torchensemble (its logger on stderr: "2026-12-06 01:48:29,705 - INFO: Epoch: 000 | Batch: 005 | Loss: 1.09794 |
# Correct: 11/32", and its own log file logs/<name>-<date>.log, scored too)
run("torchensemble_fusion_cls_val_6ep", "torchensemble_fit.py", "--val --epochs 6")
run("torchensemble_fusion_cls_sgd_log2_5ep", "torchensemble_fit.py",
    "--optimizer SGD --lr 0.02 --estimators 2 --epochs 5 --log-interval 2")
run("torchensemble_fusion_reg_val_8ep", "torchensemble_fit.py", "--task reg --val --epochs 8 --lr 3e-3")
run("torchensemble_fusion_reg_rmsprop_decay_10ep", "torchensemble_fit.py",
    "--task reg --optimizer RMSprop --lr 1e-3 --gamma 0.8 --epochs 10 --log-interval 10 --batch 64")
run("torchensemble_fusion_reg_sgd_lr_growth_nan", "torchensemble_fit.py",
    "--task reg --optimizer SGD --lr 0.02 --gamma 3 --epochs 8 --log-interval 10", label="nan", stop=True)
run("torchensemble_fusion_cls_adam_lr_growth_diverged", "torchensemble_fit.py",
    "--lr 3e-3 --gamma 2.5 --epochs 10 --log-interval 10 --val", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout6", "libho6", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
