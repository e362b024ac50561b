"""Make the twenty-seventh held-out library corpus (examples/libraries_holdout27): real runs of training libraries
nobody on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout27/bin/python bench/holdout_libraries27/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- flowjax (fit_to_data / fit_to_key_based_loss: its tqdm bar on stderr, "\r 80%|...| 16/20 [00:04<00:00,
# 7.42it/s, train=2.14, val=2.05]", one postfix redraw an epoch or step)
run("flowjax_maf_data_adam_40ep", "flowjax_fit.py", "--epochs 40 --lr 1e-3 --patience 10")
run("flowjax_coupling_data_adam_b50_25ep", "flowjax_fit.py", "--flow coupling --epochs 25 --lr 5e-4 --batch 50")
run("flowjax_bnaf_data_rmsprop_val2_30ep", "flowjax_fit.py",
    "--flow bnaf --optimizer rmsprop --lr 1e-3 --epochs 30 --val-prop 0.2")
run("flowjax_maf_data_early_stop", "flowjax_fit.py", "--epochs 200 --lr 3e-3 --patience 2 --n 600")
run("flowjax_maf_elbo_adam_150st", "flowjax_fit.py", "--mode elbo --epochs 150 --lr 5e-3")
run("flowjax_coupling_elbo_sgd_120st", "flowjax_fit.py", "--mode elbo --flow coupling --optimizer sgd --lr 2e-3 "
    "--epochs 120")
run("flowjax_maf_elbo_default_lr_100st", "flowjax_fit.py", "--mode elbo --epochs 100 --scale 3")
run("flowjax_maf_elbo_lr_high_diverged", "flowjax_fit.py", "--mode elbo --epochs 150 --lr 0.5", label="diverged",
    stop=True)
run("flowjax_maf_elbo_lr_growth_diverged", "flowjax_fit.py", "--mode elbo --epochs 200 --lr 0.02 --lr-growth 1.04",
    label="diverged", stop=True)
run("flowjax_maf_elbo_sgd_lr_growth_nan", "flowjax_fit.py",
    "--mode elbo --epochs 250 --optimizer sgd --lr 0.001 --lr-growth 1.05", label="nan", stop=True)
run("flowjax_maf_data_sgd_lr_growth_inf", "flowjax_fit.py",
    "--epochs 30 --optimizer sgd --lr 0.001 --lr-growth 1.05 --patience 100", label="nan", stop=True)
run("flowjax_maf_data_adam_lr_growth_diverged", "flowjax_fit.py",
    "--epochs 30 --lr 0.001 --lr-growth 1.03 --patience 100", label="diverged", stop=True)

# --- optimistix (OptaxMinimiser(verbose=True), stepped interactively: jax.debug.print on stdout, one line a step,
# "Step: 2, Loss on this step: 18.62852668762207, y: [-1.1800321  1.019971 ]")
run("optimistix_rosenbrock_adam_300st", "optimistix_minimise.py", "--lr 0.05 --steps 300")
run("optimistix_rosenbrock_momentum_200st", "optimistix_minimise.py", "--optimizer momentum --lr 5e-4 --steps 200")
run("optimistix_curvefit_adam_200st", "optimistix_minimise.py", "--problem curvefit --lr 0.05 --steps 200")
run("optimistix_curvefit_sgd_150st", "optimistix_minimise.py", "--problem curvefit --optimizer sgd --lr 0.005 "
    "--steps 150")
run("optimistix_curvefit_rmsprop_tol_400st", "optimistix_minimise.py",
    "--problem curvefit --optimizer rmsprop --lr 0.01 --steps 400 --rtol 1e-4 --atol 1e-4")
run("optimistix_rosenbrock_sgd_lr_high_nan", "optimistix_minimise.py", "--optimizer sgd --lr 0.01 --steps 60",
    label="nan", stop=True)
run("optimistix_curvefit_sgd_lr_high_nan", "optimistix_minimise.py",
    "--problem curvefit --optimizer sgd --lr 0.1 --steps 60", label="nan", stop=True)
run("optimistix_curvefit_momentum_lr_high_diverged", "optimistix_minimise.py",
    "--problem curvefit --optimizer momentum --lr 0.05 --steps 80", label="diverged", stop=True)

# --- gpjax (gpx.fit's verbose tqdm bar on stderr, drawn every 10 iterations: "\rRunning:  40%|████      | 40/100
# [00:00<00:00, 310.2it/s, Value=45.98]")
run("gpjax_rbf_adam_100it", "gpjax_fit.py", "--iters 100")
run("gpjax_rbf_adam_lr1_100it", "gpjax_fit.py", "--iters 100 --lr 1.0")
run("gpjax_rbf_sgd_100it", "gpjax_fit.py", "--iters 100 --optimizer sgd --lr 0.02")
run("gpjax_matern_rmsprop_150it", "gpjax_fit.py", "--iters 150 --optimizer rmsprop --lr 0.5 --kernel matern52")
run("gpjax_matern_adam_95it", "gpjax_fit.py", "--iters 95 --lr 0.05 --kernel matern52")
run("gpjax_rbf_sgd_lr_high_diverged", "gpjax_fit.py", "--iters 100 --optimizer sgd --lr 0.1", label="diverged",
    stop=True)
run("gpjax_matern_sgd_lr_high_diverged", "gpjax_fit.py",
    "--iters 100 --optimizer sgd --lr 0.1 --kernel matern52 --noise 0.05", label="diverged", stop=True)
run("gpjax_rbf_sgd_lr_high_nan", "gpjax_fit.py", "--iters 100 --optimizer sgd --lr 0.5", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout27", "libho27", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
