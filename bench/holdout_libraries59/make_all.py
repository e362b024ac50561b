"""Make the 59th held-out library corpus (examples/libraries_holdout59): real runs of libraries nobody on the project
had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout59/bin/python bench/holdout_libraries59/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- openbox (`Optimizer(...).run()` tuning a numpy network's learning rate: its colour logger on stderr, `[time]
# [tune_mlp_lr][INFO][generic_smbo.py:395] Iter 5, objectives: [0.0136...], resource_ratio: 1.000` under a tqdm bar,
# then the printed History's table; its own log file kept as openbox.log)
run("openbox_gp_lr_16", "openbox_tune.py", "--runs 16 --lr-max 0.3 --seed 11")
run("openbox_gp_lr_wd_20", "openbox_tune.py", "--runs 20 --wd --lr-max 0.3 --seed 11")
run("openbox_prf_lr_18", "openbox_tune.py", "--runs 18 --surrogate prf --lr-max 0.3 --seed 11")
run("openbox_random_lr_14", "openbox_tune.py", "--runs 14 --strategy random --seed 4")
run("openbox_sobol_init5_lr_16", "openbox_tune.py", "--runs 16 --init sobol --initial-runs 5 --seed 5")
run("openbox_gp_sweep_then_bo_14", "openbox_tune.py", "--runs 14 --sweep 0.0001,0.001,0.01 --seed 6")
run("openbox_gp_lr_range_high_diverged", "openbox_tune.py", "--runs 14 --lr-max 100 --seed 7",
    label="diverged", stop=True)
run("openbox_sweep_climb_diverged", "openbox_tune.py",
    "--runs 12 --lr-max 100 --sweep 0.001,0.003,0.01,0.03,0.1,0.3,1,3,10,30,60,100 --seed 8", label="diverged",
    stop=True)
run("openbox_prf_lr_range_high_diverged", "openbox_tune.py", "--runs 14 --surrogate prf --lr-max 100 --seed 10",
    label="diverged", stop=True)
run("openbox_sobol_wd_lr_high_diverged", "openbox_tune.py",
    "--runs 14 --wd --init sobol --initial-runs 5 --lr-max 30 --seed 12", label="diverged", stop=True)
run("openbox_random_wide_diverged", "openbox_tune.py", "--runs 12 --strategy random --lr-max 50 --seed 9",
    label="diverged", stop=True)

# --- DFO-LS (`dfols.solve` fitting a small model by least squares; logging at INFO: `Function eval 7 at point 7 has
# obj = 0.229183240910502 at x = [...]`, `New rho = ...`, then the printed solution)
run("dfols_exp2_80", "dfols_fit.py", "")
run("dfols_exp2_bounds_rhobeg_60", "dfols_fit.py", "--bounds --rhobeg 0.5 --maxfun 60")
run("dfols_exp2_npt11_restarts_120", "dfols_fit.py", "--npt 11 --restarts --maxfun 120")
run("dfols_net_120", "dfols_fit.py", "--model net --maxfun 120")
run("dfols_net_bounds_noisy_150", "dfols_fit.py", "--model net --bounds --noise 0.1 --maxfun 150")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout59", "libho59", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
