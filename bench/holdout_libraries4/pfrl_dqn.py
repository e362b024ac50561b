"""PFRL: a ``DoubleDQN`` / ``DQN`` agent on CartPole trained by ``pfrl.experiments.train_agent_with_evaluation``
with logging at INFO as its examples set it up (``logging.basicConfig(level=...)``): at every episode end
``outdir:results step:523 episode:21 R:28.0`` then ``statistics:[('average_q', 1.9), ('average_loss', 0.013), ...]``,
evaluation lines, and its ``scores.txt`` (one row per evaluation). Truth: ``scores.txt``'s ``average_loss`` (the
agent's ``get_statistics()`` at each evaluation, the same values the episode's statistics line prints), at its
``steps`` (environment steps, 1-based)."""

from __future__ import annotations

import argparse
import csv
import logging
from importlib.metadata import version

import numpy as np
from h4_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--agent", default="DoubleDQN", choices=["DQN", "DoubleDQN"])
ap.add_argument("--steps", type=int, default=6000)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd"])
ap.add_argument("--eval-interval", type=int, default=500)
ap.add_argument("--gamma", type=float, default=0.99)
ap.add_argument("--log-level", type=int, default=logging.INFO)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
logging.basicConfig(level=a.log_level)
seed_all(0)

import gymnasium  # noqa: E402
import pfrl  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

torch.set_num_threads(1)
pfrl.utils.set_random_seed(0)


class OldApiCartPole:
    """gymnasium's CartPole-v1 behind the reset/step interface PFRL 0.4 drives (obs; obs, r, done, info)."""

    def __init__(self, seed: int):
        self.env = gymnasium.make("CartPole-v1")
        self.seed = seed
        self.observation_space, self.action_space = self.env.observation_space, self.env.action_space

    def reset(self):
        obs, _ = self.env.reset(seed=self.seed)
        self.seed += 1
        return obs.astype(np.float32)

    def step(self, action):
        obs, r, term, trunc, info = self.env.step(int(action))
        if trunc and not term:
            info = dict(info, needs_reset=True)
        return obs.astype(np.float32), float(r), term, info

    def close(self):
        self.env.close()


env, eval_env = OldApiCartPole(0), OldApiCartPole(10_000)
q = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2),
                  pfrl.q_functions.DiscreteActionValueHead())
opt = torch.optim.Adam(q.parameters(), lr=a.lr) if a.optimizer == "adam" else \
    torch.optim.SGD(q.parameters(), lr=a.lr)
explorer = pfrl.explorers.LinearDecayEpsilonGreedy(1.0, 0.05, 2000, env.action_space.sample)
agent_cls = pfrl.agents.DoubleDQN if a.agent == "DoubleDQN" else pfrl.agents.DQN
agent = agent_cls(q, opt, pfrl.replay_buffers.ReplayBuffer(10_000), a.gamma, explorer, replay_start_size=300,
                  update_interval=1, target_update_interval=100, minibatch_size=32, gpu=-1)
pfrl.experiments.train_agent_with_evaluation(agent=agent, env=env, steps=a.steps, eval_n_steps=None,
                                             eval_n_episodes=3, eval_interval=a.eval_interval, outdir="results",
                                             eval_env=eval_env, train_max_episode_len=200)

keep("results/scores.txt")
with open("results/scores.txt") as f:
    rows = list(csv.DictReader(f, delimiter="\t"))
train = [(int(r["steps"]), float(r["average_loss"])) for r in rows]
ev = [(int(r["steps"]), float(r["mean"])) for r in rows]
write_truth(framework=f"pfrl {version('pfrl')}", settings=vars(a), loss_name="average_loss",
            step_unit="environment step, 1-based (`step:N` of the episode line; scores.txt `steps`)",
            tolerance=tol_sig(12), record="scores.txt average_loss (agent.get_statistics() at each evaluation)",
            train_loss=train, eval_loss=ev, eval_name="mean evaluation return (higher is better)")
