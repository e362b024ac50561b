"""Make the 22nd held-out library corpus (examples/libraries_holdout22): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout22/bin/python bench/holdout_libraries22/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- skglm (its solvers' verbose lines on stdout: "Iteration 12: 0.7266246204, stopping crit: 4.27e-04")
run("skglm_fista_lasso_30it", "skglm_solve.py", "--iters 30")
run("skglm_fista_huber_mcp_40it", "skglm_solve.py", "--datafit huber --penalty mcp --iters 40")
run("skglm_fista_logistic_l1_60it", "skglm_solve.py", "--datafit logistic --alpha 0.01 --iters 60 --tol 1e-6")
run("skglm_fista_enet_200feat_25it", "skglm_solve.py", "--penalty l1_plus_l2 --features 200 --n 150 --iters 25")
run("skglm_lbfgs_logistic_l2_40it", "skglm_solve.py",
    "--solver lbfgs --datafit logistic --penalty l2 --alpha 0.01 --iters 40 --tol 1e-8")
run("skglm_lbfgs_quadratic_l2_20it", "skglm_solve.py", "--solver lbfgs --penalty l2 --alpha 0.1 --iters 20 --tol 1e-10")

# --- mittens (GloVe / Mittens progress on stderr, "\rIteration 10: error 1234.5678" every display_progress iterations)
run("mittens_glove_100it", "mittens_fit.py", "--iters 100")
run("mittens_glove_lr1_d5_60it", "mittens_fit.py", "--lr 1 --display 5 --iters 60")
run("mittens_retrofit_d2_50it", "mittens_fit.py", "--model mittens --lr 0.1 --display 2 --iters 50")
run("mittens_glove_lr30_60it_diverged", "mittens_fit.py", "--lr 30 --display 1 --iters 60", label="diverged",
    stop=True)
run("mittens_glove_lr15_40it_diverged", "mittens_fit.py", "--lr 15 --display 1 --iters 40", label="diverged",
    stop=True)
run("mittens_glove_lr500_dim20_50it_diverged", "mittens_fit.py", "--lr 500 --dim 20 --display 1 --iters 50",
    label="diverged", stop=True)
run("mittens_retrofit_lr30_40it_diverged", "mittens_fit.py", "--model mittens --lr 30 --display 1 --iters 40",
    label="diverged", stop=True)
run("mittens_retrofit_lr1e3_100words_30it_diverged", "mittens_fit.py",
    "--model mittens --lr 1000 --words 100 --display 1 --iters 30", label="diverged", stop=True)

# --- CEBRA (a tqdm bar on stderr whose description is the step's losses: "pos: -0.4140 neg:  5.8122 total:  5.3982
# temperature:  1.0000:   6%|...| 13/200 [...]", redrawn at every step)
run("cebra_offset10_time_200it", "cebra_fit.py", "--iters 200")
run("cebra_offset5_time_delta_b512_300it", "cebra_fit.py",
    "--arch offset5-model --conditional time_delta --batch 512 --iters 300")
run("cebra_offset1_euclidean_lr1e-3_150it", "cebra_fit.py",
    "--arch offset1-model --distance euclidean --lr 1e-3 --iters 150")
run("cebra_offset10_time_delta_dim8_250it", "cebra_fit.py", "--conditional time_delta --dim 8 --iters 250")
run("cebra_offset36_lr3e-3_b128_120it", "cebra_fit.py", "--arch offset36-model --lr 3e-3 --batch 128 --iters 120")

# --- pymanopt (its optimizers' table on stdout: "Iteration    Cost                       Gradient norm", rows
# " 12           +5.2638477877442220e+01    1.11739941e+00")
run("pymanopt_pca_cg_30it", "pymanopt_fit.py", "--iters 30")
run("pymanopt_pca_sd_50it", "pymanopt_fit.py", "--optimizer sd --iters 50")
run("pymanopt_grassmann_cg_rank5_40it", "pymanopt_fit.py", "--task pca_grassmann --rank 5 --iters 40")
run("pymanopt_procrustes_sd_40it", "pymanopt_fit.py", "--task procrustes --optimizer sd --dim 10 --iters 40")
run("pymanopt_procrustes_cg_200it", "pymanopt_fit.py", "--task procrustes --dim 8 --iters 200")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout22", "libho22", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
