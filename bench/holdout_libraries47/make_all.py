"""Make the 47th held-out library corpus (examples/libraries_holdout47): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout47/bin/python bench/holdout_libraries47/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- celer (its Cython solvers' verbose lines on stdout: "Iter 3: primal 0.0540792502, gap 2.51e-02, 42 feats in
# subpb (300 left)")
run("celer_lasso_tol1e-10", "celer_fit.py", "--model lasso --alpha 0.01 --tol 1e-10")
run("celer_lasso_p1000_alpha2e-3", "celer_fit.py", "--model lasso --p 1000 --alpha 0.002 --tol 1e-9 --p0 20")
run("celer_enet_l1ratio05", "celer_fit.py", "--model enet --alpha 0.005 --tol 1e-9")
run("celer_logreg_pn_C05", "celer_fit.py", "--model logreg --alpha 0.5 --tol 1e-10")
run("celer_logreg_celer_C1", "celer_fit.py", "--model logreg --solver celer --alpha 1 --tol 1e-9 --n 200")
run("celer_grouplasso_5", "celer_fit.py", "--model group --alpha 0.02 --tol 1e-10 --noise 0.5")

# --- torchmanager (its Manager.fit; its logger's console on stderr: "Epoch 3/10: loss=0.4123, val_loss=0.4410";
# with show_verbose, tqdm's bar each epoch "100%|##########| 16/16 [00:00<00:00, 355.86it/s, loss=1.09]")
run("torchmanager_cls_sgd_10ep", "torchmanager_fit.py", "--lr 0.1 --epochs 10")
run("torchmanager_cls_adam_val_progress_8ep", "torchmanager_fit.py",
    "--optimizer adam --lr 0.003 --epochs 8 --val --progress")
run("torchmanager_reg_momentum_val_12ep", "torchmanager_fit.py",
    "--task reg --optimizer momentum --lr 0.01 --epochs 12 --val")
run("torchmanager_reg_rmsprop_decay_15ep", "torchmanager_fit.py",
    "--task reg --optimizer rmsprop --lr 0.001 --gamma 0.9 --epochs 15")
run("torchmanager_cls_sgd_b64_progress_20ep", "torchmanager_fit.py", "--lr 0.05 --batch 64 --epochs 20 --progress")
run("torchmanager_reg_momentum_lr2_nan", "torchmanager_fit.py",
    "--task reg --optimizer momentum --lr 2 --epochs 8", label="nan", stop=True)
run("torchmanager_cls_sgd_lr_growth_g16_diverged", "torchmanager_fit.py", "--lr 0.05 --gamma 1.6 --epochs 12",
    label="diverged", stop=True)
run("torchmanager_reg_sgd_lr_growth_nan", "torchmanager_fit.py",
    "--task reg --lr 0.02 --gamma 3 --epochs 10 --val", label="nan", stop=True)
run("torchmanager_cls_adam_lr_growth_progress_diverged", "torchmanager_fit.py",
    "--optimizer adam --lr 0.003 --gamma 2.5 --epochs 10 --progress", label="diverged", stop=True)
run("torchmanager_reg_rmsprop_lr_growth_diverged", "torchmanager_fit.py",
    "--task reg --optimizer rmsprop --lr 0.001 --gamma 2.2 --epochs 12", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout47", "libho47", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
