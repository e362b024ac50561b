"""Make the twenty-eighth held-out library corpus (examples/libraries_holdout28): real runs of training libraries
nobody on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout28/bin/python bench/holdout_libraries28/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- geneticalgorithm2 (its progress bar on stdout, a \r redraw a generation:
# "|||___ 10.0% GA is running...3 gen from 30...best value = 3.60455145267318")
run("ga2_sphere_30gen", "ga2_run.py", "--iters 30")
run("ga2_rastrigin_dim4_pop60_40gen", "ga2_run.py", "--func rastrigin --dim 4 --pop 60 --iters 40")
run("ga2_lstsq_dim2_25gen", "ga2_run.py", "--func lstsq --dim 2 --iters 25 --pop 30")
run("ga2_sphere_int_20gen", "ga2_run.py", "--var-type int --dim 6 --iters 20")
run("ga2_sphere_mut03_elit005_50gen", "ga2_run.py", "--mutation 0.3 --elit 0.05 --iters 50 --seed 3")

# --- jMetalPy (PrintObjectivesObserver through its logger: "[date] [jmetal] [INFO] Evaluations: 80. fitness: [20.8]")
run("jmetal_ga_sphere_800ev_f40", "jmetal_run.py", "--algo ga --evals 800 --freq 40")
run("jmetal_ga_rastrigin_pop60_1200ev_f60", "jmetal_run.py",
    "--algo ga --problem rastrigin --pop 60 --evals 1200 --freq 60")
run("jmetal_ga_sphere20_pop100_3000ev_f100", "jmetal_run.py", "--algo ga --vars 20 --pop 100 --evals 3000 --freq 100")
run("jmetal_sa_sphere_warm_300ev_f10", "jmetal_run.py", "--algo sa --warm-start 0.1 --evals 300 --freq 10")
run("jmetal_sa_rastrigin_warm_400ev_f20", "jmetal_run.py",
    "--algo sa --problem rastrigin --warm-start 0.1 --evals 400 --freq 20")
# SimulatedAnnealing started near the optimum with a temperature that never cools: it accepts every worse move
run("jmetal_sa_sphere_hot_diverged", "jmetal_run.py",
    "--algo sa --warm-start 0.1 --temperature 1e9 --alpha 1.0 --evals 200 --freq 5", label="diverged", stop=True)
run("jmetal_sa_rastrigin_hot_diverged", "jmetal_run.py",
    "--algo sa --problem rastrigin --warm-start 0.1 --temperature 1e6 --alpha 0.99 --evals 300 --freq 10",
    label="diverged", stop=True)
run("jmetal_sa_sphere_hot_seed1_diverged", "jmetal_run.py",
    "--algo sa --warm-start 0.05 --temperature 1e9 --alpha 1.0 --evals 400 --freq 10 --seed 1",
    label="diverged", stop=True)
run("jmetal_sa_sphere20_hot_diverged", "jmetal_run.py",
    "--algo sa --vars 20 --warm-start 0.1 --temperature 1e4 --alpha 1.0 --evals 300 --freq 10 --seed 2",
    label="diverged", stop=True)
run("jmetal_sa_rastrigin5_hot_diverged", "jmetal_run.py",
    "--algo sa --problem rastrigin --vars 5 --warm-start 0.05 --temperature 1e9 --alpha 1.0 --evals 150 --freq 5 "
    "--seed 3", label="diverged", stop=True)

# --- NiaPy (its Task's logging on stderr, at each improvement: "INFO:niapy.task.Task:evals:38 => 48.024095124367044")
run("niapy_pso_sphere_600ev", "niapy_run.py", "--algo pso --evals 600")
run("niapy_de_rastrigin_dim5_1000ev", "niapy_run.py", "--algo de --problem rastrigin --dim 5 --evals 1000 --pop 30")
run("niapy_gwo_ackley_800ev", "niapy_run.py", "--algo gwo --problem ackley --evals 800")
run("niapy_abc_sphere_dim5_500ev", "niapy_run.py", "--algo abc --dim 5 --evals 500 --seed 2")
run("niapy_fa_sphere_dim4_400ev", "niapy_run.py", "--algo fa --dim 4 --evals 400 --pop 15 --seed 3")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout28", "libho28", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
