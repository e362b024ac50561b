"""Make the fifteenth held-out library corpus (examples/libraries_holdout15): real runs of training libraries nobody
on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout15/bin/python bench/holdout_libraries15/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- torchdyn (a NeuralODE in its tutorial's Lightning Learner: Lightning's tqdm bar on stdout, one `\r` line an
# epoch, "Epoch 1:  50%|█████     | 4/8 [00:00<00:00, 43.66it/s, v_num=0, train_loss=1.080]"; metrics.csv)
run("torchdyn_moons_adam_rk4_every2_5ep", "torchdyn_learner.py", "--epochs 5 --every 2")
run("torchdyn_spirals_adam_dopri5_adjoint_val_4ep", "torchdyn_learner.py",
    "--data spirals --solver dopri5 --sensitivity adjoint --val --epochs 4 --every 4")
run("torchdyn_reg_momentum_euler_every3_6ep", "torchdyn_learner.py",
    "--data reg --optimizer momentum --lr 0.05 --solver euler --epochs 6 --every 3")
run("torchdyn_gaussians_rmsprop_tsit5_val_5ep", "torchdyn_learner.py",
    "--data gaussians --optimizer rmsprop --lr 0.005 --solver tsit5 --val --epochs 5 --every 5")
run("torchdyn_reg_sgd_lr_growth_nan", "torchdyn_learner.py",
    "--data reg --optimizer sgd --lr 0.05 --gamma 3 --epochs 8 --every 2", label="nan", stop=True)
run("torchdyn_moons_adam_lr_growth_diverged", "torchdyn_learner.py",
    "--lr 0.01 --gamma 2.5 --epochs 8 --every 2", label="diverged", stop=True)

# --- tensorflow-recommenders (a tfrs.models.Model in Keras' fit, verbose=2: "Epoch 3/8" then "16/16 - 0s - 2ms/step -
# root_mean_squared_error: 1.1794 - loss: 1.3815 - regularization_loss: 0.0000e+00 - total_loss: 1.3815")
run("tfrs_ranking_adagrad_8ep", "tfrs_fit.py", "--epochs 8 --verbose 2")
run("tfrs_ranking_adam_val_6ep", "tfrs_fit.py", "--optimizer adam --lr 0.003 --val --epochs 6 --verbose 2")
run("tfrs_retrieval_adagrad_6ep", "tfrs_fit.py", "--task retrieval --epochs 6 --verbose 2")
run("tfrs_retrieval_adam_b128_val_5ep", "tfrs_fit.py",
    "--task retrieval --optimizer adam --lr 0.01 --batch 128 --val --epochs 5 --verbose 2")
run("tfrs_ranking_sgd_lr_growth_nan", "tfrs_fit.py", "--optimizer sgd --lr 0.01 --growth 3 --epochs 8 --verbose 2",
    label="nan", stop=True)
run("tfrs_retrieval_sgd_lr_growth_nan", "tfrs_fit.py",
    "--task retrieval --optimizer sgd --lr 0.05 --growth 3 --epochs 8 --verbose 2", label="nan", stop=True)

# --- spektral (its custom-dataset graph classification in Keras' fit: verbose=2 "13/13 - 0s - loss: 0.4833 - accuracy:
# 0.8100 - val_loss: 0.9164 - val_accuracy: 0.7300 - 152ms/epoch - 12ms/step", or the default progress bar's lines)
run("spektral_gcs_adam_8ep", "spektral_fit.py", "--epochs 8")
run("spektral_gin_adam_val_default_6ep", "spektral_fit.py", "--conv gin --val --epochs 6 --lr 0.005 --verbose auto")
run("spektral_gcn_sum_rmsprop_default_8ep", "spektral_fit.py",
    "--conv gcn --pool sum --optimizer rmsprop --lr 0.003 --epochs 8 --verbose auto")
run("spektral_gcs_sgd_b16_val_10ep", "spektral_fit.py", "--optimizer sgd --lr 0.1 --batch 16 --val --epochs 10")
run("spektral_gcs_adam_lr_growth_diverged", "spektral_fit.py", "--lr 0.003 --growth 2 --epochs 10",
    label="diverged", stop=True)
run("spektral_gcn_rmsprop_lr_growth_diverged", "spektral_fit.py",
    "--conv gcn --optimizer rmsprop --lr 0.01 --growth 3 --epochs 8 --verbose auto", label="diverged", stop=True)

# --- objax (its examples' loop: one print an epoch "Epoch    3  Loss 0.7090  Accuracy 72.66", after TensorFlow's
# start-up lines (its jaxboard writer imports TensorFlow); objax.jaxboard's TensorBoard events)
run("objax_cls_adam_12ep", "objax_train.py", "--epochs 12")
run("objax_reg_momentum_10ep", "objax_train.py", "--task reg --optimizer momentum --lr 0.01 --epochs 10")
run("objax_cls_sgd_b64_20ep", "objax_train.py", "--optimizer sgd --lr 0.1 --batch 64 --epochs 20")
run("objax_reg_adam_decay_15ep", "objax_train.py", "--task reg --lr 0.01 --gamma 0.8 --epochs 15")
run("objax_cls_adam_lr_growth_diverged", "objax_train.py", "--lr 0.003 --gamma 3 --epochs 10", label="diverged",
    stop=True)
run("objax_reg_sgd_lr_growth_nan", "objax_train.py", "--task reg --optimizer sgd --lr 0.01 --gamma 4 --epochs 10",
    label="nan", stop=True)
run("objax_reg_momentum_lr_growth_nan", "objax_train.py",
    "--task reg --optimizer momentum --lr 0.005 --gamma 3 --epochs 10", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout15", "libho15", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
