"""Make the 97th held-out library corpus (examples/libraries_holdout97): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout97/bin/python bench/holdout_libraries97/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- jenn (`NeuralNet.fit(..., is_verbose=True)`: one stdout line per ADAM iteration, `epoch = 0, batch = 0, iter =
# 7, cost = 1.258948`, `iter` restarting at 0 each batch; `Absolute/Relative stopping criterion satisfied`)
run("jenn_sinusoid_tanh_40it", "jenn_fit.py", "--alpha 0.05 --iters 40")
run("jenn_sinusoid_relu_nograd_60it", "jenn_fit.py", "--act relu --alpha 0.1 --gamma 0 --iters 60")
run("jenn_rosenbrock_relu_norm_50it", "jenn_fit.py", "--func rosenbrock --act relu --alpha 0.3 --normalize --iters 50")
run("jenn_rosenbrock_tanh_backtrack_30it", "jenn_fit.py",
    "--func rosenbrock --alpha 0.3 --normalize --backtracking --iters 30")
run("jenn_sinusoid_minibatch_3ep", "jenn_fit.py", "--alpha 0.05 --epochs 3 --batch 7 --iters 6")
run("jenn_sinusoid_l2_wide_30it", "jenn_fit.py", "--alpha 0.03 --lambd 0.1 --hidden 24 --iters 30")
run("jenn_sinusoid_tanh_lr_high_diverged", "jenn_fit.py", "--alpha 1 --normalize --iters 40", label="diverged",
    stop=True)
run("jenn_rosenbrock_tanh_lr_high_diverged", "jenn_fit.py", "--func rosenbrock --alpha 10 --normalize --iters 40",
    label="diverged", stop=True)

# --- sigpy (an `App` with `save_objective_values=True` and its tqdm bar on stderr, redrawn after `\r` each iteration:
# `LinearLeastSquares:  35%|###5      | 14/40 [00:00<00:00, 812.41it/s, obj=1.23E+02]`; a `MaxEig` bar first when
# the step size comes from the power method)
run("sigpy_lls_cg_30it", "sigpy_recon.py", "--problem lls --iters 30")
run("sigpy_lls_gd_nesterov_40it", "sigpy_recon.py", "--problem lls --solver GradientMethod --iters 40")
run("sigpy_lls_gd_plain_ridge_50it", "sigpy_recon.py",
    "--problem lls --solver GradientMethod --no-accelerate --lamda 0.05 --iters 50")
run("sigpy_lls_admm_20it", "sigpy_recon.py", "--problem lls --solver ADMM --lamda 0.01 --iters 20")
run("sigpy_mri_l1wavelet_gd_25it", "sigpy_recon.py", "--problem l1wavelet --solver GradientMethod --iters 25")
run("sigpy_mri_tv_pdhg_30it", "sigpy_recon.py", "--problem tv --solver PrimalDualHybridGradient --iters 30")
run("sigpy_lls_gd_step_high_diverged", "sigpy_recon.py",
    "--problem lls --solver GradientMethod --alpha 0.8 --no-accelerate --iters 40", label="diverged", stop=True)
run("sigpy_lls_gd_step_far_high_nan", "sigpy_recon.py",
    "--problem lls --solver GradientMethod --alpha 40 --no-accelerate --iters 150", label="nan", stop=True)
run("sigpy_mri_l1wavelet_step_high_diverged", "sigpy_recon.py",
    "--problem l1wavelet --solver GradientMethod --alpha 3 --no-accelerate --iters 30", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout97", "libho97", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
