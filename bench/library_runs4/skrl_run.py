"""skrl 2.x: a PPO (or DQN) agent on gymnasium's CartPole-v1 trained by its ``SequentialTrainer``. On stdout only
the trainer's tqdm bar over the timesteps (no metric); the agent writes its tracking data to a TensorBoard event file
(its own writer, ``skrl.utils.tensorboard``) every ``write_interval`` timesteps: ``Loss / Policy loss``,
``Loss / Value loss``, ``Reward / Total reward (mean)``, ...

Truth: the event file the agent wrote, its loss tag at its timesteps. The log prints no metric: only the event file
is scored (``log_scored`` false).
"""

from __future__ import annotations

import argparse
import glob

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algo", default="ppo", choices=["ppo", "dqn"])
ap.add_argument("--timesteps", type=int, default=20000)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--write-interval", type=int, default=200)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import gymnasium as gym  # noqa: E402
import torch  # noqa: E402
from skrl.envs.wrappers.torch import wrap_env  # noqa: E402
from skrl.memories.torch import RandomMemory  # noqa: E402
from skrl.models.torch import CategoricalMixin, DeterministicMixin, Model  # noqa: E402
from skrl.trainers.torch import SequentialTrainer  # noqa: E402
from skrl.utils import set_seed  # noqa: E402

torch.set_num_threads(1)
set_seed(0)
env = wrap_env(gym.make("CartPole-v1"))
dev = env.device


class Policy(CategoricalMixin, Model):
    def __init__(self, observation_space, action_space, device):
        Model.__init__(self, observation_space=observation_space, action_space=action_space, device=device)
        CategoricalMixin.__init__(self, unnormalized_log_prob=True)
        self.net = torch.nn.Sequential(torch.nn.Linear(self.num_observations, 64), torch.nn.Tanh(),
                                       torch.nn.Linear(64, self.num_actions))

    def compute(self, inputs, role=""):
        return self.net(inputs["observations"]), {}


class Value(DeterministicMixin, Model):
    def __init__(self, observation_space, action_space, device, out=1):
        Model.__init__(self, observation_space=observation_space, action_space=action_space, device=device)
        DeterministicMixin.__init__(self)
        self.net = torch.nn.Sequential(torch.nn.Linear(self.num_observations, 64), torch.nn.Tanh(),
                                       torch.nn.Linear(64, out))

    def compute(self, inputs, role=""):
        return self.net(inputs["observations"]), {}


exp = {"directory": "runs", "experiment_name": "exp", "write_interval": a.write_interval,
       "checkpoint_interval": 0}
if a.algo == "ppo":
    from skrl.agents.torch.ppo import PPO

    memory = RandomMemory(memory_size=256, num_envs=env.num_envs, device=dev)
    models = {"policy": Policy(env.observation_space, env.action_space, dev),
              "value": Value(env.observation_space, env.action_space, dev)}
    cfg = {"rollouts": 256, "learning_epochs": 4, "mini_batches": 4, "learning_rate": a.lr, "experiment": exp}
    agent = PPO(models=models, memory=memory, observation_space=env.observation_space,
                action_space=env.action_space, device=dev, cfg=cfg)
    loss_tag = "Loss / Value loss"
else:
    from skrl.agents.torch.dqn import DQN

    memory = RandomMemory(memory_size=20000, num_envs=env.num_envs, device=dev, replacement=False)
    models = {"q_network": Value(env.observation_space, env.action_space, dev, out=2),
              "target_q_network": Value(env.observation_space, env.action_space, dev, out=2)}
    cfg = {"learning_starts": 500, "learning_rate": a.lr, "target_update_interval": 100, "experiment": exp,
           "exploration_scheduler": lambda t, total: max(0.05, 1.0 - t / 5000)}
    agent = DQN(models=models, memory=memory, observation_space=env.observation_space,
                action_space=env.action_space, device=dev, cfg=cfg)
    loss_tag = "Loss / Q-network loss"
trainer = SequentialTrainer(cfg={"timesteps": a.timesteps, "headless": True}, env=env, agents=agent)
trainer.train()
agent.writer.close()

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

ev = glob.glob("runs/exp/events.out.tfevents.*")[0]
acc = EventAccumulator(ev, size_guidance={"scalars": 0})
acc.Reload()
tags = acc.Tags()["scalars"]
pts = [(e.step, e.value) for e in acc.Scalars(loss_tag)]
rew = [(e.step, e.value) for e in acc.Scalars("Reward / Total reward (mean)")] if \
    "Reward / Total reward (mean)" in tags else None
keep(ev, "events.out.tfevents.skrl")
write_truth(framework=f"skrl {a.algo.upper()}", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name=loss_tag, step_unit="timestep (the agent's write_interval)",
            tolerance={"rel": 1e-6, "abs": 1e-9}, record="the agent's TensorBoard event file", train_loss=pts,
            reward=rew, tags=tags, log_scored=False)
store_entry("events.out.tfevents.skrl", "truth.json")
