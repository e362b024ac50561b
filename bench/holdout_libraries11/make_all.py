"""Make the eleventh held-out library corpus (examples/libraries_holdout11): real runs of training libraries nobody
on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout11/bin/python bench/holdout_libraries11/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- pygad (the user's on_generation callback as PyGAD's docs write it: "Generation = 5" / "Fitness    = -0.4" /
# "Loss (MSE) = 0.4", every --every generations)
run("pygad_linear_sss_40gen", "pygad_fit.py", "--generations 40")
run("pygad_linear_rws_every5_100gen", "pygad_fit.py",
    "--generations 100 --selection rws --every 5 --population 30 --mutation-percent 40")
run("pygad_mlp_tournament_every2_80gen", "pygad_fit.py",
    "--model mlp --generations 80 --selection tournament --crossover two_points --every 2 --population 40")
run("pygad_mlp_uniform_elit3_60gen", "pygad_fit.py",
    "--model mlp --generations 60 --crossover uniform --elitism 3 --every 3 --mutation-range 0.5")
run("pygad_poisson_sss_50gen", "pygad_fit.py", "--model poisson --generations 50 --mutation-range 0.3")
run("pygad_linear_mutation_huge_diverged", "pygad_fit.py",
    "--generations 30 --elitism 0 --keep-parents 0 --mutation-range 20 --mutation-percent 100 --every 3",
    label="diverged", stop=True)
run("pygad_linear_mutation_huge_rws_diverged", "pygad_fit.py",
    "--generations 40 --selection rws --elitism 0 --keep-parents 0 --mutation-range 50 --mutation-percent 60",
    label="diverged", stop=True)
run("pygad_mlp_mutation_huge_diverged", "pygad_fit.py",
    "--model mlp --generations 40 --elitism 0 --keep-parents 0 --mutation-range 10 --mutation-percent 50 --every 2",
    label="diverged", stop=True)
run("pygad_mlp_mutation_huge_tournament_diverged", "pygad_fit.py",
    "--model mlp --generations 30 --selection tournament --elitism 0 --keep-parents 0 --mutation-range 30 "
    "--mutation-percent 80", label="diverged", stop=True)

# --- FLAML (its logger on stderr, once an iteration: "[flaml.automl.logger: 12-06 04:46:15] {3006} INFO - iteration 2,
# current learner rf" / " at 0.1s,\testimator rf's best error=3.3361e-01,\tbest estimator rf's best error=3.3361e-01";
# its own search log flaml.log kept)
run("flaml_reg_rf_15it", "flaml_automl.py", "--learner rf --iters 15")
run("flaml_reg_lgbm_mse_holdout_20it", "flaml_automl.py",
    "--learner lgbm --metric mse --eval-method holdout --iters 20")
run("flaml_cls_lgbm_12it", "flaml_automl.py", "--task classification --learner lgbm --iters 12")
run("flaml_cls_xgboost_logloss_cv_15it", "flaml_automl.py",
    "--task classification --learner xgboost --metric log_loss --eval-method cv --iters 15")
run("flaml_reg_extra_tree_mae_25it", "flaml_automl.py", "--learner extra_tree --metric mae --iters 25 --n 400")

# --- hiddenlayer (its History over a plain PyTorch loop: history.log((epoch, batch_idx), loss=..., accuracy=...) then
# history.progress(): "Step (1, 40): loss: 0.2914818525314331  accuracy: 0.90625  ", every --every batches)
run("hiddenlayer_cls_sgd_val_every5_4ep", "hiddenlayer_train.py", "--lr 0.1 --epochs 4 --val")
run("hiddenlayer_cls_adam_every2_3ep", "hiddenlayer_train.py", "--optimizer adam --lr 0.003 --epochs 3 --every 2")
run("hiddenlayer_reg_momentum_intstep_6ep", "hiddenlayer_train.py",
    "--task reg --optimizer momentum --lr 0.005 --epochs 6 --every 10 --int-step")
run("hiddenlayer_reg_adam_decay_val_8ep", "hiddenlayer_train.py",
    "--task reg --optimizer adam --lr 0.01 --gamma 0.7 --epochs 8 --every 4 --batch 64 --val")
run("hiddenlayer_reg_sgd_lr_high_nan", "hiddenlayer_train.py", "--task reg --lr 0.2 --epochs 4 --every 2",
    label="nan", stop=True)
run("hiddenlayer_cls_sgd_lr_growth_diverged", "hiddenlayer_train.py",
    "--lr 0.05 --gamma 2.5 --epochs 8 --every 5 --int-step", label="diverged", stop=True)
run("hiddenlayer_reg_momentum_lr_growth_val_nan", "hiddenlayer_train.py",
    "--task reg --optimizer momentum --lr 0.002 --gamma 2 --epochs 8 --every 5 --val", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout11", "libho11", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
