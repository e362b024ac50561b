"""Make the nineteenth held-out library corpus (examples/libraries_holdout19): real runs of training libraries nobody
on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout19/bin/python bench/holdout_libraries19/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- optuna (its logger on stderr, a line a trial: "[I 2026-12-06 08:03:18,179] Trial 0 finished with value:
# 4.492967751400874 and parameters: {'lr': 0.0123}. Best is trial 0 with value: 4.492967751400874.")
run("optuna_tpe_reg_25t_30ep", "optuna_study.py", "--trials 25 --lr-high 0.05 --epochs 30")
run("optuna_tpe_reg_40t_60ep", "optuna_study.py", "--trials 40 --lr-high 0.05 --epochs 60")
run("optuna_sweep_cls_8t_20ep", "optuna_study.py", "--task cls --trials 8 --sweep 0.005,0.01,0.02,0.05,0.1,0.2,0.3,0.5 "
    "--lr-high 2 --epochs 20")
run("optuna_tpe_momentum_progress_25t", "optuna_study.py",
    "--momentum --trials 25 --lr-high 0.02 --epochs 20 --progress")
run("optuna_sweep_reg_8t_20ep", "optuna_study.py",
    "--trials 8 --sweep 0.001,0.002,0.005,0.01,0.02,0.03,0.04,0.05 --epochs 20")
run("optuna_sweep_reg_lr_high_diverged", "optuna_study.py",
    "--trials 12 --sweep 0.001,0.003,0.01,0.02,0.03,0.045,0.06,0.07,0.08,0.1,0.15,0.2 --epochs 10",
    label="diverged", stop=True)
run("optuna_sweep_reg_lr_high_nan", "optuna_study.py",
    "--trials 10 --sweep 0.01,0.03,0.1,0.3,1,3,10,30,100,300 --epochs 80 --lr-high 1000", label="nan", stop=True)
run("optuna_tpe_cls_lr_high_nan", "optuna_study.py", "--task cls --trials 20 --lr-low 1 --lr-high 1000 --epochs 30",
    label="nan", stop=True)

# --- nevergrad (minimize(..., verbosity=2) on stdout: "Updating fitness with value 3.6717774642018544" / "4 remaining
# budget and 0 running jobs", and its ParametersLogger file parameters_log.json, the truth's source)
run("nevergrad_oneplusone_reg_60ev", "nevergrad_fit.py", "--budget 60")
run("nevergrad_twopointsde_reg_60ev", "nevergrad_fit.py", "--optimizer TwoPointsDE --budget 60")
run("nevergrad_cma_reg_60ev", "nevergrad_fit.py", "--optimizer CMA --budget 60")
run("nevergrad_oneplusone_cls_sigma03_40ev", "nevergrad_fit.py", "--task cls --sigma 0.3 --budget 40")
run("nevergrad_ngopt_reg_sigma05_50ev", "nevergrad_fit.py", "--optimizer NGOpt --budget 50 --sigma 0.5")
run("nevergrad_oneplusone_cls_sigma3_nan", "nevergrad_fit.py", "--task cls --sigma 3 --budget 40", label="nan",
    stop=True)
run("nevergrad_oneplusone_cls_sigma8_nan", "nevergrad_fit.py", "--task cls --sigma 8 --budget 40", label="nan",
    stop=True)

# --- mealpy (its logger, a line an epoch: "2026/12/06 08:06:33 AM, INFO, mealpy.swarm_based.PSO.OriginalPSO:
# >>>Problem: P, Epoch: 1, Current best: 44.622697560734295, Global best: 44.622697560734295, Runtime: 0.00092 seconds")
run("mealpy_pso_reg_20ep", "mealpy_fit.py", "--optimizer pso --epochs 20")
run("mealpy_de_reg_30ep", "mealpy_fit.py", "--optimizer de --epochs 30")
run("mealpy_ga_reg_pop40_25ep", "mealpy_fit.py", "--optimizer ga --epochs 25 --pop 40")
run("mealpy_woa_cls_20ep", "mealpy_fit.py", "--optimizer woa --task cls --epochs 20")
run("mealpy_gwo_reg_bound5_20ep", "mealpy_fit.py", "--optimizer gwo --epochs 20 --bound 5")
run("mealpy_ga_cls_naive_diverged", "mealpy_fit.py", "--optimizer ga --task cls-naive --epochs 20 --bound 10",
    label="diverged", stop=True)
run("mealpy_de_cls_naive_bound14_nan", "mealpy_fit.py", "--optimizer de --task cls-naive --epochs 20 --bound 14",
    label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout19", "libho19", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
