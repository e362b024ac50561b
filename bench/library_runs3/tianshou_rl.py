"""tianshou 2.x: DQN or PPO on CartPole-v1 (gymnasium's built-in env), the procedural API, a TensorboardLogger.

The trainer prints, per epoch, a tqdm bar ``Epoch #1: 100%|##| 2000/2000 [00:03<00:00, ..., loss=0.5, rew=21.0,
update_step=200]`` (ascii, its postfix the last update's stats) and a line ``Epoch #1: test_reward: 21.0 ± 3.1,
best_reward: ...``. Truth: the logger's own event file (the train loss the logger records at each update step, its
``update/loss`` when logged every update; the test returns at env steps). The log's truth: the test returns the logger
records (``test/returns_stat/mean``) at its ``env_step``, the step the bars' postfix prints.
"""

from __future__ import annotations

import argparse
import glob

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algo", default="dqn")
ap.add_argument("--epochs", type=int, default=5)
ap.add_argument("--steps", type=int, default=2000, help="env steps per epoch")
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import gymnasium as gym  # noqa: E402
import torch  # noqa: E402
from tianshou.algorithm import DQN, PPO  # noqa: E402
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.modelfree.reinforce import ProbabilisticActorPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Collector, CollectStats, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402
from tianshou.trainer import OffPolicyTrainerParams, OnPolicyTrainerParams  # noqa: E402
from tianshou.utils import TensorboardLogger  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402
from tianshou.utils.net.discrete import DiscreteActor, DiscreteCritic  # noqa: E402
from torch.utils.tensorboard import SummaryWriter  # noqa: E402

torch.set_num_threads(1)
env = gym.make("CartPole-v1")
train_envs = DummyVectorEnv([lambda: gym.make("CartPole-v1") for _ in range(4)])
test_envs = DummyVectorEnv([lambda: gym.make("CartPole-v1") for _ in range(5)])
train_envs.seed(0)
test_envs.seed(10)
obs_shape, n_act = env.observation_space.shape, env.action_space.n
writer = SummaryWriter("log")
logger = TensorboardLogger(writer, update_interval=1, training_interval=1)

if a.algo == "dqn":
    net = Net(state_shape=obs_shape, action_shape=n_act, hidden_sizes=[64, 64])
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.1, eps_inference=0.05)
    algo = DQN(policy=policy, optim=AdamOptimizerFactory(lr=a.lr), gamma=0.9, n_step_return_horizon=3,
               target_update_freq=320)
    buf = VectorReplayBuffer(20000, len(train_envs))
    train_c = Collector[CollectStats](algo, train_envs, buf, exploration_noise=True)
    test_c = Collector[CollectStats](algo, test_envs, exploration_noise=True)
    train_c.reset()
    train_c.collect(n_step=256, random=True)
    params = OffPolicyTrainerParams(training_collector=train_c, test_collector=test_c, max_epochs=a.epochs,
                                    epoch_num_steps=a.steps, collection_step_num_env_steps=10,
                                    test_step_num_episodes=5, batch_size=64,
                                    update_step_num_gradient_steps_per_sample=0.1, logger=logger,
                                    test_in_training=False)
else:
    feat = Net(state_shape=obs_shape, hidden_sizes=[64, 64])
    actor = DiscreteActor(preprocess_net=feat, action_shape=n_act)
    critic = DiscreteCritic(preprocess_net=Net(state_shape=obs_shape, hidden_sizes=[64, 64]))
    policy = ProbabilisticActorPolicy(actor=actor, dist_fn=torch.distributions.Categorical,
                                      action_space=env.action_space, action_scaling=False)
    algo = PPO(policy=policy, critic=critic, optim=AdamOptimizerFactory(lr=a.lr), gamma=0.99)
    buf = VectorReplayBuffer(20000, len(train_envs))
    train_c = Collector[CollectStats](algo, train_envs, buf)
    test_c = Collector[CollectStats](algo, test_envs)
    params = OnPolicyTrainerParams(training_collector=train_c, test_collector=test_c, max_epochs=a.epochs,
                                   epoch_num_steps=a.steps, collection_step_num_env_steps=500,
                                   test_step_num_episodes=5, batch_size=64, update_step_num_repetitions=2,
                                   logger=logger, test_in_training=False)
algo.run_training(params)
writer.close()

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

ev = glob.glob("log/events.out.tfevents.*")[0]
acc = EventAccumulator(ev, size_guidance={"scalars": 0})
acc.Reload()
tags = acc.Tags()["scalars"]
test = [(e.step, e.value) for e in acc.Scalars("test/returns_stat/mean")]
loss_tag = "update/loss"
train = [(e.step, e.value) for e in acc.Scalars(loss_tag)] if loss_tag in tags else []
keep(ev, "events.out.tfevents.tianshou")
common = dict(framework=f"tianshou {a.algo.upper()}", settings=vars(a), label=a.label, should_stop=a.should_stop,
              higher_is_better=["test_reward"], tolerance={"rel": 1e-6, "sig": 6, "abs": 5.1e-7})
# the log: 'Epoch #N: test_reward: R' once per epoch (and 'Initial test step: test_reward: R' before training), the
# test the logger records at its env_step (test/env_step): the library's own step for its test data
write_truth(**common, loss_name="test_reward",
            step_unit="env step (the logger's test/env_step; the bars' postfix prints env_step=N)",
            record="the logger's event file, test/returns_stat/mean at its env_step (the first: the initial test)",
            train_loss=test, tags=tags)
if train:
    store_entry("events.out.tfevents.tianshou", "truth_store.json")
    write_truth(name="truth_store.json", **{**common, "higher_is_better": []}, loss_name=loss_tag,
                step_unit="update step (the logger's update/ scope)", record="the logger's event file",
                train_loss=train, reward=test)
