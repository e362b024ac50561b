"""Make the 24th held-out library corpus (examples/libraries_holdout24): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout24/bin/python bench/holdout_libraries24/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- casadi (its bundled Ipopt's iteration table on stdout: "   3  5.0396577e-01 0.00e+00 8.07e-01  -1.0 ...")
run("casadi_ipopt_mlp_exact_60it", "casadi_nlp.py", "--max-iter 60")
run("casadi_ipopt_mlp_lbfgs_120it", "casadi_nlp.py", "--hessian limited-memory --max-iter 120 --hidden 10")
run("casadi_ipopt_mlp_lbfgs_every5_200it", "casadi_nlp.py",
    "--hessian limited-memory --max-iter 200 --every 5 --hidden 12 --n 120")
run("casadi_ipopt_mlpcls_adaptive_80it", "casadi_nlp.py", "--task mlpcls --mu adaptive --max-iter 80 --hidden 6")
run("casadi_ipopt_mlp_every2_l2_1e-2", "casadi_nlp.py", "--every 2 --l2 1e-2 --max-iter 100 --hidden 5")

# --- jaxopt (its solvers' verbose lines on stdout: "INFO: jaxopt.LBFGS: Iter: 3 Gradient Norm (stopping criterion):
# 0.70 Objective Value:1.06  Stepsize:0.38  Number Linesearch Iterations:1 ")
run("jaxopt_lbfgs_mlp_40it", "jaxopt_solve.py", "--solver lbfgs --iters 40")
run("jaxopt_ncg_mlp_50it", "jaxopt_solve.py", "--solver ncg --iters 50")
run("jaxopt_lbfgs_logreg_25it", "jaxopt_solve.py", "--solver lbfgs --task logreg --iters 25")
run("jaxopt_polyak_mlp_bs32_10ep", "jaxopt_solve.py", "--solver polyak --lr 1.0 --iters 10 --batch 32")
run("jaxopt_optax_adam_mlp_150it", "jaxopt_solve.py", "--solver optax --opt adam --lr 0.01 --iters 150")
run("jaxopt_optax_momentum_ridge_bs64_40ep", "jaxopt_solve.py",
    "--solver optax --opt momentum --task ridge --lr 0.05 --iters 40 --batch 64")
run("jaxopt_optax_sgd_ridge_lr_high_diverged", "jaxopt_solve.py",
    "--solver optax --opt sgd --task ridge --lr 1.2 --iters 60", label="diverged", stop=True)
run("jaxopt_optax_sgd_mlp_lr_high_nan", "jaxopt_solve.py", "--solver optax --opt sgd --lr 3 --iters 40",
    label="nan", stop=True)
run("jaxopt_optax_sgd_mlp_lr_growth_nan", "jaxopt_solve.py",
    "--solver optax --opt sgd --lr 0.05 --growth 1.12 --iters 60", label="nan", stop=True)
run("jaxopt_optax_adam_mlp_lr_growth_diverged", "jaxopt_solve.py",
    "--solver optax --opt adam --lr 0.02 --growth 1.15 --iters 60", label="diverged", stop=True)
run("jaxopt_optax_rmsprop_ridge_bs64_lr_growth_diverged", "jaxopt_solve.py",
    "--solver optax --opt rmsprop --task ridge --lr 0.003 --growth 1.25 --iters 12 --batch 64", label="diverged",
    stop=True)

# --- AgileRL (its train_off_policy loop: a tqdm bar on stderr and, every evo_steps, a Rich table "Global Steps: 2_000"
# with a row "│ loss │ 9.64e-03 │" on stdout)
run("agilerl_dqn_gamma09_evo400_4k", "agilerl_dqn.py", "--gamma 0.9 --steps 4000 --evo-steps 400")
run("agilerl_dqn_gamma05_evo400_4k", "agilerl_dqn.py", "--gamma 0.5 --steps 4000 --evo-steps 400")
run("agilerl_dqn_gamma08_lr5e-4_bs32_evo250_3k", "agilerl_dqn.py",
    "--gamma 0.8 --lr 5e-4 --batch 32 --steps 3000 --evo-steps 250")
run("agilerl_dqn_pop2_gamma09_evo500_5k", "agilerl_dqn.py", "--pop 2 --gamma 0.9 --steps 5000 --evo-steps 500")
run("agilerl_dqn_2envs_learnstep2_gamma07_evo500_5k", "agilerl_dqn.py",
    "--num-envs 2 --learn-step 2 --gamma 0.7 --steps 5000 --evo-steps 500")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout24", "libho24", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
