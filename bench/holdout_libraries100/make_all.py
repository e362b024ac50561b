"""Make the 100th held-out library corpus (examples/libraries_holdout100): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout100/bin/python bench/holdout_libraries100/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- itk-elastix (`itk.elastix_registration_method(..., log_to_console=True)`: elastix's console log, its parameter
# warnings and per resolution its iteration table `0\t161.159320\t0.000000\t0.014277\t34.484445\t22.9`, the metric
# `%.6f`; truth from its own `IterationInfo.0.R<r>.txt` files)
run("elastix_translation_ms_asgd_60it", "elastix_register.py", "--iters 60")
run("elastix_rigid_ncc_asgd_2res", "elastix_register.py",
    "--transform rigid --metric AdvancedNormalizedCorrelation --res 2 --moved turn")
run("elastix_affine_mi_asgd_2res_80it", "elastix_register.py",
    "--transform affine --metric AdvancedMattesMutualInformation --res 2 --moved scale --iters 80")
run("elastix_bspline_ms_asgd_2res", "elastix_register.py", "--transform bspline --moved warp --res 2")
run("elastix_translation_ms_regularstep", "elastix_register.py",
    "--optimizer RegularStepGradientDescent --iters 60")
run("elastix_affine_ms_lbfgs_full", "elastix_register.py",
    "--transform affine --optimizer QuasiNewtonLBFGS --iters 40 --moved scale --sampler Full")
run("elastix_affine_ms_sgd_3res", "elastix_register.py",
    "--transform affine --optimizer StandardGradientDescent --sp-a 1 --iters 50 --moved scale --res 3")
run("elastix_translation_sgd_step_high_diverged", "elastix_register.py",
    "--optimizer StandardGradientDescent --sp-a 5 --iters 60", label="diverged", stop=True)
run("elastix_translation_sgd_step_far_high_error", "elastix_register.py",
    "--optimizer StandardGradientDescent --sp-a 10 --iters 60", label="diverged", stop=True)
run("elastix_affine_sgd_step_high_diverged", "elastix_register.py",
    "--transform affine --optimizer StandardGradientDescent --sp-a 4 --iters 60 --moved scale", label="diverged",
    stop=True)

# --- pyttb (`pyttb.gcp_opt` with its stochastic solvers, reporting through `logging` at INFO: `Initial f-est:
# 4.226920e+02`, `Epoch 0: f-est = 26.189627291812766, step = 0.01`, `, nfails = 1 (resetting ...)`; truth from the
# returned `info['f_est_trace']`)
run("pyttb_gauss_adam_dense", "pyttb_gcp.py", "--rate 0.01 --epoch-iters 50 --max-iters 30")
run("pyttb_poisson_adam_sparse", "pyttb_gcp.py",
    "--objective poisson --rate 0.01 --epoch-iters 50 --max-iters 30 --sparse")
run("pyttb_bernoulli_adagrad_timefmt", "pyttb_gcp.py",
    "--objective bernoulli_odds --optimizer adagrad --rate 0.01 --epoch-iters 40 --max-iters 25 --max-fails 3 "
    "--log-format time")
run("pyttb_gamma_adam_rank4", "pyttb_gcp.py",
    "--objective gamma --rate 0.003 --epoch-iters 40 --max-iters 25 --shape 25,20,8 --rank 4")
run("pyttb_gauss_sgd_small_rate", "pyttb_gcp.py",
    "--optimizer sgd --rate 0.001 --epoch-iters 10 --max-iters 30 --decay 0.5 --max-fails 5")
run("pyttb_gauss_sgd_warm_als", "pyttb_gcp.py",
    "--warm-start --optimizer sgd --rate 0.0005 --epoch-iters 10 --max-iters 20 --max-fails 3 --log-format time")
run("pyttb_gauss_sgd_warm_rate_high_diverged", "pyttb_gcp.py",
    "--warm-start --optimizer sgd --rate 0.01 --epoch-iters 3 --max-iters 30 --decay 1 --max-fails 40",
    label="diverged", stop=True)
run("pyttb_poisson_sgd_warm_rate_high_diverged", "pyttb_gcp.py",
    "--warm-start --objective poisson --optimizer sgd --rate 0.02 --epoch-iters 3 --max-iters 24 --decay 1 "
    "--max-fails 40 --log-format time", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout100", "libho100", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
