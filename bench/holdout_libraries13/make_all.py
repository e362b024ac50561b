"""Make the thirteenth held-out library corpus (examples/libraries_holdout13): real runs of training libraries nobody
on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout13/bin/python bench/holdout_libraries13/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- dm-sonnet (Sonnet's MNIST example's loop and print: "[Epoch 3] train loss: 0.41234, test acc: 87.50% (25 wrong)")
run("sonnet_conv_sgd_fn_10ep", "sonnet_train.py", "--lr 0.05 --epochs 10 --tf-function")
run("sonnet_mlp_adam_notest_12ep", "sonnet_train.py", "--model mlp --optimizer adam --lr 0.003 --epochs 12 --no-test")
run("sonnet_conv_momentum_every2_20ep", "sonnet_train.py",
    "--optimizer momentum --lr 0.01 --epochs 20 --every 2 --tf-function")
run("sonnet_mlp_reg_rmsprop_15ep", "sonnet_train.py",
    "--task reg --model mlp --optimizer rmsprop --lr 0.001 --epochs 15 --tf-function")
run("sonnet_mlp_reg_sgd_lr_growth_nan", "sonnet_train.py",
    "--task reg --model mlp --lr 0.002 --lr-growth 2.5 --epochs 12 --tf-function", label="nan", stop=True)
run("sonnet_conv_adam_lr_growth_diverged", "sonnet_train.py",
    "--optimizer adam --lr 0.003 --lr-growth 2.5 --epochs 12 --tf-function", label="diverged", stop=True)
run("sonnet_mlp_sgd_lr_growth_notest_diverged", "sonnet_train.py",
    "--model mlp --lr 0.05 --lr-growth 3 --epochs 10 --no-test --tf-function", label="diverged", stop=True)

# --- tensorflow-probability (tfp.math.minimize / tfp.vi.fit_surrogate_posterior, tf.print from the trace_fn on
# stderr: "step 100 loss 12.3456")
run("tfp_gp_adam_200st_every10", "tfp_minimize.py", "--model gp --steps 200 --every 10")
run("tfp_vi_adam_300st_every20", "tfp_minimize.py", "--model vi --lr 0.05 --steps 300 --every 20")
run("tfp_linreg_adam_300st_every25", "tfp_minimize.py", "--model linreg --lr 0.1 --steps 300 --every 25")
run("tfp_logreg_sgd_100st_every5", "tfp_minimize.py", "--model logreg --optimizer sgd --lr 0.5 --steps 100 --every 5")
run("tfp_gp_rmsprop_60st_every1", "tfp_minimize.py", "--model gp --optimizer rmsprop --lr 0.01 --steps 60 --every 1")
run("tfp_gp_adam_lr_growth_nan", "tfp_minimize.py", "--model gp --lr 0.05 --growth 1.5 --steps 150 --every 10",
    label="nan", stop=True)
run("tfp_logreg_adam_lr_growth_diverged", "tfp_minimize.py",
    "--model logreg --lr 0.02 --growth 1.6 --steps 220 --every 10", label="diverged", stop=True)
run("tfp_vi_adam_lr_growth_diverged", "tfp_minimize.py", "--model vi --lr 0.05 --growth 1.4 --steps 200 --every 10",
    label="diverged", stop=True)

# --- autogluon (TabularPredictor with NN_TORCH only, verbosity 3-4, its logger on stdout: "Epoch 3 (Update 27).\t
# Train loss: 0.6465, Val accuracy: 0.82, Best Epoch: 3", and its own log file logs/predictor_log.txt, scored too)
run("autogluon_nn_binary_adam_tuning_20ep", "autogluon_nn.py", "--task binary --lr 1e-3 --epochs 20 --tuning")
run("autogluon_nn_multiclass_adam_holdout_25ep", "autogluon_nn.py",
    "--task multiclass --lr 3e-3 --epochs 25 --patience 100")
run("autogluon_nn_regression_adam_v3_30ep", "autogluon_nn.py",
    "--task regression --lr 3e-3 --epochs 30 --verbosity 3 --tuning")
run("autogluon_nn_binary_sgd_default_es_40ep", "autogluon_nn.py", "--task binary --optimizer sgd --lr 0.1 --epochs 40")
run("autogluon_nn_multiclass_sgd_2layers_v3_15ep", "autogluon_nn.py",
    "--task multiclass --optimizer sgd --lr 1.0 --layers 2 --hidden 64 --epochs 15 --tuning --verbosity 3")
run("autogluon_nn_binary_sgd_lr_high_nan", "autogluon_nn.py",
    "--task binary --optimizer sgd --lr 5 --epochs 15 --patience 100", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout13", "libho13", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
