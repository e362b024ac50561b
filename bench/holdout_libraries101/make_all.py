"""Make the 101st held-out library corpus (examples/libraries_holdout101): real runs of training libraries nobody on
the project had used (ortools, pyscipopt), each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout101/bin/python bench/holdout_libraries101/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- ortools CP-SAT (`log_search_progress=True`: its log on stdout, a line per solution `#3  0.05s best:5585
# next:[0,5584]  main (fixed_bools=0/2922)`); one worker, a deterministic time limit
run("ortools_cpsat_tardiness_25jobs", "ortools_cpsat.py", "--problem tardiness --n 25 --dtime 0.3 --linearization 0")
run("ortools_cpsat_tsp_30cities", "ortools_cpsat.py", "--problem tsp --n 30 --dtime 1 --linearization 0")
run("ortools_cpsat_assign_60tasks", "ortools_cpsat.py", "--problem assign --n 60 --dtime 0.5 --linearization 0")

# --- ortools PDLP (`verbosity_level` 3 or 4: its iteration table at every termination check; the adaptive step, or a
# constant step `initial_step_size_scaling` times its default)
run("ortools_pdlp_qp_adaptive_v3", "ortools_pdlp.py", "--check-freq 8")
run("ortools_pdlp_lp_adaptive_32", "ortools_pdlp.py", "--problem lp --iters 1000 --check-freq 32")
run("ortools_pdlp_qp_adaptive_v4", "ortools_pdlp.py", "--verbosity 4 --check-freq 16 --m 50 --n 100 --seed 5")
run("ortools_pdlp_qp_step_1.5x_norestart", "ortools_pdlp.py",
    "--scale 1.5 --restarts none --check-freq 8 --iters 400 --seed 2")
run("ortools_pdlp_qp_step_1.6x_diverged", "ortools_pdlp.py", "--scale 1.6 --check-freq 8 --iters 400",
    label="diverged", stop=True)
run("ortools_pdlp_qp_step_1.7x_norestart_diverged", "ortools_pdlp.py",
    "--scale 1.7 --restarts none --check-freq 8 --iters 400 --seed 2", label="diverged", stop=True)
run("ortools_pdlp_qp_step_1.6x_big_diverged", "ortools_pdlp.py",
    "--scale 1.6 --m 60 --n 120 --check-freq 8 --iters 400 --seed 3", label="diverged", stop=True)
run("ortools_pdlp_qp_step_1.7x_every_v4_diverged", "ortools_pdlp.py",
    "--scale 1.7 --restarts every --check-freq 8 --iters 400 --verbosity 4 --seed 4", label="diverged", stop=True)
run("ortools_pdlp_qp_step_3x_diverged", "ortools_pdlp.py", "--scale 3 --check-freq 4 --iters 200",
    label="diverged", stop=True)

# --- pyscipopt (SCIP's display table on stdout, a row per new incumbent, every 100 nodes and at root rounds)
run("scip_facility_40customers", "scip_mip.py", "--problem facility --n 40")
run("scip_knapsack_60items", "scip_mip.py", "--problem knapsack --n 60")
run("scip_cover_50elements", "scip_mip.py", "--problem cover --n 50")
run("scip_knapsack_80items_verb5", "scip_mip.py", "--problem knapsack --n 80 --verblevel 5")
run("scip_knapsack_70items_noheur", "scip_mip.py", "--problem knapsack --n 70 --heuristics-off --seed 1")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout101", "libho101", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
