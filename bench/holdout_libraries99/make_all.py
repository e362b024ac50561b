"""Make the 99th held-out library corpus (examples/libraries_holdout99): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout99/bin/python bench/holdout_libraries99/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- pocomc (`pocomc.Flow(n_dim, flow).fit(x, ..., verbose=2)`: its normalizing flow fitted to synthetic samples;
# stdout, one line an epoch `Epoch   3/ 60, train loss:  2.87, val loss:  2.91` (`%5.2f`), then the timing summary)
run("pocomc_banana_nsf3_default_60ep", "pocomc_flow.py", "--epochs 60")
run("pocomc_banana_maf3_lr1e-2_40ep", "pocomc_flow.py", "--flow maf3 --lr 0.01 --epochs 40")
run("pocomc_mixture_nsf6_val_50ep", "pocomc_flow.py", "--data mixture --flow nsf6 --lr 0.005 --val 0.8 --epochs 50")
run("pocomc_gauss3_maf6_anneal_val_80ep", "pocomc_flow.py",
    "--data gauss3 --flow maf6 --lr 0.01 --val 0.7 --annealing --patience 5 --epochs 80")
run("pocomc_ring_nsf3_weighted_b200_50ep", "pocomc_flow.py",
    "--data ring --weights --batch 200 --lr 0.005 --epochs 50")
run("pocomc_banana_maf3_wd_b50_30ep", "pocomc_flow.py", "--flow maf3 --lr 0.003 --weight-decay 0.01 --batch 50 "
    "--epochs 30 --n 600")
run("pocomc_banana_maf3_lr_high_diverged", "pocomc_flow.py", "--flow maf3 --lr 0.12 --epochs 60",
    label="diverged", stop=True)
run("pocomc_banana_nsf3_b500_lr_high_diverged", "pocomc_flow.py", "--batch 500 --lr 0.1 --epochs 60",
    label="diverged", stop=True)
run("pocomc_mixture_maf3_lr_high_val_nan", "pocomc_flow.py",
    "--data mixture --flow maf3 --lr 0.15 --val 0.8 --epochs 60", label="nan", stop=True)
run("pocomc_banana_maf6_lr_high_nan", "pocomc_flow.py", "--flow maf6 --lr 0.07 --epochs 60", label="nan",
    stop=True)
run("pocomc_gauss3_maf6_b500_lr_high_nan", "pocomc_flow.py", "--data gauss3 --flow maf6 --batch 500 --lr 0.1 "
    "--epochs 60", label="nan", stop=True)

# --- pyabc (`pyabc.ABCSMC(...).run(...)`, single-core sampler, SQLite history; Python logging on stderr:
# `ABC INFO: t: 3, eps: 2.56164447e-01.`, `ABC INFO: Accepted: ...`, `ABC INFO: Timing t=3 [s]: ...`)
run("pyabc_gauss_median_pop100_8gen", "pyabc_smc.py", "--gens 8")
run("pyabc_gauss2_debug_pop50_6gen", "pyabc_smc.py", "--model gauss2 --debug --pop 50 --gens 6")
run("pyabc_growth_adaptive_pop60_6gen", "pyabc_smc.py", "--model growth --distance adaptive --pop 60 --gens 6")
run("pyabc_growth_pnorm1_quantile_pop80_6gen", "pyabc_smc.py",
    "--model growth --distance pnorm1 --eps quantile --alpha 0.3 --pop 80 --gens 6")
run("pyabc_select_two_models_pop100_5gen", "pyabc_smc.py", "--model select --gens 5")
run("pyabc_gauss_local_mineps_pop60", "pyabc_smc.py",
    "--transition local --min-eps 1.2 --pop 60 --gens 12")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout99", "libho99", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
