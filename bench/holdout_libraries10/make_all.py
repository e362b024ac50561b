"""Make the tenth held-out library corpus (examples/libraries_holdout10): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout10/bin/python bench/holdout_libraries10/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- pymoo (minimize(..., verbose=True): its display table on stdout,
# "     3 |       60 |  5.388180E+01 |  3.357846E+01 |  3.357846E+01")
run("pymoo_ga_rastrigin_30gen", "pymoo_minimize.py", "--algorithm ga --problem rastrigin --gens 30")
run("pymoo_de_ackley_40gen", "pymoo_minimize.py", "--algorithm de --problem ackley --n-var 4 --pop 30 --gens 40")
run("pymoo_pso_rastrigin_25gen", "pymoo_minimize.py", "--algorithm pso --problem rastrigin --gens 25")
run("pymoo_nelder_mead_rosenbrock_60gen", "pymoo_minimize.py",
    "--algorithm nelder-mead --problem rosenbrock --n-var 3 --gens 60")
run("pymoo_pattern_sphere_20gen", "pymoo_minimize.py", "--algorithm pattern --problem sphere --n-var 6 --gens 20")
run("pymoo_ga_griewank_pop50_15gen", "pymoo_minimize.py",
    "--algorithm ga --problem griewank --n-var 8 --pop 50 --gens 15")

# --- scikit-optimize (verbose=True: "Iteration No: 7 ended. ..." / "Function value obtained: 0.6685" /
# "Current minimum: 0.4209" on stdout)
run("skopt_gp_branin_15calls", "skopt_minimize.py", "--minimizer gp --objective branin --calls 15")
run("skopt_gp_ei_bowl_12calls", "skopt_minimize.py", "--minimizer gp --objective bowl --calls 12 --acq EI --initial 4")
run("skopt_forest_sgd_20calls", "skopt_minimize.py", "--minimizer forest --objective sgd --calls 20")
run("skopt_forest_lcb_branin_25calls", "skopt_minimize.py",
    "--minimizer forest --objective branin --calls 25 --acq LCB --initial 8")
run("skopt_gp_pi_sgd_14calls", "skopt_minimize.py", "--minimizer gp --objective sgd --calls 14 --acq PI")

# --- hyperopt (fmin's tqdm bar on stderr: "\r 30%|███       | 6/20 [00:01<00:03,  3.51trial/s, best loss: 0.0411...]")
run("hyperopt_tpe_mlp_20evals", "hyperopt_fmin.py", "--algo tpe --model mlp --evals 20")
run("hyperopt_rand_mlp_15evals", "hyperopt_fmin.py", "--algo rand --model mlp --evals 15")
run("hyperopt_anneal_gbr_15evals", "hyperopt_fmin.py", "--algo anneal --model gbr --evals 15")
run("hyperopt_tpe_gbr_25evals", "hyperopt_fmin.py", "--algo tpe --model gbr --evals 25")
run("hyperopt_rand_gbr_12evals", "hyperopt_fmin.py", "--algo rand --model gbr --evals 12")

# --- torchkge (its README's loop: tqdm on stderr, "\rEpoch 11 | mean loss: 103.72649:  30%|███       | 9/30 [...]")
run("torchkge_transe_adam_30ep", "torchkge_train.py", "--model transe --lr 0.01 --epochs 30")
run("torchkge_distmult_bce_adam_25ep", "torchkge_train.py", "--model distmult --loss bce --lr 0.01 --epochs 25")
run("torchkge_transh_sgd_uniform_40ep", "torchkge_train.py",
    "--model transh --optimizer sgd --lr 0.05 --sampler uniform --epochs 40")
run("torchkge_complex_adagrad_b64_20ep", "torchkge_train.py",
    "--model complex --optimizer adagrad --lr 0.05 --batch 64 --epochs 20")
run("torchkge_transe_decay_50ep", "torchkge_train.py", "--model transe --lr 0.02 --gamma 0.95 --epochs 50 --dim 16")
run("torchkge_transe_sgd_lr_high_diverged", "torchkge_train.py", "--model transe --optimizer sgd --lr 5 --epochs 15",
    label="diverged", stop=True)
run("torchkge_transe_adam_lr_growth_diverged", "torchkge_train.py",
    "--model transe --lr 0.01 --gamma 1.8 --epochs 15", label="diverged", stop=True)
run("torchkge_distmult_bce_adam_lr_growth_diverged", "torchkge_train.py",
    "--model distmult --loss bce --lr 0.5 --gamma 2 --epochs 15", label="diverged", stop=True)
run("torchkge_distmult_bce_sgd_lr_high_diverged", "torchkge_train.py",
    "--model distmult --loss bce --optimizer sgd --lr 50 --epochs 15", label="diverged", stop=True)
run("torchkge_transh_sgd_lr_growth_diverged", "torchkge_train.py",
    "--model transh --optimizer sgd --lr 1 --gamma 2 --epochs 15", label="diverged", stop=True)
run("torchkge_distmult_margin_sgd_lr_growth_diverged", "torchkge_train.py",
    "--model distmult --optimizer sgd --lr 0.3 --gamma 3 --epochs 20", label="diverged", stop=True)
run("torchkge_complex_sgd_lr_growth_nan", "torchkge_train.py",
    "--model complex --optimizer sgd --lr 0.1 --gamma 3 --epochs 15", label="nan", stop=True)
run("torchkge_complex_sgd_lr_high_nan", "torchkge_train.py", "--model complex --optimizer sgd --lr 1 --epochs 12",
    label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout10", "libho10", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
