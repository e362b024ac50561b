"""Make the 94th held-out library corpus (examples/libraries_holdout94): real runs of optimisation / inference
libraries nobody on the project had used (pybads, pyvbmc), each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout94/bin/python bench/holdout_libraries94/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- pybads (`BADS(...).optimize()` with `display: iter`: `Beginning optimization of a DETERMINISTIC objective
# function`, then a table ` Iteration    f-count         f(x)           MeshScale          Method             Actions`
# with rows `     9         115        0.107161     0.000488281         Refine grid             ` (`{:12.6g}`), several
# rows an iteration)
run("bads_oscillator_lsq", "bads_fit.py", "--fun oscillator")
run("bads_rosenbrock_3d", "bads_fit.py", "--fun rosenbrock --dim 3")
run("bads_ackley_3d", "bads_fit.py", "--fun ackley --dim 3")
run("bads_rosenbrock_5d_maxiter12", "bads_fit.py", "--fun rosenbrock --dim 5 --max-iter 12")
run("bads_oscillator_maxfev60", "bads_fit.py", "--fun oscillator --seed 1 --max-fun-evals 60")
run("bads_ackley_2d_seed1", "bads_fit.py", "--fun ackley --dim 2 --seed 1")
run("bads_rosenbrock_2d_seed2", "bads_fit.py", "--fun rosenbrock --dim 2 --seed 2")
run("bads_ackley_4d_maxiter10", "bads_fit.py", "--fun ackley --dim 4 --max-iter 10")

# --- pyvbmc (`VBMC(...).optimize()` with `display: iter`: ` Iteration  f-count    Mean[ELBO]    Std[ELBO]
# sKL-iter[q]   K[q]  Convergence  Action` then rows `     3         25         -19.04         0.00         0.00
# 2       0.13     ` (`%.2f`), a final `inf` row `finalize`, `Estimated ELBO: -19.069 +/-0.001.`)
run("vbmc_linreg_2d", "vbmc_fit.py", "--model linreg --dim 2")
run("vbmc_linreg_1d_seed3", "vbmc_fit.py", "--model linreg --dim 1 --seed 3")
run("vbmc_improper_linear_diverged", "vbmc_fit.py", "--model improper_linear --dim 2", label="diverged",
    stop=True)
run("vbmc_improper_linear_60evals_diverged", "vbmc_fit.py",
    "--model improper_linear --dim 2 --seed 3 --max-fun-evals 60", label="diverged", stop=True)
run("vbmc_improper_linear_3d_diverged", "vbmc_fit.py", "--model improper_linear --dim 3 --seed 1",
    label="diverged", stop=True)
run("vbmc_improper_linear_1d_diverged", "vbmc_fit.py", "--model improper_linear --dim 1 --seed 2",
    label="diverged", stop=True)
run("vbmc_improper_linear_bounded_diverged", "vbmc_fit.py", "--model improper_linear --dim 2 --bounded",
    label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout94", "libho94", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
