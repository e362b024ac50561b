"""d3rlpy 2.x: offline (DiscreteCQL / CQL-free DQN / BC on a synthetic MDPDataset) or online (DQN on CartPole-v1).

d3rlpy prints structlog records to stdout (``2026-12-05 17:20.01 [info     ] DQN_online_2026...: epoch=1
step=1000 epoch=1 metrics={'time_sample_batch': ..., 'loss': 0.52, ...} step=1000``) and tqdm bars with the
running metrics as postfix (``Epoch 1/5: 100%|...| 1000/1000 [00:02<00:00, ..., loss=0.52]``), and writes one CSV
per metric under ``d3rlpy_logs/<experiment>/`` (``loss.csv``: ``epoch,step,value``). Truth: ``loss.csv`` (the
epoch mean at each epoch's last step); the store entry is that CSV.
"""

from __future__ import annotations

import argparse
import csv
import glob
import os

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--mode", default="offline", choices=["offline", "online"])
ap.add_argument("--algo", default="dqn")
ap.add_argument("--steps", type=int, default=5000)
ap.add_argument("--per-epoch", type=int, default=500)
ap.add_argument("--lr", type=float, default=3e-4)
ap.add_argument("--optim", default="adam", choices=["adam", "sgd"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import d3rlpy  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)
d3rlpy.seed(0)
optim = d3rlpy.optimizers.AdamFactory() if a.optim == "adam" else d3rlpy.optimizers.SGDFactory(momentum=0.9)
if a.algo == "dqn":
    algo = d3rlpy.algos.DQNConfig(learning_rate=a.lr, batch_size=64, target_update_interval=200,
                                  optim_factory=optim).create(device="cpu")
elif a.algo == "cql":
    algo = d3rlpy.algos.DiscreteCQLConfig(learning_rate=a.lr, batch_size=64, optim_factory=optim).create(device="cpu")
elif a.algo == "bc":
    algo = d3rlpy.algos.BCConfig(learning_rate=a.lr, batch_size=64, optim_factory=optim).create(device="cpu")
else:
    raise SystemExit(f"unknown algo {a.algo}")

if a.mode == "offline":
    # a synthetic dataset: noisy linear dynamics, episodes of 50 steps; discrete actions for DQN/CQL,
    # continuous for BC
    rng = np.random.default_rng(0)
    n_ep, T, d = 40, 50, 6
    obs = rng.normal(size=(n_ep * T, d)).astype(np.float32)
    w = rng.normal(size=(d,)).astype(np.float32)
    if a.algo == "bc":
        act = np.tanh(obs[:, :2] @ rng.normal(size=(2, 2)).astype(np.float32)) + 0.05 * rng.normal(size=(n_ep * T, 2))
        act = act.astype(np.float32)
        rew = -np.abs(act).sum(1).astype(np.float32)
    else:
        act = (obs @ w > 0).astype(np.int64)
        rew = (act == (obs[:, 0] > 0)).astype(np.float32)
    term = np.zeros(n_ep * T, dtype=np.float32)
    term[T - 1::T] = 1.0
    ds = d3rlpy.dataset.MDPDataset(obs, act, rew, term,
                                   action_space=d3rlpy.ActionSpace.CONTINUOUS if a.algo == "bc"
                                   else d3rlpy.ActionSpace.DISCRETE, action_size=2)
    algo.fit(ds, n_steps=a.steps, n_steps_per_epoch=a.per_epoch, experiment_name="run", with_timestamp=False,
             save_interval=10**9)
else:
    import gymnasium as gym

    env = gym.make("CartPole-v1")
    eval_env = gym.make("CartPole-v1")
    buf = d3rlpy.dataset.create_fifo_replay_buffer(limit=50000, env=env)
    explorer = d3rlpy.algos.LinearDecayEpsilonGreedy(start_epsilon=1.0, end_epsilon=0.1, duration=a.steps // 2)
    algo.fit_online(env, buf, explorer, n_steps=a.steps, n_steps_per_epoch=a.per_epoch, update_start_step=500,
                    eval_env=eval_env, eval_n_trials=3, experiment_name="run", with_timestamp=False,
                    save_interval=10**9)

folder = glob.glob("d3rlpy_logs/run*")[0]
for path in glob.glob(f"{folder}/*.csv") + glob.glob(f"{folder}/*.json"):
    if not path.endswith("_grad.csv"):  # the per-parameter gradient CSVs: many, large, no metric
        keep(path, f"d3rlpy_logs/{os.path.basename(path)}")
with open(f"{folder}/loss.csv") as f:
    rows = [r for r in csv.reader(f) if r]
pts = [[int(r[1]), float(r[2])] for r in rows]
common = dict(framework=f"d3rlpy {a.algo.upper()} {a.mode}", settings=vars(a), label=a.label,
              should_stop=a.should_stop, loss_name="loss", tolerance={"rel": 1e-6, "sig": 6, "abs": 1e-9},
              record="d3rlpy_logs/<experiment>/loss.csv (epoch, step, value: the epoch's mean)")
reward = None
if os.path.exists(f"{folder}/evaluation.csv"):
    with open(f"{folder}/evaluation.csv") as f:
        reward = [[int(r[1]), float(r[2])] for r in csv.reader(f) if r]
write_truth(**common, step_unit="gradient step (the epoch's last: epoch x n_steps_per_epoch)", train_loss=pts,
            reward=reward)
store_entry("d3rlpy_logs/loss.csv", "truth.json")
