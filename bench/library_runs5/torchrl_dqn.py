"""TorchRL 0.14: DQN on CartPole-v1 as its getting-started tutorials write it (a ``Collector``, a
``ReplayBuffer``, ``DQNLoss`` with a ``SoftUpdate`` target, an ``EGreedyModule``), logged the ways the tutorials
show: a ``CSVLogger`` (``log_scalar``: ``<exp>/scalars/<name>.csv``, one ``step,value`` row each, no header) always,
and on the console either a tqdm bar over the frames whose description is the PPO tutorial's
(``", ".join([loss_str, cum_reward_str, stepcount_str, lr_str])``, set every batch) or ``torchrl_logger.info``
lines every ``--every`` batches (the getting-started tutorial's). Truth: the CSV's ``loss`` rows (the mean DQN
loss of each batch's updates at the frames collected so far); the store entry is that CSV.
"""

from __future__ import annotations

import argparse
import os

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--frames", type=int, default=6000)
ap.add_argument("--per-batch", type=int, default=100)
ap.add_argument("--updates", type=int, default=10)
ap.add_argument("--lr", type=float, default=2e-3)
ap.add_argument("--optim", default="adam", choices=["adam", "sgd"])
ap.add_argument("--fmt", default="bar", choices=["bar", "info"])
ap.add_argument("--every", type=int, default=5)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from tensordict.nn import TensorDictModule, TensorDictSequential  # noqa: E402
from torchrl._utils import logger as torchrl_logger  # noqa: E402
from torchrl.collectors import Collector  # noqa: E402
from torchrl.data import LazyTensorStorage, ReplayBuffer  # noqa: E402
from torchrl.envs import GymEnv, StepCounter, TransformedEnv  # noqa: E402
from torchrl.modules import MLP, EGreedyModule, QValueModule  # noqa: E402
from torchrl.objectives import DQNLoss, SoftUpdate  # noqa: E402
from torchrl.record.loggers.csv import CSVLogger  # noqa: E402
from tqdm import tqdm  # noqa: E402

torch.set_num_threads(1)
torch.manual_seed(0)
env = TransformedEnv(GymEnv("CartPole-v1"), StepCounter())
env.set_seed(0)
value_mlp = MLP(out_features=env.action_spec.shape[-1], num_cells=[64, 64])
value_net = TensorDictModule(value_mlp, in_keys=["observation"], out_keys=["action_value"])
policy = TensorDictSequential(value_net, QValueModule(spec=env.action_spec))
explore = EGreedyModule(env.action_spec, annealing_num_steps=a.frames, eps_init=0.5)
policy_explore = TensorDictSequential(policy, explore)
collector = Collector(env, policy_explore, frames_per_batch=a.per_batch, total_frames=a.frames,
                              init_random_frames=500)
rb = ReplayBuffer(storage=LazyTensorStorage(20_000))
loss_fn = DQNLoss(value_network=policy, action_space=env.action_spec, delay_value=True)
optim = (torch.optim.Adam(loss_fn.parameters(), lr=a.lr) if a.optim == "adam"
         else torch.optim.SGD(loss_fn.parameters(), lr=a.lr, momentum=0.9))
updater = SoftUpdate(loss_fn, eps=0.99)
logger = CSVLogger(exp_name="dqn", log_dir="torchrl_logs")

pbar = tqdm(total=a.frames) if a.fmt == "bar" else None
frames, truth, printed, batch = 0, [], [], 0
for data in collector:
    batch += 1
    frames += data.numel()
    rb.extend(data)
    max_length = rb[:]["next", "step_count"].max().item()
    losses = []
    if len(rb) >= 500:
        for _ in range(a.updates):
            sample = rb.sample(64)
            loss_vals = loss_fn(sample)
            loss_vals["loss"].backward()
            optim.step()
            optim.zero_grad()
            updater.step()
            losses.append(loss_vals["loss"].item())
    explore.step(data.numel())
    if losses:
        loss = sum(losses) / len(losses)
        logger.log_scalar("loss", loss, step=frames)
        logger.log_scalar("max_steps", max_length, step=frames)
        truth.append([frames, loss])
        if pbar is not None:
            pbar.update(data.numel())
            printed.append([frames, loss])
            pbar.set_description(", ".join([f"loss: {loss: 4.4f}", f"max step count: {max_length}",
                                            f"lr: {optim.param_groups[0]['lr']: 4.4f}"]))
        elif batch % a.every == 0:
            printed.append([frames, loss])
            torchrl_logger.info(f"frames {frames}: loss {loss:.5f}, max num steps {max_length}, rb length {len(rb)}")
    elif pbar is not None:
        pbar.update(data.numel())
if pbar is not None:
    pbar.close()
csv_dir = os.path.join("torchrl_logs", "dqn", "scalars")
keep(csv_dir, "scalars")
store_entry("scalars/loss.csv", "truth_store.json")
fields = dict(framework="torchrl DQN", settings=vars(a), label=a.label, should_stop=a.should_stop, loss_name="loss",
              step_unit="frames collected (the CSVLogger's step)", record="CSVLogger scalars/loss.csv")
write_truth(name="truth_store.json", tolerance={"rel": 1e-6, "sig": 6}, train_loss=truth, **fields)
write_truth(tolerance={"rel": 1e-4, "abs": 5e-5}, train_loss=printed, **fields)
