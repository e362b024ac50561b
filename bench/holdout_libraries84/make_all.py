"""Make the 84th held-out library corpus (examples/libraries_holdout84): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout84/bin/python bench/holdout_libraries84/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- tensorpack (`launch_train_with_config(TrainConfig(...), SimpleTrainer())`: its logger's `[1207 13:49:08
# @base.py:282] Epoch 3 (global_step 48) finished, time:0.0129 second.`, a tqdm bar per epoch, then its
# ScalarPrinter's stat lines `[... @monitor.py:476] cross_entropy_loss: 0.46765` (`{:.5g}`), sorted by name)
run("tensorpack_cls_adam_val_saver_8ep", "tensorpack_train.py", "--val --saver")
run("tensorpack_cls_adam_wd_step_val_10ep", "tensorpack_train.py", "--val --wd 0.001 --schedule step --epochs 10")
run("tensorpack_reg_sgd_noval_10ep", "tensorpack_train.py", "--task reg --opt sgd --lr 0.1 --epochs 10")
run("tensorpack_reg_momentum_spe5_val_12ep", "tensorpack_train.py",
    "--task reg --opt momentum --lr 0.01 --steps-per-epoch 5 --epochs 12 --val")
run("tensorpack_cls_rmsprop_b64_saver_6ep", "tensorpack_train.py",
    "--opt rmsprop --lr 0.003 --batch 64 --epochs 6 --saver")
run("tensorpack_reg_adam_lr_growth_diverged", "tensorpack_train.py",
    "--task reg --lr 0.01 --schedule growth --gamma 2 --epochs 12", label="diverged", stop=True)
run("tensorpack_cls_adam_lr_growth_diverged", "tensorpack_train.py",
    "--lr 0.01 --schedule growth --gamma 2.5 --epochs 10", label="diverged", stop=True)
run("tensorpack_reg_momentum_lr_growth_nan", "tensorpack_train.py",
    "--task reg --opt momentum --lr 0.001 --schedule growth --gamma 3 --epochs 12", label="nan", stop=True)

# --- kymatio (Scattering1D before a small net: its Keras frontend with `model.fit`, Keras' progress on stdout, no
# TTY, `Epoch 3/10` then one line an epoch `... - loss: 0.4623 - accuracy: ...`; or its scikit-learn frontend in a
# Pipeline before MLPClassifier/MLPRegressor(verbose=True): `Iteration 3, loss = 0.05020000`, `Validation score:`)
run("kymatio_keras_cls_adam_val_10ep", "kymatio_fit.py", "--epochs 10")
run("kymatio_keras_reg_adam_val_verbose2_10ep", "kymatio_fit.py", "--task reg --epochs 10 --verbose 2")
run("kymatio_keras_cls_rmsprop_noval_b16_8ep", "kymatio_fit.py",
    "--opt rmsprop --lr 0.003 --batch 16 --no-val --epochs 8 --J 5 --Q 8")
run("kymatio_sklearn_cls_adam_earlystop_15ep", "kymatio_fit.py", "--frontend sklearn --epochs 15")
run("kymatio_sklearn_reg_sgd_noval_12ep", "kymatio_fit.py",
    "--frontend sklearn --task reg --opt sgd --lr 0.02 --epochs 12 --no-val")
run("kymatio_keras_reg_sgd_lr_growth_nan", "kymatio_fit.py",
    "--task reg --opt sgd --lr 0.01 --lr-growth 2 --epochs 12 --no-val", label="nan", stop=True)
run("kymatio_keras_cls_adam_lr_growth_diverged", "kymatio_fit.py", "--lr 0.01 --lr-growth 3 --epochs 12",
    label="diverged", stop=True)
run("kymatio_sklearn_reg_sgd_lr_high_nan", "kymatio_fit.py",
    "--frontend sklearn --task reg --opt sgd --lr 0.03 --epochs 12 --no-val", label="nan", stop=True)
run("kymatio_sklearn_cls_sgd_lr_high_diverged", "kymatio_fit.py",
    "--frontend sklearn --task cls --opt sgd --lr 0.5 --epochs 12", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout84", "libho84", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
