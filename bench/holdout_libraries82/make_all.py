"""Make the 82nd held-out library corpus (examples/libraries_holdout82): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout82/bin/python bench/holdout_libraries82/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- bayesflow (`BasicWorkflow.fit_online` / `fit_offline` on Keras 3's torch backend: its `INFO:bayesflow:` lines,
# then Keras' progress on stdout, no TTY: `Epoch 3/8` then the batch displays joined by `\r` and the epoch's summary
# `16/16 ... - loss: 0.2028 - val_loss: -0.2469` on one line; `verbose=2`: `16/16 - 1s - 35ms/step - loss: 1.7252`)
run("bayesflow_coupling_online_val_8ep", "bayesflow_fit.py", "--epochs 8")
run("bayesflow_coupling_online_noval_10ep", "bayesflow_fit.py", "--epochs 10 --batches 12 --no-val")
run("bayesflow_flowmatching_reg_offline_val_v2_8ep", "bayesflow_fit.py",
    "--net flowmatching --task regression --mode offline --verbose 2 --epochs 8")
run("bayesflow_coupling_offline_b64_noval_10ep", "bayesflow_fit.py",
    "--mode offline --batch 64 --n 640 --no-val --epochs 10")
run("bayesflow_coupling_reg_online_adam_v2_7ep", "bayesflow_fit.py",
    "--task regression --optimizer adam --lr 0.001 --verbose 2 --epochs 7")
run("bayesflow_flowmatching_adam_lr_growth_v2_diverged", "bayesflow_fit.py",
    "--net flowmatching --optimizer adam --lr 0.01 --growth 3 --epochs 6 --verbose 2", label="diverged", stop=True)
run("bayesflow_coupling_adam_lr_growth_diverged", "bayesflow_fit.py",
    "--optimizer adam --lr 0.003 --growth 2.5 --epochs 6", label="diverged", stop=True)
run("bayesflow_coupling_adam_lr_growth_noval_nan", "bayesflow_fit.py",
    "--optimizer adam --lr 0.003 --growth 2.5 --epochs 10 --no-val", label="nan", stop=True)

# --- easy-torch (a `Runner` subclass started by `launch_training(CFG)`: `2026-12-07 13:57:23,375 - easytorch-training
# - INFO - Epoch 4 / 6`, tqdm's bar on stderr, `... - INFO - Result <train>: [train_time: 0.00 (s), train_loss:
# 3.0806]` and `Result <val>: [val_time: 0.00 (s), val_loss: 2.9127]`, checkpoint lines)
run("easytorch_adam_reg_val_10ep", "easytorch_train.py", "--epochs 10")
run("easytorch_adam_reg_noval_steplr_12ep", "easytorch_train.py", "--no-val --scheduler step --epochs 12")
run("easytorch_sgd_cls_val_6decimals_10ep", "easytorch_train.py",
    "--task cls --optimizer SGD --lr 0.1 --momentum 0.9 --fmt {:.6f} --epochs 10")
run("easytorch_adamw_cls_b16_explr_15ep", "easytorch_train.py",
    "--task cls --optimizer AdamW --batch 16 --scheduler exp --gamma 0.9 --epochs 15")
run("easytorch_rmsprop_reg_clip_b64_8ep", "easytorch_train.py",
    "--optimizer RMSprop --lr 0.003 --clip 1.0 --batch 64 --epochs 8")
run("easytorch_adam_reg_explr_growth_noval_diverged", "easytorch_train.py",
    "--scheduler exp --gamma 2.5 --epochs 12 --no-val", label="diverged", stop=True)
run("easytorch_sgd_cls_explr_growth_diverged", "easytorch_train.py",
    "--task cls --optimizer SGD --lr 0.5 --momentum 0.9 --scheduler exp --gamma 2 --epochs 7", label="diverged",
    stop=True)
run("easytorch_sgd_reg_explr_growth_nan", "easytorch_train.py",
    "--optimizer SGD --lr 0.05 --momentum 0.9 --scheduler exp --gamma 1.8 --epochs 12", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout82", "libho82", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
