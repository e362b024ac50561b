"""Make the 56th held-out library corpus (examples/libraries_holdout56): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout56/bin/python bench/holdout_libraries56/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- rsl-rl-lib (PPO of its `OnPolicyRunner` on a small batched torch environment written against its `VecEnv`;
# with a log_dir it prints a block per learning iteration: `Learning iteration 3/30` in ANSI bold, `Mean value loss:
# 12.3456`, `Mean surrogate loss`, `Mean entropy loss`, `Mean reward`, the environment's own metrics; TensorBoard
# scalars are its record)
run("rslrl_reach_adaptive_30it", "rslrl_train.py", "--iters 30")
run("rslrl_balance_adaptive_40it", "rslrl_train.py", "--env balance --iters 40")
run("rslrl_reach_obsnorm_128envs_25it", "rslrl_train.py",
    "--num-envs 128 --steps 32 --episode 64 --mini-batches 8 --epochs 3 --obs-norm --iters 25 --run-name reach_norm")
run("rslrl_reach_rnd_30it", "rslrl_train.py", "--rnd --iters 30")
run("rslrl_balance_fixed_lr3e-4_40it", "rslrl_train.py",
    "--env balance --schedule fixed --lr 3e-4 --hidden 64,64 --num-envs 48 --iters 40")
run("rslrl_reach_ep40_std05_20it", "rslrl_train.py", "--episode 40 --steps 40 --hidden 64,64 --init-std 0.5 --iters 20")
run("rslrl_reach_adam_lr_high_diverged", "rslrl_train.py", "--schedule fixed --lr 0.1 --iters 30", label="diverged",
    stop=True)
run("rslrl_reach_rmsprop_lr_high_diverged", "rslrl_train.py",
    "--schedule fixed --optimizer rmsprop --lr 0.05 --iters 40", label="diverged", stop=True)
run("rslrl_reach_adamw_lr_high_diverged", "rslrl_train.py", "--schedule fixed --optimizer adamw --lr 0.3 --iters 30",
    label="diverged", stop=True)

# --- netket (variational Monte Carlo of a neural quantum state: `gs.run(n_iter, out=nk.logging.JsonLog(...))`; its
# tqdm bar on stderr, `\r` redraws on one line, the loss in the postfix `Energy=-9.430 ± 0.083 [σ²=3.5e+00, R̂=1.014]`;
# its JSON log is the record)
run("netket_ising1d_rbm_sr_40it", "netket_vmc.py", "--sr 0.1 --iters 40")
run("netket_ising1d_fullsum_adam_30it", "netket_vmc.py", "--fullsum --L 6 --optimizer adam --lr 0.01 --iters 30")
run("netket_heisenberg1d_vmcsr_30it", "netket_vmc.py",
    "--system heisenberg1d --driver vmc_sr --sr 0.01 --lr 0.02 --iters 30")
run("netket_ising2d_rbmsymm_sr_obs_30it", "netket_vmc.py",
    "--system ising2d --L 3 --ansatz rbmsymm --sr 0.05 --lr 0.02 --iters 30 --obs")
run("netket_ising1d_jastrow_adam_50it", "netket_vmc.py",
    "--ansatz jastrow --optimizer adam --lr 0.01 --samples 1024 --chains 32 --iters 50")
run("netket_heisenberg1d_mlp_adam_40it", "netket_vmc.py",
    "--system heisenberg1d --ansatz mlp --optimizer adam --lr 0.005 --iters 40")
run("netket_ising1d_sgd_lr_high_nan", "netket_vmc.py", "--lr 1.0 --iters 30", label="nan", stop=True)
run("netket_ising1d_sgd_lr_growth_diverged", "netket_vmc.py", "--lr 0.01 --growth 1.2 --iters 40", label="diverged",
    stop=True)
run("netket_heisenberg1d_adam_lr_high_diverged", "netket_vmc.py",
    "--system heisenberg1d --optimizer adam --lr 0.5 --iters 30", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout56", "libho56", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
