"""ElegantRL 0.3.6: ``train_agent`` (one process) with DDPG / TD3 / SAC on its Pendulum env, or DQN / PPO on gym's
CartPole (gym 0.25, the version it asserts).

Its ``Evaluator`` prints a legend (``| `step`: Number of samples ...``), a rule of ``#`` and a fixed-width header
``ID     Step    Time |    avgR   stdR   avgS  stdS |    expR   objC   objA   etc.``, then a row each evaluation:
the step in scientific notation (``2.20e+03``), the mean return ``avgR`` (higher is better), the critic's loss and
the actor's objective in 7-wide fields with no space between them when one is wide (``1.80-103.58``);
``| UsedTime: ... | SavedDir: ...`` at the end. Truth: the evaluator's ``recorder`` (total_step, avg_r, std_r,
exp_r, obj_c, obj_a): the critic's loss ``objC`` as the run's loss (as for stable-baselines3's SAC in
examples/libraries; the returns beside it, ``avg_return``), at steps that are multiples of ``horizon_len`` (chosen
so that 3 significant digits print them exactly).
"""

from __future__ import annotations

import argparse

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algo", default="ddpg", choices=["ddpg", "td3", "sac", "dqn", "ppo"])
ap.add_argument("--steps", type=int, default=20000)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--eval-every", type=int, default=1000)
ap.add_argument("--horizon", type=int, default=200)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import elegantrl.train.run as run  # noqa: E402
import gym  # noqa: E402
from elegantrl import Config, get_gym_env_args, train_agent  # noqa: E402
from elegantrl.agents import AgentDDPG, AgentDQN, AgentPPO, AgentSAC, AgentTD3  # noqa: E402
from elegantrl.envs.CustomGymEnv import PendulumEnv  # noqa: E402
from elegantrl.train.evaluator import Evaluator  # noqa: E402

kept: list = []


class KeptEvaluator(Evaluator):
    """The library's Evaluator, its recorder kept for the truth."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        kept.append(self)


run.Evaluator = KeptEvaluator
agent = {"ddpg": AgentDDPG, "td3": AgentTD3, "sac": AgentSAC, "dqn": AgentDQN, "ppo": AgentPPO}[a.algo]
if a.algo in ("dqn", "ppo"):
    gym.logger.set_level(40)
    env_class, env_args = gym.make, get_gym_env_args(gym.make("CartPole-v1"), if_print=True)
    env_args["id"] = "CartPole-v1"
else:
    env_class = PendulumEnv
    env_args = get_gym_env_args(env=PendulumEnv(), if_print=True)
args = Config(agent, env_class, env_args)
if a.algo == "ppo" and env_class is gym.make:
    args.if_discrete = True
args.break_step = a.steps
args.net_dims = (64, 32)
args.learning_rate = a.lr
args.horizon_len = a.horizon
args.eval_per_step = a.eval_every
args.eval_times = 3
args.gpu_id = -1
args.num_threads = 1
args.random_seed = 0
args.if_keep_save = False
args.if_remove = True
args.cwd = "./run"
train_agent(args)

rec = kept[0].recorder  # (total_step, avg_r, std_r, exp_r, obj_c, obj_a)
write_truth(framework=f"elegantrl {a.algo}", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="objC", step_unit="environment steps (the evaluator's total_step)",
            tolerance={"rel": 0.0, "abs": 0.0051},
            record="Evaluator.recorder's obj_c, the critic's loss (printed '7.2f'); avg_return: its avg_r ('8.2f')",
            train_loss=[(int(r[0]), float(r[4])) for r in rec],
            avg_return=[(int(r[0]), float(r[1])) for r in rec])
