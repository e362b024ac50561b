"""AgileRL: a DQN agent (a population of one, or two) trained on gymnasium's CartPole-v1 by AgileRL's own loop
``agilerl.training.train_off_policy.train_off_policy`` (no mutation, no tournament), its defaults for the console:
its tqdm progress bar on stderr and, after each evolution step (every ``evo_steps`` environment steps), the
population's metrics report, a Rich table titled ``Global Steps: 2_000`` with rows ``eval/fitness``,
``train/score``, ``train/loss`` (the agent's loss averaged since the last report), its hyperparameters, ``steps``,
``steps/s``. Truth: AgileRL's own ``CSVLogger`` (``agilerl.logger``, one row per report, ``train/global_step`` and
``train/agent_0/loss``), added beside the loop's console logger; its file ``metrics.csv`` is kept."""

from __future__ import annotations

import argparse
import csv
import os

from h24_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--steps", type=int, default=6000)
ap.add_argument("--evo-steps", type=int, default=500)
ap.add_argument("--batch", type=int, default=64)
ap.add_argument("--learn-step", type=int, default=1)
ap.add_argument("--pop", type=int, default=1)
ap.add_argument("--gamma", type=float, default=0.99)
ap.add_argument("--num-envs", type=int, default=1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import agilerl.training.train_off_policy as top  # noqa: E402
import gymnasium as gym  # noqa: E402
from agilerl.algorithms import DQN  # noqa: E402
from agilerl.components.replay_buffer import ReplayBuffer  # noqa: E402
from agilerl.logger import CSVLogger  # noqa: E402

CSV = os.path.abspath("metrics.csv")
_init_loggers = top.init_loggers


def init_loggers(**kw):
    return _init_loggers(**kw) + [CSVLogger(CSV)]


top.init_loggers = init_loggers

env = gym.vector.SyncVectorEnv([lambda: gym.make("CartPole-v1") for _ in range(a.num_envs)])
env.reset(seed=0)
pop = [DQN(env.single_observation_space, env.single_action_space, index=i, lr=a.lr, batch_size=a.batch,
           learn_step=a.learn_step, gamma=a.gamma, net_config={"head_config": {"hidden_size": [64, 64]}})
       for i in range(a.pop)]
memory = ReplayBuffer(max_size=10000)
top.train_off_policy(env, "CartPole-v1", "DQN", pop, memory, max_steps=a.steps, evo_steps=a.evo_steps,
                     eps_decay=0.995, learning_delay=200)

rows = list(csv.DictReader(open(CSV)))
series = [(int(r["train/global_step"]), float(r["train/agent_0/loss"])) for r in rows
          if r.get("train/agent_0/loss") not in (None, "")]
keep(CSV)
write_truth(framework=f"agilerl {version('agilerl')}", settings=vars(a), loss_name="train/loss (agent 0)",
            step_unit="environment step (the report's `Global Steps: N`, all agents' steps)", tolerance=tol_sig(3),
            record="AgileRL's CSVLogger (`train/agent_0/loss` at `train/global_step`), metrics.csv", train_loss=series)
