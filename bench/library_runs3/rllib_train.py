"""Ray RLlib: PPO or DQN on CartPole-v1 (gymnasium's built-in env), ``algo.train()`` in a loop, each result printed
as RLlib's examples do (``pretty_print(result)``: a YAML-like nested block of ``name: value`` lines, two spaces a
level), or with ``pprint`` (a nested dict over several lines), or a line per iteration.

Truth: the result dicts ``train()`` returned (the library's own record), at ``training_iteration``: the learner's
``total_loss`` of ``default_policy`` (the train loss), and the env runners' ``episode_return_mean`` (the reward).
"""

from __future__ import annotations

import argparse
import math
import pprint

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algo", default="ppo")
ap.add_argument("--iters", type=int, default=10)
ap.add_argument("--lr", type=float, default=3e-4)
ap.add_argument("--fmt", default="pretty", choices=["pretty", "pprint", "line"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import ray  # noqa: E402
from ray.tune.logger import pretty_print  # noqa: E402

ray.init(num_cpus=1, include_dashboard=False, log_to_driver=True)
if a.algo == "ppo":
    from ray.rllib.algorithms.ppo import PPOConfig

    cfg = (PPOConfig().environment("CartPole-v1").env_runners(num_env_runners=0)
           .training(lr=a.lr, train_batch_size_per_learner=1000, minibatch_size=128, num_epochs=4)
           .debugging(seed=0))
else:
    from ray.rllib.algorithms.dqn import DQNConfig

    cfg = (DQNConfig().environment("CartPole-v1").env_runners(num_env_runners=0)
           .training(lr=a.lr, train_batch_size_per_learner=64).debugging(seed=0))
algo = cfg.build_algo()
losses, rewards = [], []


def get(d, *path):
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d


for _ in range(a.iters):
    r = algo.train()
    it = r["training_iteration"]
    loss = get(r, "learners", "default_policy", "total_loss")
    rew = get(r, "env_runners", "episode_return_mean")
    if loss is not None:
        losses.append([it, float(loss)])
    if rew is not None and not (isinstance(rew, float) and math.isnan(rew)):
        rewards.append([it, float(rew)])
    if a.fmt == "pretty":
        print(pretty_print(r))
    elif a.fmt == "pprint":
        pprint.pprint(r)
    else:
        print(f"iter {it}: reward={rew} loss={loss}")
algo.stop()
ray.shutdown()
write_truth(framework=f"ray[rllib] {a.algo.upper()}", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="learners/default_policy/total_loss", step_unit="training_iteration, 1-based",
            tolerance={"rel": 1e-9, "sig": 12, "abs": 1e-12}, record="the result dicts algo.train() returned",
            train_loss=losses, reward=rewards, higher_is_better=["env_runners/episode_return_mean"])
