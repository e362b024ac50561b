"""Make the third library corpus (examples/libraries3): real runs of RL, embedding and knowledge-graph libraries.

    ~/venvs/dev2b/bin/python bench/library_runs3/make_all.py --out examples/libraries3 [--only NAME ...]

Each run is ``nice -n 10 python GEN.py ARGS > train.log 2>&1`` started as a subprocess in a fresh temporary working
directory: stdout and stderr one file, no TTY, Python's default buffering, 1 CPU thread, seeded, in the layout of
examples/libraries_holdout (the generators share its ``lib_truth.py``: ``truth.json``, the library's own files kept
beside, a second manifest entry for a store). The maker checks each truth against the run's intent (label; for a
reward, higher is better) and that every truth value of the log is printed in it.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from truth_checks import LibraryRuns, library_maker_main, registry  # noqa: E402

RUNS: LibraryRuns = {}
run = registry(RUNS)


# --- tianshou 2.x (per-epoch tqdm bars with a postfix, 'Epoch #N: test_reward: R ± S, best_reward: ...')
run("tianshou_dqn_cartpole_8ep", "tianshou_rl.py", "--algo dqn --epochs 8 --steps 2000")
run("tianshou_ppo_cartpole_6ep", "tianshou_rl.py", "--algo ppo --epochs 6 --steps 4000 --lr 3e-3")
run("tianshou_dqn_lr_huge_collapse", "tianshou_rl.py", "--algo dqn --epochs 8 --steps 2000 --lr 5",
    label="diverged", stop=True)
run("tianshou_ppo_lr_huge_collapse", "tianshou_rl.py", "--algo ppo --epochs 6 --steps 4000 --lr 1",
    label="diverged", stop=True)

# --- d3rlpy 2.x (structlog records 'epoch=1 step=500 metrics={...}', bars with 'loss=' postfix, loss.csv)
run("d3rlpy_bc_offline_8ep", "d3rlpy_run.py", "--mode offline --algo bc --steps 4000 --per-epoch 500 --lr 1e-3")
run("d3rlpy_cql_offline_6ep", "d3rlpy_run.py", "--mode offline --algo cql --steps 3000 --per-epoch 500 --lr 3e-4")
run("d3rlpy_dqn_online_cartpole_6ep", "d3rlpy_run.py", "--mode online --algo dqn --steps 6000 --per-epoch 1000 "
    "--lr 1e-3")
run("d3rlpy_dqn_offline_sgd_lr_huge_nan", "d3rlpy_run.py", "--mode offline --algo dqn --steps 2000 "
    "--per-epoch 250 --optim sgd --lr 20", label="nan", stop=True)
# (a behaviour-cloning run with a rate far too high does not diverge: its tanh-squashed actions saturate and the loss
# stays flat at ~1.4; it was replaced by this DQN)

# --- PyKEEN (an epoch bar with 'loss=..., prev_loss=...'; result trackers)
run("pykeen_transe_nations_csv_40ep", "pykeen_kge.py", "--model TransE --dataset Nations --epochs 40 --tracker csv")
run("pykeen_distmult_kinships_console_25ep", "pykeen_kge.py",
    "--model DistMult --dataset Kinships --epochs 25 --tracker console")
run("pykeen_complex_umls_csv_30ep", "pykeen_kge.py", "--model ComplEx --dataset UMLS --epochs 30 --tracker csv "
    "--lr 0.005")
run("pykeen_transe_sgd_lr_huge_diverged", "pykeen_kge.py", "--model DistMult --dataset Nations --epochs 30 "
    "--tracker console --optimizer SGD --lr 500 --loss softplus", label="diverged", stop=True)

# --- gensim (logging at INFO: 'EPOCH 0 - PROGRESS: at 52.10% examples', a callback 'Loss after epoch N: X')
run("gensim_w2v_cbow_callback_12ep", "gensim_w2v.py", "--model w2v --epochs 12")
run("gensim_w2v_sg_logging_8ep", "gensim_w2v.py", "--model w2v --sg 1 --epochs 8 --fmt logging --words 200000")
run("gensim_w2v_sg_hs_callback_6ep", "gensim_w2v.py", "--model w2v --sg 1 --hs 1 --epochs 6 --words 150000")
# (not made: a should-stop gensim run. A rate 1,000x too high saturates the sigmoid: the running loss falls to near
# zero instead of rising; Doc2Vec keeps no training loss: get_latest_training_loss() stays 0.)

# --- Ray RLlib (algo.train() results printed by pretty_print: nested 'name: value' blocks; pprint; one line)
run("rllib_ppo_pretty_print_12it", "rllib_train.py", "--algo ppo --iters 12 --fmt pretty")
run("rllib_ppo_pprint_10it", "rllib_train.py", "--algo ppo --iters 10 --fmt pprint --lr 1e-3")
run("rllib_ppo_line_10it", "rllib_train.py", "--algo ppo --iters 10 --fmt line")
run("rllib_ppo_lr_huge_pretty_nonfinite", "rllib_train.py", "--algo ppo --iters 10 --fmt pretty --lr 3",
    label="nan", stop=True)  # total_loss inf at the first iteration, the returns collapse 18 -> 9

# Runs labelled by their intent where the label rule does not hold, and why
_RL_LOSS = ("an RL loss follows the returns: {} grows as the episode returns grow ({}): healthy by its reward, as "
            "the run's intent says")
LABEL_EXCEPTIONS: dict[str, str] = {
    "d3rlpy_dqn_online_cartpole_6ep": _RL_LOSS.format("a DQN's TD loss", "evaluation.csv"),
    "rllib_ppo_pretty_print_12it": _RL_LOSS.format("PPO's total loss (its value loss)", "episode_return_mean"),
    "rllib_ppo_pprint_10it": _RL_LOSS.format("PPO's total loss (its value loss)", "episode_return_mean"),
    "rllib_ppo_line_10it": _RL_LOSS.format("PPO's total loss (its value loss)", "episode_return_mean"),
}


def main() -> int:
    return library_maker_main(RUNS, HERE, "examples/libraries3", "lib3", __doc__ or "", LABEL_EXCEPTIONS)


if __name__ == "__main__":
    raise SystemExit(main())
