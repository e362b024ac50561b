"""Make the 23rd held-out library corpus (examples/libraries_holdout23): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout23/bin/python bench/holdout_libraries23/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- neuromancer (its Trainer's print "epoch: 3  train_loss: 0.0426...", or its LossLogger's tab-separated line)
run("neuromancer_adam_20ep", "neuromancer_fit.py", "--epochs 20")
run("neuromancer_logger_dev_v3_30ep", "neuromancer_fit.py", "--logger --dev --verbose 3 --epochs 30")
run("neuromancer_sgd_v2_40ep", "neuromancer_fit.py", "--optimizer sgd --lr 0.05 --epochs 40 --verbose 2")
run("neuromancer_adamw_logger_v5_60ep", "neuromancer_fit.py",
    "--optimizer adamw --logger --verbose 5 --epochs 60 --batch 64")
run("neuromancer_dev_b16_15ep", "neuromancer_fit.py", "--dev --epochs 15 --batch 16 --lr 0.003")

# --- LibRecommender (per epoch: tqdm's "train" bar, "Epoch 1 elapsed: 0.107s", "\t \x1b[32mtrain_loss: 0.6926\x1b[0m",
# with eval data "\t eval log_loss: 0.6932" ... and a row of "=")
run("libreco_lightgcn_bpr_eval_10ep", "libreco_fit.py", "--epochs 10 --lr 0.01 --eval")
run("libreco_lightgcn_ce_lr_decay_8ep", "libreco_fit.py", "--loss cross_entropy --lr 0.01 --lr-decay --epochs 8")
run("libreco_ngcf_bpr_12ep", "libreco_fit.py", "--model ngcf --lr 0.005 --epochs 12")
run("libreco_ngcf_max_margin_eval_8ep", "libreco_fit.py",
    "--model ngcf --loss max_margin --lr 0.005 --eval --epochs 8 --batch 512")
run("libreco_lightgcn_focal_b128_6ep", "libreco_fit.py", "--loss focal --lr 0.01 --epochs 6 --batch 128 --layers 3")
run("libreco_lightgcn_bpr_lr_high_eval_diverged", "libreco_fit.py", "--lr 5 --epochs 8 --eval", label="diverged",
    stop=True)
run("libreco_ngcf_lr_high_diverged", "libreco_fit.py", "--model ngcf --lr 5 --epochs 10", label="diverged",
    stop=True)

# --- ampligraph (Keras' progress, one line an epoch: "Epoch 3/8" then "2/5 [====>...] - ETA: 0s - loss: 1347.0472"
# "5/5 [=====] - 0s 9ms/step - loss: 1328.3840" on the same line)
run("ampligraph_transe_adam_15ep", "ampligraph_fit.py", "--epochs 15 --lr 0.005")
run("ampligraph_distmult_nll_val_20ep", "ampligraph_fit.py",
    "--scoring DistMult --loss nll --lr 0.005 --epochs 20 --val")
run("ampligraph_complex_multiclass_b8_12ep", "ampligraph_fit.py",
    "--scoring ComplEx --loss multiclass_nll --lr 0.005 --epochs 12 --batches 8")
run("ampligraph_hole_adagrad_10ep", "ampligraph_fit.py", "--scoring HolE --optimizer adagrad --lr 0.1 --epochs 10")
run("ampligraph_transe_sgd_b2_20ep", "ampligraph_fit.py", "--optimizer sgd --lr 0.05 --epochs 20 --batches 2")
run("ampligraph_distmult_nll_sgd_lr_high_diverged", "ampligraph_fit.py",
    "--scoring DistMult --loss nll --optimizer sgd --lr 3 --epochs 12", label="diverged", stop=True)
run("ampligraph_distmult_pairwise_sgd_lr_high_nan", "ampligraph_fit.py",
    "--scoring DistMult --loss pairwise --optimizer sgd --lr 3 --epochs 12", label="nan", stop=True)
run("ampligraph_complex_nll_sgd_lr_high_diverged", "ampligraph_fit.py",
    "--scoring ComplEx --loss nll --optimizer sgd --lr 3 --epochs 12", label="diverged", stop=True)

def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout23", "libho23", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
