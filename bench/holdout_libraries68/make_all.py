"""Make the 68th held-out library corpus (examples/libraries_holdout68): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout68/bin/python bench/holdout_libraries68/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- pyhealth (its `Trainer` on a generated EHR sample set: the model, settings, then per epoch
# `--- Train epoch-0, step-8 ---` / `loss: 0.6931`, with validation `--- Eval epoch-0, step-8 ---` and its metrics;
# tqdm bars on stderr; its own log file output/run/log.txt kept)
run("pyhealth_rnn_binary_val_10ep", "pyhealth_train.py", "--epochs 10")
run("pyhealth_transformer_noval_8ep", "pyhealth_train.py", "--model Transformer --epochs 8 --no-val")
run("pyhealth_retain_multiclass_val_b16_8ep", "pyhealth_train.py",
    "--model RETAIN --mode multiclass --batch 16 --epochs 8")
run("pyhealth_mlp_adamw_clip_val_12ep", "pyhealth_train.py",
    "--model MLP --optimizer adamw --weight-decay 0.01 --max-grad-norm 1.0 --epochs 12")
run("pyhealth_rnn_sgd_noval_b64_15ep", "pyhealth_train.py", "--optimizer sgd --lr 0.5 --batch 64 --epochs 15 --no-val")
run("pyhealth_retain_adam_lr_high_diverged", "pyhealth_train.py",
    "--model RETAIN --lr 1 --batch 64 --epochs 10 --no-val", label="diverged", stop=True)
run("pyhealth_retain_sgd_lr_high_nan", "pyhealth_train.py",
    "--model RETAIN --optimizer sgd --lr 20 --batch 64 --epochs 10 --no-val", label="nan", stop=True)

# --- ray[train] (`TorchTrainer`, one CPU worker, local Ray: its start-up lines, the controller's and worker's
# messages prefixed `(RayTrainWorker pid=...)`, each report `Reporting training result 3: TrainingReport(...,
# metrics={'epoch': 3, 'loss': 0.98...})`; its checkpoint manager's snapshot kept)
run("raytrain_reg_adam_val_8ep", "raytrain_fit.py", "--epochs 8")
run("raytrain_cls_sgd_noval_10ep", "raytrain_fit.py", "--task cls --optimizer sgd --lr 0.1 --epochs 10 --no-val")
run("raytrain_reg_rmsprop_decay_b64_12ep", "raytrain_fit.py",
    "--optimizer rmsprop --lr 0.005 --gamma 0.8 --batch 64 --epochs 12")
run("raytrain_cls_adam_val_b16_6ep", "raytrain_fit.py", "--task cls --batch 16 --epochs 6")
run("raytrain_cls_adam_lr_growth_diverged", "raytrain_fit.py",
    "--task cls --lr 0.05 --gamma 2 --epochs 10 --no-val", label="diverged", stop=True)
run("raytrain_cls_sgd_lr_growth_nan", "raytrain_fit.py",
    "--task cls --optimizer sgd --lr 0.5 --gamma 1.8 --epochs 12", label="nan", stop=True)
run("raytrain_reg_sgd_lr_growth_nan", "raytrain_fit.py",
    "--optimizer sgd --lr 0.01 --gamma 1.8 --epochs 12", label="nan", stop=True)

def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout68", "libho68", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
