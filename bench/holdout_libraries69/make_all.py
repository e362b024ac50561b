"""Make the 69th held-out library corpus (examples/libraries_holdout69): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout69/bin/python bench/holdout_libraries69/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- sb3-contrib (QR-DQN, TQC, TRPO on CartPole-v1 / Pendulum-v1, SB3's logger `configure(dir, ["stdout", "csv"])`:
# every log_interval episodes or rollouts a `| rollout/ | time/ | train/ |` table on stdout, floats `%.3g`; its own
# progress.csv and monitor.csv kept)
run("sb3c_trpo_cartpole_g09_8rollouts", "sb3contrib_learn.py", "--algo trpo --steps 4096 --n-steps 512 --gamma 0.9")
run("sb3c_trpo_cartpole_n256_b32", "sb3contrib_learn.py",
    "--algo trpo --steps 3072 --n-steps 256 --batch 32 --gamma 0.9")
run("sb3c_tqc_pendulum_12ep", "sb3contrib_learn.py", "--algo tqc --steps 2400 --learning-starts 200 --log-interval 1")
run("sb3c_tqc_pendulum_b64_li2", "sb3contrib_learn.py",
    "--algo tqc --steps 3000 --learning-starts 200 --log-interval 2 --batch 64")
run("sb3c_qrdqn_cartpole_g09", "sb3contrib_learn.py", "--algo qrdqn --steps 5000 --gamma 0.9 --lr 0.001")
run("sb3c_qrdqn_lr_high_diverged", "sb3contrib_learn.py", "--algo qrdqn --steps 5000 --gamma 0.9 --lr 0.5",
    label="diverged", stop=True)
run("sb3c_tqc_lr_high_diverged", "sb3contrib_learn.py",
    "--algo tqc --steps 2400 --learning-starts 200 --log-interval 1 --lr 0.05", label="diverged", stop=True)

# --- pina-mathlab (a PINN on its Poisson2DSquareProblem, PINA's Trainer = Lightning's: the progress bar on stderr
# without a TTY, `\r` updates, postfix `boundary_loss=2.030, D_loss=7.310, train_loss=9.330`, 3 significant
# digits; Lightning's CSVLogger metrics.csv kept)
run("pina_adam_300ep", "pina_train.py", "--epochs 300")
run("pina_adam_val_200ep", "pina_train.py", "--epochs 200 --val 0.2 --lr 0.005")
run("pina_sgd_batch32_40ep", "pina_train.py", "--optimizer sgd --lr 0.001 --batch 32 --epochs 40")
run("pina_rmsprop_explr_150ep", "pina_train.py", "--optimizer rmsprop --lr 0.003 --gamma 0.99 --epochs 150")
run("pina_adamw_b48_logsteps_60ep", "pina_train.py",
    "--optimizer adamw --lr 0.005 --batch 48 --log-every 5 --epochs 60 --width 24 --layers 3")
run("pina_adam_lr_growth_diverged", "pina_train.py", "--lr 0.003 --gamma 1.15 --epochs 80", label="diverged",
    stop=True)
run("pina_adamw_b48_lr_growth_diverged", "pina_train.py",
    "--optimizer adamw --lr 0.005 --gamma 1.2 --batch 48 --epochs 50", label="diverged", stop=True)
run("pina_sgd_lr_growth_nan", "pina_train.py", "--optimizer sgd --lr 0.01 --gamma 1.25 --epochs 60", label="nan",
    stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout69", "libho69", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
