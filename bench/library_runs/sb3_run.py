"""A user's stable-baselines3 script: PPO / A2C / DQN / SAC on a gymnasium task, the default stdout table (a boxed
vertical table per dump: ``| rollout/ | |``, ``|    ep_rew_mean | 21.3 |``) plus the CSV format.

Truth: SB3's own ``progress.csv`` (kept beside the log, with the ``Monitor`` file): the train loss
(``train/loss``; A2C logs none, its ``train/value_loss``; SAC its ``train/critic_loss``) at
``time/total_timesteps``, the step SB3's logger dumps at; the episode reward mean (``rollout/ep_rew_mean``, higher
is better) as ``reward``.
"""

from __future__ import annotations

import argparse
import csv
import math

from _truth import common_args, keep, settings_of, write_truth

p = argparse.ArgumentParser()
p.add_argument("--algo", default="ppo")
p.add_argument("--env", default="CartPole-v1")
p.add_argument("--steps", type=int, default=8192)
p.add_argument("--n-steps", type=int, default=256)
p.add_argument("--log-interval", type=int, default=1)
p.add_argument("--lr", type=float, default=3e-4)
p.add_argument("--verbose", type=int, default=1)
common_args(p)
args = p.parse_args()

import gymnasium as gym  # noqa: E402
import torch  # noqa: E402
from stable_baselines3 import A2C, DQN, PPO, SAC  # noqa: E402
from stable_baselines3.common.logger import configure  # noqa: E402
from stable_baselines3.common.monitor import Monitor  # noqa: E402

torch.set_num_threads(1)
env = Monitor(gym.make(args.env), "monitor")
kw: dict = {"learning_rate": args.lr, "seed": args.seed, "verbose": args.verbose, "device": "cpu"}
if args.algo == "ppo":
    model = PPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=64, n_epochs=4, **kw)
elif args.algo == "a2c":
    model = A2C("MlpPolicy", env, n_steps=args.n_steps, **kw)
elif args.algo == "sac":
    model = SAC("MlpPolicy", env, learning_starts=500, buffer_size=20000, batch_size=128, **kw)
else:
    model = DQN("MlpPolicy", env, learning_starts=500, buffer_size=10000, train_freq=4, target_update_interval=250,
                exploration_fraction=0.3, **kw)
model.set_logger(configure("sb3_log", ["stdout", "csv"]))
model.learn(total_timesteps=args.steps, log_interval=args.log_interval)

with open("sb3_log/progress.csv") as f:
    rows = list(csv.DictReader(f))
loss_key = {"a2c": "train/value_loss", "sac": "train/critic_loss"}.get(args.algo, "train/loss")


def pts(key: str) -> list:
    return [(int(r["time/total_timesteps"]), float(r[key])) for r in rows if r.get(key, "") not in ("", None)]


keep("sb3_log/progress.csv", "progress.csv")
keep("monitor.monitor.csv")
loss = pts(loss_key)
write_truth(framework=f"stable-baselines3 {args.algo.upper()}", settings=settings_of(args), label=args.label,
            should_stop=args.should_stop, loss_name=loss_key,
            step_unit="environment timesteps (time/total_timesteps, the step SB3's logger dumps at)",
            tolerance={"sig": 3, "rel": 1e-6}, record="stable-baselines3 progress.csv (its CSV output format)",
            train_loss=loss, reward=pts("rollout/ep_rew_mean"), higher_is_better=["rollout/ep_rew_mean"],
            nonfinite=sum(not math.isfinite(v) for _, v in loss))
