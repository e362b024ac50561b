"""Make the 85th held-out library corpus (examples/libraries_holdout85): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout85/bin/python bench/holdout_libraries85/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- rlcard (its DQNAgent against random agents, the loop of its examples/run_rl.py: at every training step
# `\rINFO - Step 345, rl-loss: 0.4702868163585663` with end='', `INFO - Copied model parameters to target network.`,
# and every N episodes its Logger's table `  episode      |  50` / `  reward       |  -0.155` between dashed rules)
run("rlcard_blackjack_default_lr_300ep", "rlcard_dqn.py", "")
run("rlcard_blackjack_lr1e-3_400ep", "rlcard_dqn.py", "--lr 0.001 --episodes 400")
run("rlcard_blackjack_b64_every4_600ep", "rlcard_dqn.py",
    "--lr 0.002 --batch 64 --train-every 4 --layers 32,32 --episodes 600 --evaluate-every 100")
run("rlcard_leduc_lr1e-3_300ep", "rlcard_dqn.py", "--env leduc-holdem --lr 0.001")
run("rlcard_blackjack_lr_high_diverged", "rlcard_dqn.py", "--lr 0.5", label="diverged", stop=True)
run("rlcard_leduc_lr_huge_diverged", "rlcard_dqn.py", "--env leduc-holdem --lr 1e5 --episodes 200 --update-target 50",
    label="diverged", stop=True)

# --- leap-ec (generational_ea evolving a tiny regression model's weights; its FitnessStatsCSVProbe on stdout:
# `step, bsf, mean_fitness, std_fitness, min_fitness, max_fitness` then `3, 1.66662897426241, 2.2399894018434043, ...`)
run("leap_linear_ga_30gen", "leap_fit.py", "")
run("leap_mlp_crossover_pop30_40gen", "leap_fit.py", "--model mlp --generations 40 --crossover 0.3 --pop 30")
run("leap_linear_modulo5_noelite_60gen", "leap_fit.py",
    "--std 0.2 --generations 60 --modulo 5 --mutations 2 --tournament 3 --elites 0 --comment leap-ec-linear")
run("leap_mlp_job_median_50gen", "leap_fit.py", "--model mlp --generations 50 --job 3 --median --std 0.05")
run("leap_mlp_mut4_tour4_pop16_45gen", "leap_fit.py",
    "--model mlp --mutations 4 --tournament 4 --pop 16 --generations 45")
run("leap_linear_std_growth_diverged", "leap_fit.py", "--std 0.02 --std-growth 1.5 --generations 30",
    label="diverged", stop=True)
run("leap_mlp_std_growth_job_diverged", "leap_fit.py",
    "--model mlp --std 0.02 --std-growth 1.4 --generations 35 --job 7 --median", label="diverged", stop=True)
run("leap_linear_std_growth_nan", "leap_fit.py", "--std 0.05 --std-growth 10 --generations 160", label="nan",
    stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout85", "libho85", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
