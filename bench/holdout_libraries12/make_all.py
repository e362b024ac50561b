"""Make the twelfth held-out library corpus (examples/libraries_holdout12): real runs of training libraries nobody
on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout12/bin/python bench/holdout_libraries12/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- sktime (its deep-learning estimators, verbose=True: the Keras model summary, then Keras' per-epoch progress on
# stdout: "Epoch 3/20" / "8/8 ━━━━ 0s 4ms/step - accuracy: 0.5000 - loss: 0.2304")
run("sktime_cnn_default_30ep", "sktime_deep.py", "--model cnn --epochs 30")
run("sktime_fcn_adam_mb32_15ep", "sktime_deep.py", "--model fcn --optimizer adam --lr 0.005 --batch 32 --epochs 15")
run("sktime_mlp_adam_40ep", "sktime_deep.py", "--model mlp --optimizer adam --lr 0.001 --epochs 40")
run("sktime_cnnreg_adam_25ep", "sktime_deep.py", "--model cnnreg --optimizer adam --lr 0.005 --epochs 25")
run("sktime_cnn_rmsprop_lr1e-2_mb8_20ep", "sktime_deep.py",
    "--model cnn --optimizer rmsprop --lr 0.01 --batch 8 --epochs 20")
run("sktime_cnn_adam_lr_growth_diverged", "sktime_deep.py",
    "--model cnn --optimizer adam --lr 0.001 --lr-growth 3 --epochs 15", label="diverged", stop=True)
run("sktime_mlp_sgd_lr_high_nan", "sktime_deep.py", "--model mlp --optimizer sgd --lr 2 --epochs 15",
    label="nan", stop=True)
run("sktime_cnnreg_sgd_lr_high_diverged", "sktime_deep.py",
    "--model cnnreg --optimizer sgd --lr 0.05 --scale 30 --epochs 15", label="diverged", stop=True)

# --- tslearn (LearningShapelets, verbose=1: Keras' per-epoch progress on stdout, "Epoch 3/20" / "1/1 ━━━━ 0s
# 30ms/step - binary_accuracy: 0.5778 - binary_crossentropy: 0.5528 - loss: 0.5528")
run("tslearn_shapelets_adam_20ep", "tslearn_shapelets.py", "--optimizer adam --lr 0.05 --epochs 20")
run("tslearn_shapelets_3cls_adam_default_mb16_30ep", "tslearn_shapelets.py",
    "--classes 3 --optimizer adam --batch 16 --epochs 30")
run("tslearn_shapelets_rmsprop_2sizes_mb32_30ep", "tslearn_shapelets.py",
    "--optimizer rmsprop --lr 0.01 --shapelets 6:3,10:2 --batch 32 --scale --epochs 30")
run("tslearn_shapelets_3cls_adam_reg_25ep", "tslearn_shapelets.py",
    "--classes 3 --optimizer adam --lr 0.02 --reg 0.01 --epochs 25")
run("tslearn_shapelets_sgd_lr_growth_nan", "tslearn_shapelets.py",
    "--optimizer sgd --lr 0.05 --lr-growth 4 --epochs 15", label="nan", stop=True)
run("tslearn_shapelets_adam_lr_growth_diverged", "tslearn_shapelets.py",
    "--optimizer adam --lr 0.01 --lr-growth 3 --batch 32 --epochs 15", label="diverged", stop=True)

# --- GPflow (a monitored training loop, as its docs write it: "Step 10: training loss 227.3653" from an
# ExecuteCallback, the objective in TensorBoard event files from ScalarToTensorBoard, print_summary's table at the end)
run("gpflow_gpr_adam_100st_every5", "gpflow_train.py", "--model gpr --lr 0.05 --steps 100 --every 5")
run("gpflow_gpr_scipy_every1", "gpflow_train.py", "--model gpr --optimizer scipy --steps 50 --every 1")
run("gpflow_svgp_adam_mb50_200st_every10", "gpflow_train.py", "--model svgp --lr 0.05 --steps 200 --every 10")
run("gpflow_vgp_scipy_every2", "gpflow_train.py", "--model vgp --optimizer scipy --n 80 --steps 60 --every 2")
run("gpflow_gpr_adam_lr_growth_diverged", "gpflow_train.py",
    "--model gpr --lr 0.05 --lr-growth 4 --steps 80 --every 4", label="diverged", stop=True)
run("gpflow_svgp_adam_lr_growth_diverged", "gpflow_train.py",
    "--model svgp --lr 0.02 --lr-growth 3 --steps 100 --every 5", label="diverged", stop=True)


# --- Chainer (its Trainer as its MNIST example writes it: PrintReport's table on stdout, "\x1b[J3           0.682373
# 0.696696              0.783203       0.1         0.0434224", ProgressBar's redrawn block where asked; its LogReport
# file `log` kept, the truth's source)
run("chainer_cls_sgd_val_10ep", "chainer_trainer.py", "--lr 0.1 --epochs 10 --val")
run("chainer_cls_adam_iter10_progress_8ep", "chainer_trainer.py",
    "--optimizer adam --lr 0.003 --epochs 8 --trigger 10,iteration --progress")
run("chainer_reg_momentum_val_12ep", "chainer_trainer.py",
    "--task reg --optimizer momentum --lr 0.01 --epochs 12 --val")
run("chainer_reg_adam_iter5_6ep", "chainer_trainer.py",
    "--task reg --optimizer adam --lr 0.005 --epochs 6 --trigger 5,iteration")
run("chainer_reg_momentum_lr_high_nan", "chainer_trainer.py",
    "--task reg --optimizer momentum --lr 0.1 --epochs 8 --trigger 5,iteration", label="nan", stop=True)
run("chainer_cls_adam_shift_val_progress_diverged", "chainer_trainer.py",
    "--optimizer adam --lr 0.003 --shift 2.5 --epochs 10 --val --progress", label="diverged", stop=True)

def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout12", "libho12", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
