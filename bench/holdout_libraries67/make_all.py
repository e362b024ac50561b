"""Make the 67th held-out library corpus (examples/libraries_holdout67): real runs of a training library nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout67/bin/python bench/holdout_libraries67/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- scs (`scs.SCS(data, cone, verbose=True, ...)`: its banner, the problem and settings, then its table
# ` iter | pri res | dua res |   gap   |   obj   |  scale  | time (s)` with a row `  250| 7.52e-03  ...` at
# iteration 0, every 250 and the last, then `status:  solved (inaccurate - reached max_iters)` and its timings)
run("scs_lp_noaccel_fixedscale_3000it", "scs_solve.py",
    "--problem lp --lookback 0 --no-adaptive-scale --no-normalize --eps 1e-12 --max-iters 3000")
run("scs_lp_spread_scale10_noaccel_2000it", "scs_solve.py",
    "--problem lp --spread 1 --lookback 0 --scale 10 --no-adaptive-scale")
run("scs_lp_m150_lookback5_3000it", "scs_solve.py",
    "--problem lp --m 150 --n 60 --spread 1 --eps 1e-8 --lookback 5 --no-adaptive-scale --max-iters 3000")
run("scs_lp_alpha1_seed1_2500it", "scs_solve.py",
    "--problem lp --seed 1 --lookback 0 --no-adaptive-scale --no-normalize --alpha 1.0 --eps 1e-12 --max-iters 2500")
run("scs_qp_spread3_scale100_2000it", "scs_solve.py",
    "--problem qp --spread 3 --lookback 0 --no-adaptive-scale --scale 100")
run("scs_qp_m120_nonormalize_2000it", "scs_solve.py",
    "--problem qp --m 120 --n 60 --spread 2.5 --lookback 0 --no-adaptive-scale --no-normalize --scale 0.001")
run("scs_socp_noaccel_solved", "scs_solve.py",
    "--problem socp --spread 1.5 --lookback 0 --no-adaptive-scale --eps 1e-5 --max-iters 5000")
run("scs_socp_nonormalize_scale100_2000it", "scs_solve.py",
    "--problem socp --no-normalize --no-adaptive-scale --lookback 0 --scale 100 --eps 1e-12")
run("scs_socp_spread_noaccel_2000it", "scs_solve.py", "--problem socp --spread 1.5 --lookback 0 --no-adaptive-scale")
run("scs_socp_alpha18_seed2_2500it", "scs_solve.py",
    "--problem socp --seed 2 --spread 1.5 --lookback 0 --no-adaptive-scale --alpha 1.8 --max-iters 2500")
# should stop: problems with no solution, solved with `eps_infeas` so small that SCS never takes its certificate
run("scs_lp_infeasible_noaccel_diverged", "scs_solve.py", "--problem lp --infeasible --eps-infeas 1e-300 --lookback 0",
    label="diverged", stop=True)
run("scs_lp_infeasible_accel_diverged", "scs_solve.py", "--problem lp --infeasible --eps-infeas 1e-300",
    label="diverged", stop=True)
run("scs_lp_unbounded_diverged", "scs_solve.py", "--problem lp --unbounded --eps-infeas 1e-300", label="diverged",
    stop=True)
run("scs_qp_infeasible_diverged", "scs_solve.py", "--problem qp --infeasible --eps-infeas 1e-300", label="diverged",
    stop=True)
run("scs_socp_infeasible_diverged", "scs_solve.py", "--problem socp --infeasible --eps-infeas 1e-300",
    label="diverged", stop=True)
run("scs_socp_infeasible_noaccel_2500it_diverged", "scs_solve.py",
    "--problem socp --infeasible --eps-infeas 1e-300 --lookback 0 --max-iters 2500", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout67", "libho67", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
