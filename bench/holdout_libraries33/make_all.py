"""Make the thirty-third held-out library corpus (examples/libraries_holdout33): real runs of iterative solvers of
libraries nobody on the project had used (pylops, pyproximal, ModOpt), each made and checked as
bench/blind_maker.py says.

    ~/venvs/holdout33/bin/python bench/holdout_libraries33/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- pylops (its solvers' show=True table on stdout: "   Itn          x[0]              r2norm     r12norm"
run("pylops_ista_eps01_100it", "pylops_solve.py", "--solver ista --niter 100")
run("pylops_ista_eps1_show5_150it", "pylops_solve.py", "--solver ista --eps 1 --niter 150 --itershow 5,5,5")
run("pylops_fista_eps05_80it", "pylops_solve.py", "--solver fista --eps 0.5 --niter 80")
run("pylops_cgls_30it", "pylops_solve.py", "--solver cgls --niter 30")
run("pylops_cgls_damp1_60it_show20", "pylops_solve.py", "--solver cgls --niter 60 --damp 1.0 --itershow 5,5,20")
run("pylops_ista_alpha_high_diverged", "pylops_solve.py", "--solver ista --alpha-scale 2.5 --niter 200",
    label="diverged", stop=True)
run("pylops_fista_alpha_high_diverged", "pylops_solve.py", "--solver fista --alpha-scale 10 --niter 400",
    label="diverged", stop=True)
run("pylops_ista_alpha_high_nan", "pylops_solve.py", "--solver ista --alpha-scale 30 --niter 600 --itershow 10,10,1",
    label="nan", stop=True)

# --- pyproximal (ProximalGradient's show=True table on stdout: "    Itn           x[0]              f           g
# J=f+eps*g     tau")
run("pyprox_l1_100it", "pyproximal_solve.py", "--niter 100")
run("pyprox_l1_fista_60it_show5", "pyproximal_solve.py", "--accel fista --niter 60 --itershow 5,5,5")
run("pyprox_l2_vandenberghe_50it", "pyproximal_solve.py", "--accel vandenberghe --reg l2 --niter 50")
run("pyprox_l1_eps2_200it_show20", "pyproximal_solve.py", "--eps 2 --niter 200 --itershow 10,10,20")
run("pyprox_tau_high_diverged", "pyproximal_solve.py", "--tau-scale 2.5 --niter 200", label="diverged", stop=True)
run("pyprox_fista_tau_high_diverged", "pyproximal_solve.py", "--accel fista --tau-scale 3 --niter 150",
    label="diverged", stop=True)
run("pyprox_tau_high_nan", "pyproximal_solve.py", "--tau-scale 40 --niter 600 --itershow 10,10,1", label="nan",
    stop=True)


# --- ModOpt (its cost object's verbose lines on stdout: " - ITERATION: 3" / " - DATA FIDELITY (X): ..." /
# " - L1 NORM (X): ..." / " - COST: 70.95279590888444", its tqdm progress bar on stderr)
run("modopt_fb_60it", "modopt_solve.py", "--max-iter 60")
run("modopt_fista_interval5_100it", "modopt_solve.py", "--algo fista --cost-interval 5 --max-iter 100")
run("modopt_pogm_60it", "modopt_solve.py", "--algo pogm --max-iter 60")
run("modopt_fb_w2_interval2_80it", "modopt_solve.py", "--weight 2 --cost-interval 2 --max-iter 80 --test-range 6")
run("modopt_fb_beta_high_diverged", "modopt_solve.py", "--beta-scale 2.5 --max-iter 80", label="diverged", stop=True)
run("modopt_fista_beta_high_diverged", "modopt_solve.py", "--algo fista --beta-scale 3 --max-iter 60",
    label="diverged", stop=True)
run("modopt_fb_beta_high_nan", "modopt_solve.py", "--beta-scale 40 --max-iter 400 --cost-interval 2", label="nan",
    stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout33", "libho33", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
