"""Make the fifth library corpus (examples/libraries5): real runs of RL, flow, tabular and training-loop libraries.

    ~/venvs/dev4b/bin/python bench/library_runs5/make_all.py --out examples/libraries5 [--only NAME ...]

As bench/library_runs3/make_all.py: each run is ``nice -n 10 python GEN.py ARGS > train.log 2>&1`` started as a
subprocess in a fresh temporary working directory (stdout and stderr one file, no TTY, Python's default buffering,
1 CPU thread, seeded), in the layout of examples/libraries_holdout (``lib_truth.py``: ``truth.json``, the
library's own files kept beside, a second manifest entry for a store). The maker checks each truth against the
run's intent (label; for a reward, higher is better) and that every truth value of the log is printed in it.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from truth_checks import LibraryRuns, library_maker_main, registry  # noqa: E402

RUNS: LibraryRuns = {}
run = registry(RUNS)


# --- normflows (the examples' loop: tqdm over the iterations; the loss as a postfix, a print or tqdm.write)
run("normflows_realnvp_moons_postfix", "normflows_fit.py", "--flow realnvp --target moons --iters 400 --fmt postfix")
run("normflows_spline_moons_print", "normflows_fit.py", "--flow spline --target moons --iters 300 --fmt print")
run("normflows_realnvp_ring_write", "normflows_fit.py", "--flow realnvp --target ring --iters 400 --fmt write "
    "--every 20")
run("normflows_realnvp_lr_huge_diverged", "normflows_fit.py", "--flow realnvp --target moons --iters 300 --fmt print "
    "--lr 0.2 --no-skip", label="diverged", stop=True)

# --- pytorch-accelerated (Trainer: 'Starting epoch N', a bar per epoch, 'train_loss_epoch: X' lines)
run("accelerated_regression_default_8ep", "accelerated_fit.py", "--task regression --epochs 8")
run("accelerated_classification_nobar_10ep", "accelerated_fit.py", "--task classification --epochs 10 "
    "--callbacks nobar")
run("accelerated_regression_steps_6ep", "accelerated_fit.py", "--task regression --epochs 6 --callbacks steps "
    "--every 5")
run("accelerated_sgd_lr_huge_diverged", "accelerated_fit.py", "--task regression --epochs 6 --callbacks steps "
    "--every 2 --optim sgd --lr 0.05", label="diverged", stop=True)  # TerminateOnNaNCallback ends it at the NaN
run("accelerated_steplr_growing_diverged", "accelerated_fit.py", "--task classification --epochs 8 "
    "--callbacks steps --every 4 --sched growing --lr 1e-3", label="diverged", stop=True)

# --- MushroomRL (Logger: '... [INFO] Epoch 3 | J: -91.6'; the objective J, higher is better; core's bars on stderr)
run("mushroom_lqr_reinforce_20ep", "mushroom_pg.py", "--env lqr --algo reinforce --epochs 20 --eps-opt 0.01")
run("mushroom_lqr_gpomdp_weights_quiet", "mushroom_pg.py", "--env lqr --algo gpomdp --epochs 15 --eps-opt 0.01 "
    "--quiet --weights")
run("mushroom_grid_qlearning_30ep", "mushroom_pg.py", "--env grid --algo qlearning --epochs 30 --lr 0.2 --quiet")
run("mushroom_grid_qlearning_lr_huge_collapse", "mushroom_pg.py", "--env grid --algo qlearning --epochs 30 --lr 3",
    label="diverged", stop=True)  # a learning rate > 2: the Q-values oscillate, J collapses 4.2 -> 0

# --- TorchRL (DQN on CartPole: a CSVLogger's scalars/loss.csv; a tqdm bar's description or torchrl_logger.info)
run("torchrl_dqn_cartpole_bar", "torchrl_dqn.py", "--frames 6000 --fmt bar")
run("torchrl_dqn_cartpole_info", "torchrl_dqn.py", "--frames 8000 --fmt info --every 4")
run("torchrl_dqn_sgd_lr_huge_diverged", "torchrl_dqn.py", "--frames 5000 --fmt bar --optim sgd --lr 5",
    label="nan", stop=True)

# --- tinygrad (the examples' loop: trange with set_description(f"loss: {loss.item():6.2f} ..."), or print lines)
run("tinygrad_adam_bar_300", "tinygrad_fit.py", "--steps 300 --fmt bar")
run("tinygrad_sgd_print_400", "tinygrad_fit.py", "--steps 400 --fmt print --optim sgd --lr 0.05 --every 10")
run("tinygrad_sgd_lr_huge_print_nan", "tinygrad_fit.py", "--steps 200 --fmt print --optim sgd --lr 8 --every 5",
    label="nan", stop=True)
run("tinygrad_sgd_lr_huge_bar_diverged", "tinygrad_fit.py", "--steps 150 --fmt bar --optim sgd --lr 1.5",
    label="diverged", stop=True)

# --- PyTorch Tabular (Lightning underneath: its rich bar, drawn to a file only at the end; the TensorBoard store)
run("tabular_category_regression_6ep", "tabular_fit.py", "--model category --task regression --epochs 6 --every 10")
run("tabular_gandalf_classification_5ep", "tabular_fit.py", "--model gandalf --task classification --epochs 5 "
    "--every 5")
run("tabular_category_steplr_growing_diverged", "tabular_fit.py", "--model category --task regression --epochs 6 "
    "--every 10 --step-gamma 10", label="diverged", stop=True)  # StepLR's gamma 10 (0.1 meant): x10 an epoch

# Runs labelled by their intent where the label rule does not hold, and why
_RL_LOSS = ("an RL loss follows the returns: {} grows as the episodes grow longer ({}): healthy by its returns, as "
            "the run's intent says")
LABEL_EXCEPTIONS: dict[str, str] = {
    "torchrl_dqn_cartpole_info": _RL_LOSS.format("a DQN's TD loss", "max num steps 43 -> 200"),
}


def main() -> int:
    return library_maker_main(RUNS, HERE, "examples/libraries5", "lib5", __doc__ or "", LABEL_EXCEPTIONS)


if __name__ == "__main__":
    raise SystemExit(main())
