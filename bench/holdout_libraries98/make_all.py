"""Make the 98th held-out library corpus (examples/libraries_holdout98): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout98/bin/python bench/holdout_libraries98/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- cyipopt (`cyipopt.Problem` around a tiny tanh MLP, limited-memory Hessian: Ipopt's banner, sizes, its iteration
# table `iter    objective    inf_pr   inf_du lg(mu)  ||d||  ...` on stdout, rows `   3  1.5321461e-01 0.00e+00 ...`,
# the header again every 10 printed rows, then its summary and `EXIT: ...`)
run("cyipopt_reg_h8_60it", "cyipopt_fit.py", "--max-iter 60")
run("cyipopt_reg_h16_every3_90it", "cyipopt_fit.py", "--hidden 16 --print-freq 3 --max-iter 90 --seed 2")
run("cyipopt_cls_h8_bounded_40it", "cyipopt_fit.py", "--task cls --bound 5 --max-iter 40")
run("cyipopt_cls_h16_adaptive_l2_50it", "cyipopt_fit.py",
    "--task cls --hidden 16 --mu-strategy adaptive --l2 0.001 --max-iter 50 --seed 1")
run("cyipopt_reg_h12_n128_adaptive_tol", "cyipopt_fit.py",
    "--hidden 12 --n 128 --mu-strategy adaptive --tol 1e-5 --max-iter 200 --seed 3")
run("cyipopt_reg_h8_every5_mem20_140it", "cyipopt_fit.py", "--print-freq 5 --lbfgs-memory 20 --max-iter 140 --seed 4")
run("cyipopt_reg_h8_nolinesearch_diverged", "cyipopt_fit.py", "--no-linesearch --max-iter 60", label="diverged",
    stop=True)
run("cyipopt_reg_h16_nolinesearch_diverged", "cyipopt_fit.py", "--no-linesearch --hidden 16 --seed 2 --max-iter 60",
    label="diverged", stop=True)
run("cyipopt_cls_h8_nolinesearch_diverged", "cyipopt_fit.py", "--no-linesearch --task cls --seed 1 --max-iter 60",
    label="diverged", stop=True)
run("cyipopt_cls_h16_nolinesearch_diverged", "cyipopt_fit.py",
    "--no-linesearch --task cls --hidden 16 --max-iter 60", label="diverged", stop=True)
run("cyipopt_reg_h12_nolinesearch_every2_diverged", "cyipopt_fit.py",
    "--no-linesearch --hidden 12 --print-freq 2 --max-iter 80", label="diverged", stop=True)

# --- spgl1 (`verbosity=2`: its header, then `iterr      Objective   Relative Gap  ...` and rows
# `    3  7.7786456e+00  2.7360757e+00   2.55e+01 ...`; BPDN/BP/MMV print iterations 0-9, every 10th, tau updates)
run("spgl1_lasso_gauss_tau15", "spgl1_solve.py", "--problem lasso --tau 15")
run("spgl1_lasso_dct_subspace_tau20", "spgl1_solve.py",
    "--problem lasso --matrix dct --m 64 --n 256 --tau 20 --subspace-min")
run("spgl1_bpdn_m100_n400_sigma02", "spgl1_solve.py", "--problem bpdn --m 100 --n 400 --k 15 --sigma 0.2 --seed 1")
run("spgl1_bp_gauss_300it", "spgl1_solve.py", "--problem bp --iter-lim 300")
run("spgl1_weighted_bpdn_dct", "spgl1_solve.py", "--problem weighted --matrix dct --m 60 --n 200 --sigma 0.1 --seed 2")
run("spgl1_mmv_3cols_sigma03", "spgl1_solve.py", "--problem mmv --sigma 0.3")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout98", "libho98", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
