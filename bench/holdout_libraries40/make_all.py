"""Make the fortieth held-out library corpus (examples/libraries_holdout40): real runs of training libraries nobody
on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout40/bin/python bench/holdout_libraries40/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- keras4torch (Keras-like fit output on stdout: "Epoch 3/20", a backspace-redrawn bar, then
# "25/25 - 0.1s - loss: 0.4980 - val_loss: 0.5012 - lr: 1e-03"; verbose=2: "Epoch 3/20 - 0.1s - loss: ...")
run("k4t_reg_adam_val_v1_20ep", "keras4torch_fit.py", "--epochs 20 --val 0.2")
run("k4t_reg_sgd_default_v2_30ep", "keras4torch_fit.py", "--optimizer sgd --epochs 30 --verbose 2")
run("k4t_cls_rmsprop_csv_15ep", "keras4torch_fit.py", "--task cls --optimizer rmsprop --epochs 15 --csv")
run("k4t_cls_adamw_val_v2_b64_25ep", "keras4torch_fit.py",
    "--task cls --optimizer adamw --lr 3e-3 --val 0.25 --verbose 2 --batch 64 --epochs 25")
run("k4t_reg_adam_decay_val_v2_40ep", "keras4torch_fit.py",
    "--lr 3e-3 --gamma 0.93 --epochs 40 --val 0.2 --batch 64 --verbose 2")
run("k4t_cls_sgd_default_csv_12ep", "keras4torch_fit.py", "--task cls --optimizer sgd --epochs 12 --csv")
run("k4t_reg_sgd_lr_high_nan", "keras4torch_fit.py", "--optimizer sgd --lr 0.02 --gamma 1.5 --epochs 12",
    label="nan", stop=True)
# made again after the dropped k4t_reg_sgdplain_lr_growth_val_diverged (gamma 2, 15 epochs: it reached nan)
run("k4t_reg_sgdplain_lr_growth_val_nan", "keras4torch_fit.py",
    "--optimizer sgd-plain --lr 1e-3 --gamma 2.5 --epochs 15 --val 0.2", label="nan", stop=True)
run("k4t_reg_sgd_lr_growth_v2_nan", "keras4torch_fit.py",
    "--optimizer sgd --lr 0.005 --gamma 2 --epochs 14 --verbose 2", label="nan", stop=True)
run("k4t_cls_adam_lr_growth_v2_diverged", "keras4torch_fit.py",
    "--task cls --lr 3e-3 --gamma 2.2 --epochs 14 --verbose 2", label="diverged", stop=True)
# made again after the dropped k4t_cls_rmsprop_lr_growth_csv_nan (gamma 3, 16 epochs: it stayed finite, 1.3e11)
run("k4t_cls_rmsprop_lr_growth_csv_diverged", "keras4torch_fit.py",
    "--task cls --optimizer rmsprop --lr 1e-2 --gamma 2.5 --epochs 14 --csv", label="diverged", stop=True)

# --- faiss-cpu (faiss.Kmeans(verbose=True): C++ printf on stdout, one "\r"-ended line per iteration:
# "  Iteration 7 (0.05 s, search 0.04 s): objective=51234.5 imbalance=1.021 nsplit=0       \r")
run("faiss_kmeans_k20_25it", "faiss_kmeans.py", "")
run("faiss_kmeans_k50_d32_sampled_40it", "faiss_kmeans.py", "--n 20000 --k 50 --d 32 --niter 40")
run("faiss_kmeans_k8_d8_10it", "faiss_kmeans.py", "--n 2000 --k 8 --d 8 --niter 10 --centers 6")
run("faiss_kmeans_k100_maxpts64_30it", "faiss_kmeans.py", "--n 10000 --k 100 --max-points 64 --niter 30")
run("faiss_kmeans_k16_d64_60it", "faiss_kmeans.py", "--n 6000 --d 64 --k 16 --niter 60 --centers 30 --seed 7")

# --- torchfit (Learner.fit: "Epoch 3 / 10", a "\r"-redrawn bar "[=====   ] 12%\t  loss: 1.3967", then the bar again
# with the epoch's metrics "accuracy: 0.8337  val_loss: 0.7803  val_accuracy: 0.8100")
run("torchfit_cls_default_sgd_10ep", "torchfit_fit.py", "--lr 0.01 --epochs 10")
run("torchfit_cls_adam_val_15ep", "torchfit_fit.py", "--optimizer adam --lr 0.002 --epochs 15 --val")
run("torchfit_reg_adam_b64_20ep", "torchfit_fit.py", "--task reg --optimizer adam --lr 0.003 --epochs 20 --batch 64")
run("torchfit_reg_rmsprop_val_decay_12ep", "torchfit_fit.py",
    "--task reg --optimizer rmsprop --lr 0.002 --gamma 0.85 --epochs 12 --val")
run("torchfit_reg_sgd_lr_growth_nan", "torchfit_fit.py",
    "--task reg --optimizer sgd --lr 0.005 --gamma 2 --epochs 14", label="nan", stop=True)
run("torchfit_cls_adam_lr_growth_val_diverged", "torchfit_fit.py",
    "--optimizer adam --lr 0.003 --gamma 2.2 --epochs 14 --val", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout40", "libho40", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
