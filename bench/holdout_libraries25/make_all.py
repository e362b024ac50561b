"""Make the 25th held-out library corpus (examples/libraries_holdout25): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout25/bin/python bench/holdout_libraries25/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- GPy (paramz's VerboseOptimization on stdout, redrawn with \r: "    00s12  0007   8.192257e+01   3.1e+02")
run("gpy_rbf_lbfgsb", "gpy_optimize.py", "")
run("gpy_matern52_scg_n150", "gpy_optimize.py", "--optimizer scg --kernel matern52 --n 150")
run("gpy_rbf_adam_0.05_400it", "gpy_optimize.py", "--optimizer adam --step-rate 0.05 --iters 400")
run("gpy_sparse20_rbf_linear_lbfgsb_n400", "gpy_optimize.py", "--kernel rbf+linear --sparse 20 --n 400")
run("gpy_matern52_rprop_200it", "gpy_optimize.py", "--optimizer rprop --kernel matern52 --iters 200")
run("gpy_rbf_adam_lr_high_diverged", "gpy_optimize.py", "--optimizer adam --step-rate 20 --iters 300",
    label="diverged", stop=True)
run("gpy_matern52_adam_lr_high_diverged", "gpy_optimize.py",
    "--optimizer adam --kernel matern52 --step-rate 100 --iters 300 --n 150", label="diverged", stop=True)
run("gpy_sparse20_rbf_linear_adam_lr_high_diverged", "gpy_optimize.py",
    "--optimizer adam --kernel rbf+linear --sparse 20 --n 200 --step-rate 50 --iters 300", label="diverged", stop=True)
run("gpy_rbf_linear_adam_lr_high_diverged", "gpy_optimize.py",
    "--optimizer adam --kernel rbf+linear --step-rate 30 --iters 250 --n 120", label="diverged", stop=True)

# --- pygmo (pagmo's table on stdout: "   Gen:        Fevals:          Best:   ..." / "      1   0   6977.84 ...")
run("pygmo_cmaes_rosenbrock_v3_60gen", "pygmo_evolve.py", "--verbosity 3")
run("pygmo_de_rosenbrock_v1_40gen", "pygmo_evolve.py", "--algorithm de --gen 40")
run("pygmo_sade_rastrigin_v5_150gen", "pygmo_evolve.py", "--algorithm sade --problem rastrigin --gen 150 --verbosity 5")
run("pygmo_pso_ackley_v2_60gen", "pygmo_evolve.py", "--algorithm pso --problem ackley --verbosity 2 --dim 4")
run("pygmo_xnes_rosenbrock_v2_80gen", "pygmo_evolve.py", "--algorithm xnes --gen 80 --verbosity 2 --sigma0 0.3")
run("pygmo_sga_rastrigin_v4_100gen", "pygmo_evolve.py", "--algorithm sga --problem rastrigin --gen 100 --verbosity 4")
run("pygmo_cmaes_sigma_high_unbounded_diverged", "pygmo_evolve.py", "--sigma0 50 --unbounded --gen 30 --verbosity 3",
    label="diverged", stop=True)

# --- inspyred (stats_observer on stdout, a block a generation: "Generation Evaluation      Worst       Best ..." /
# "---------- ..." / "         1         80 518059.206 2611.18251 ..." (str(float) cut to 10 characters), and its
# file_observer's own statistics file inspyred-statistics-file-<date>.csv, the truth's source)
run("inspyred_es_rosenbrock_30gen", "inspyred_evolve.py", "")
run("inspyred_ga_sphere_pop60_25gen", "inspyred_evolve.py", "--algorithm GA --problem Sphere --pop 60 --gen 25")
run("inspyred_dea_rastrigin_40gen", "inspyred_evolve.py", "--algorithm DEA --problem Rastrigin --gen 40")
run("inspyred_es_sphere_dim10_20gen", "inspyred_evolve.py", "--problem Sphere --dim 10 --gen 20 --pop 30")
run("inspyred_ga_rosenbrock_elites2_40gen", "inspyred_evolve.py", "--algorithm GA --elites 2 --gen 40")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout25", "libho25", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
