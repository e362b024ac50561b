"""Make the 43rd held-out library corpus (examples/libraries_holdout43): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout43/bin/python bench/holdout_libraries43/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- MXNet Module API (its root logger on stderr: "INFO:root:Epoch[0] Batch [0-5]\tSpeed: 73270.95 samples/sec\t
# cross-entropy=1.052720", "INFO:root:Epoch[0] Train-cross-entropy=1.052720", "INFO:root:Epoch[0] Time cost=0.035")
run("mxnet_module_cls_sgd_speedo5_val_8ep", "mxnet_module.py", "--epochs 8 --frequent 5 --val")
run("mxnet_module_reg_sgd_10ep", "mxnet_module.py", "--task reg --lr 0.1 --epochs 10")
run("mxnet_module_cls_adam_speedo10_b16_12ep", "mxnet_module.py",
    "--optimizer adam --lr 0.01 --epochs 12 --frequent 10 --batch 16")
run("mxnet_module_reg_momentum_speedo4_val_8ep", "mxnet_module.py",
    "--task reg --lr 0.05 --momentum 0.9 --epochs 8 --val --frequent 4")
run("mxnet_module_reg_poly_lr_growth_nan", "mxnet_module.py",
    "--task reg --lr 0.05 --final-lr 3 --epochs 12 --frequent 5", label="nan", stop=True)
run("mxnet_module_cls_poly_lr_growth_nan", "mxnet_module.py", "--lr 0.1 --final-lr 40 --epochs 12", label="nan",
    stop=True)
run("mxnet_module_cls_poly_lr_growth_diverged", "mxnet_module.py", "--lr 0.1 --final-lr 12 --epochs 12 --frequent 10",
    label="diverged", stop=True)

# --- MXNet Gluon Estimator (LoggingHandler on stdout: "[Epoch 0][Batch 5][Samples 192] time/interval: 0.006s
# training accuracy: 0.5990, training loss: 0.6732, validation accuracy: nan, validation loss: nan")
run("mxnet_gluon_cls_sgd_log5_val_4ep", "mxnet_estimator.py", "--epochs 4 --val --lr 0.3")
run("mxnet_gluon_reg_adam_epoch_8ep", "mxnet_estimator.py",
    "--task reg --log-interval epoch --epochs 8 --optimizer adam --lr 0.01")
run("mxnet_gluon_cls_adam_log10_b16_6ep", "mxnet_estimator.py",
    "--optimizer adam --lr 0.01 --log-interval 10 --epochs 6 --batch 16")
run("mxnet_gluon_reg_sgd_log4_val_b64_5ep", "mxnet_estimator.py",
    "--task reg --lr 0.05 --log-interval 4 --epochs 5 --val --batch 64")
run("mxnet_gluon_cls_sgd_lr_growth_nan", "mxnet_estimator.py", "--lr 0.1 --growth 3 --epochs 8 --log-interval 10",
    label="nan", stop=True)
run("mxnet_gluon_reg_sgd_lr_high_nan", "mxnet_estimator.py", "--task reg --lr 2 --epochs 5", label="nan", stop=True)

# --- POT (its solvers' verbose tables on stdout: "It.  |Loss        |Relative loss|Absolute loss" /
# "    3|2.644455e-02|4.863383e-02|1.286100e-03"; Sinkhorn's "It.  |Err" / "   40|1.420461e-02|")
run("pot_gw_square_30x40", "pot_solve.py", "--solver gw")
run("pot_gw_kl_40x50", "pot_solve.py", "--solver gw --loss-fun kl_loss --ns 40 --nt 50")
run("pot_fgw_alpha03", "pot_solve.py", "--solver fgw --alpha 0.3")
run("pot_cg_l2_reg05_40it", "pot_solve.py", "--solver cg --reg 0.5 --iters 40")
run("pot_cg_kl_reg002_30it", "pot_solve.py", "--solver cg --regularizer kl --reg 0.02 --iters 30")
run("pot_sinkhorn_reg005_400it", "pot_solve.py", "--solver sinkhorn --reg 0.05 --iters 400 --stop 1e-6")

# --- Apache Spark MLlib via pyspark (log4j on stderr, its optimizer's loggers at INFO:
# "26/12/06 18:48:53 INFO LBFGS: Val and Grad Norm: 0.315861 (rel: 0.242) 0.0807555"; gradient descent:
# "INFO GradientDescent: GradientDescent.runMiniBatchSGD finished. Last 10 stochastic losses 0.77, ...")
run("spark_logreg_lbfgs_20it", "spark_ml.py", "--model logreg --iters 20")
run("spark_logreg_elasticnet_owlqn_30it", "spark_ml.py", "--model logreg --reg 0.05 --elastic 0.5 --iters 30")
run("spark_linreg_lbfgs_25it", "spark_ml.py", "--model linreg --iters 25")
run("spark_mlp_lbfgs_40it", "spark_ml.py", "--model mlp --iters 40")
run("spark_mlp_gd_step5_30it", "spark_ml.py", "--model mlp --solver gd --step 5 --iters 30")
run("spark_mlp_gd_step_high_diverged", "spark_ml.py", "--model mlp --solver gd --step 100 --iters 30",
    label="diverged", stop=True)
run("spark_mlp_gd_step_high_nan", "spark_ml.py", "--model mlp --solver gd --step 1000 --iters 30", label="nan",
    stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout43", "libho43", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
