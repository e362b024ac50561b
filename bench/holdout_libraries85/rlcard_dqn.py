"""rlcard: its DQN agent trained against random opponents on one of its card games (blackjack, Leduc hold'em, limit
hold'em), the loop of rlcard's own `examples/run_rl.py`: `env.run(is_training=True)`, `reorganize`, `agent.feed`,
and every `--evaluate-every` episodes `Logger.log_performance(episode, tournament(env, N)[0])` inside `with
Logger(log_dir)`. rlcard prints the loss itself at every training step (`\\rINFO - Step 345, rl-loss: 0.0123...`,
`end=''`, Python's full float repr), `INFO - Copied model parameters to target network.` and its Logger's
reward tables. Truth: rlcard keeps no record of the loss, so it is the value its `Estimator.update` returns (the very
value `DQNAgent.train` prints), at rlcard's step `total_t` (transitions fed). Its Logger's `log.txt` and
`performance.csv` are kept (the reward, as eval series)."""

from __future__ import annotations

import argparse
import csv
import os
from typing import Any

from h85_truth import keep, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--env", default="blackjack")
ap.add_argument("--episodes", type=int, default=300)
ap.add_argument("--evaluate-every", type=int, default=50)
ap.add_argument("--eval-games", type=int, default=200)
ap.add_argument("--lr", type=float, default=0.00005)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--layers", default="64,64")
ap.add_argument("--train-every", type=int, default=1)
ap.add_argument("--init-size", type=int, default=100)
ap.add_argument("--update-target", type=int, default=1000)
ap.add_argument("--seed", type=int, default=42)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()

import rlcard  # noqa: E402
import torch  # noqa: E402
from rlcard.agents import DQNAgent, RandomAgent  # noqa: E402
from rlcard.utils import Logger, get_device, reorganize, set_seed, tournament  # noqa: E402

torch.set_num_threads(1)
device = get_device()
set_seed(a.seed)
env = rlcard.make(a.env, config={"seed": a.seed})
agent = DQNAgent(num_actions=env.num_actions, state_shape=env.state_shape[0],
                 mlp_layers=[int(x) for x in a.layers.split(",")], learning_rate=a.lr, batch_size=a.batch,
                 train_every=a.train_every, replay_memory_init_size=a.init_size,
                 update_target_estimator_every=a.update_target, device=device)
agents: list[Any] = [agent]
for _ in range(1, env.num_players):
    agents.append(RandomAgent(num_actions=env.num_actions))
env.set_agents(agents)

# the loss rlcard prints, as its Estimator returns it to DQNAgent.train (rlcard keeps no record of it)
losses: list[tuple[int, float]] = []
_update = agent.q_estimator.update


def update(s: Any, act: Any, y: Any) -> float:
    loss = float(_update(s, act, y))
    losses.append((agent.total_t, loss))
    return loss


agent.q_estimator.update = update

log_dir = os.path.join("experiments", f"{a.env}_dqn_result")
with Logger(log_dir) as logger:
    for episode in range(a.episodes):
        trajectories, payoffs = env.run(is_training=True)
        trajectories = reorganize(trajectories, payoffs)
        for ts in trajectories[0]:
            agent.feed(ts)
        if episode % a.evaluate_every == 0:
            logger.log_performance(episode, tournament(env, a.eval_games)[0])
    csv_path = logger.csv_path

with open(csv_path) as f:
    rewards = [(int(r["episode"]), float(r["reward"])) for r in csv.DictReader(f)]
keep(csv_path)
keep(os.path.join(log_dir, "log.txt"))
write_truth(framework=f"rlcard {rlcard.__version__}", settings=vars(a), loss_name="rl-loss",
            step_unit="step, rlcard's `total_t` (transitions fed to the agent; `INFO - Step N, rl-loss: ...`)",
            tolerance={"rel": 1e-9, "abs": 0.0},
            record="the loss rlcard's `Estimator.update` returns to `DQNAgent.train`, which prints it (rlcard keeps "
                   "no record of the loss)",
            train_loss=losses, eval_loss=rewards, eval_name="reward (Logger.log_performance; higher is better; "
                                                            "step = episode)")
