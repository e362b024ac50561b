"""Make the twenty-first held-out library corpus (examples/libraries_holdout21): real runs of training libraries
nobody on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout21/bin/python bench/holdout_libraries21/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- rlberry (ExperimentManager; its agents' DefaultWriter lines through rlberry's logger on stderr:
# "[INFO] 09:32:    agent_name  worker  loss   episode_rewards  max_global_step" / "MCValue   0   48.715   17.0   3")
run("rlberry_sgd_30ep", "rlberry_fit.py", "--lr 0.05 --episodes 30")
run("rlberry_sgd_process2_40ep", "rlberry_fit.py", "--lr 0.2 --episodes 40 --n-fit 2 --parallel process")
run("rlberry_momentum_oneline_30ep", "rlberry_fit.py", "--optimizer momentum --lr 0.03 --episodes 30 --style one_line")
run("rlberry_sgd_thread3_25ep", "rlberry_fit.py", "--lr 0.1 --episodes 25 --n-fit 3 --parallel thread")
run("rlberry_sgd_oneline_60ep", "rlberry_fit.py", "--lr 0.45 --episodes 60 --style one_line")
run("rlberry_momentum_thread2_40ep", "rlberry_fit.py",
    "--optimizer momentum --lr 0.15 --episodes 40 --n-fit 2 --parallel thread")
run("rlberry_momentum_lr_high_oneline_diverged", "rlberry_fit.py",
    "--optimizer momentum --lr 1.0 --episodes 30 --style one_line", label="diverged", stop=True)
run("rlberry_lr_high_process2_diverged", "rlberry_fit.py", "--lr 1.5 --episodes 30 --n-fit 2 --parallel process",
    label="diverged", stop=True)
run("rlberry_lr_high_inf_nan", "rlberry_fit.py", "--lr 8 --episodes 150", label="nan", stop=True)

# --- Flower (flwr.simulation.run_simulation, Ray backend; its logger on stderr: "INFO :      [ROUND 3]", then the
# summary "History (loss, distributed):" / "round 1: 2.6551757037312282")
run("flwr_fedavg_4c_8r", "flwr_sim.py", "--rounds 8")
run("flwr_fedavgm_5c_2ep_10r", "flwr_sim.py", "--strategy fedavgm --clients 5 --local-epochs 2 --lr 0.02 --rounds 10")
run("flwr_fedadam_4c_12r", "flwr_sim.py", "--strategy fedadam --server-lr 0.1 --rounds 12")
run("flwr_fedprox_half_fit_10r", "flwr_sim.py", "--strategy fedprox --fraction-fit 0.5 --lr 0.03 --rounds 10")
run("flwr_fedadam_server_lr3_3c_10r", "flwr_sim.py", "--strategy fedadam --server-lr 3 --clients 3 --rounds 10")
run("flwr_fedavg_lr_high_diverged", "flwr_sim.py", "--lr 0.25 --rounds 8", label="diverged", stop=True)
run("flwr_fedavgm_5c_lr_high_diverged", "flwr_sim.py", "--strategy fedavgm --clients 5 --lr 0.15 --rounds 12",
    label="diverged", stop=True)
run("flwr_fedavg_lr_high_3ep_nan", "flwr_sim.py", "--lr 0.8 --local-epochs 3 --rounds 10", label="nan", stop=True)

# --- PINTS (OptimisationController's table on stdout: "Iter. Eval. Best      Current   Time    " /
# "20    126    9562.077  9562.077   0:00.0", and its own CSV log of the same rows)
run("pints_xnes_logistic_200it", "pints_opt.py", "--optimiser xnes --iters 200")
run("pints_cmaes_fhn_100it_log10", "pints_opt.py", "--optimiser cmaes --model fhn --iters 100 --interval 10")
run("pints_pso_logistic_150it_log25", "pints_opt.py", "--optimiser pso --iters 150 --interval 25 --warm-up 5")
run("pints_nm_fhn_200it_log40", "pints_opt.py", "--optimiser nm --model fhn --iters 200 --interval 40")
run("pints_adam_fhn_100it_log10", "pints_opt.py", "--optimiser adam --model fhn --iters 100 --interval 10")
run("pints_irprop_fhn_80it_log8", "pints_opt.py", "--optimiser irprop --model fhn --iters 80 --interval 8")
run("pints_gd_fhn_lr1e-3_60it_log5", "pints_opt.py", "--optimiser gd --model fhn --lr 0.001 --iters 60 --interval 5")
run("pints_adam_fhn_step_high_diverged", "pints_opt.py",
    "--optimiser adam --model fhn --sigma-scale 20 --iters 60 --interval 5", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout21", "libho21", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
