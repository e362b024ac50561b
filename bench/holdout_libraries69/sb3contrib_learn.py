"""sb3-contrib: one of its algorithms (QR-DQN, TQC, TRPO) on a tiny gymnasium task (CartPole-v1, Pendulum-v1),
wrapped in SB3's ``Monitor`` and logged by SB3's own logger as its users set it (``configure(folder, ["stdout",
"csv"])``): every ``log_interval`` episodes (off-policy) or rollouts (TRPO) a table on stdout of ``| key | value |``
rows grouped under ``rollout/``, ``time/`` and ``train/`` (floats ``%.3g``), and the same rows in ``progress.csv``.
Truth: ``progress.csv``'s train loss (QR-DQN ``train/loss``, TQC ``train/critic_loss``, TRPO ``train/value_loss``)
at its ``time/total_timesteps``. Its own ``progress.csv`` and ``monitor.csv`` are kept."""

from __future__ import annotations

import argparse
import csv
import math
import os
from pathlib import Path

from h69_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algo", default="qrdqn", choices=["qrdqn", "tqc", "trpo"])
ap.add_argument("--env", default="")
ap.add_argument("--steps", type=int, default=5000)
ap.add_argument("--lr", type=float, default=None)
ap.add_argument("--batch", type=int, default=None)
ap.add_argument("--log-interval", type=int, default=None)
ap.add_argument("--n-steps", type=int, default=None, help="TRPO: steps a rollout")
ap.add_argument("--learning-starts", type=int, default=None)
ap.add_argument("--gamma", type=float, default=0.99)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import gymnasium as gym  # noqa: E402
import sb3_contrib  # noqa: E402
from sb3_contrib import QRDQN, TQC, TRPO  # noqa: E402
from stable_baselines3.common.logger import configure  # noqa: E402
from stable_baselines3.common.monitor import Monitor  # noqa: E402

env_id = a.env or ("Pendulum-v1" if a.algo == "tqc" else "CartPole-v1")
folder = Path(os.getcwd()) / "sb3_log"
env = Monitor(gym.make(env_id), str(folder / "monitor"))
kw: dict = {"seed": 0, "verbose": 1, "gamma": a.gamma, "policy_kwargs": {"net_arch": [32, 32]}}
if a.lr is not None:
    kw["learning_rate"] = a.lr
if a.batch is not None:
    kw["batch_size"] = a.batch
if a.learning_starts is not None:
    kw["learning_starts"] = a.learning_starts
if a.algo == "qrdqn":
    kw["policy_kwargs"]["n_quantiles"] = 25
    model = QRDQN("MlpPolicy", env, buffer_size=10000, target_update_interval=250, train_freq=4,
                  exploration_fraction=0.3, **kw)
    loss_key, interval = "train/loss", a.log_interval or 10
elif a.algo == "tqc":
    kw["policy_kwargs"].update(n_critics=2, n_quantiles=10)
    model = TQC("MlpPolicy", env, buffer_size=10000, top_quantiles_to_drop_per_net=2, **kw)
    loss_key, interval = "train/critic_loss", a.log_interval or 2
else:
    if a.n_steps is not None:
        kw["n_steps"] = a.n_steps
    model = TRPO("MlpPolicy", env, **kw)
    loss_key, interval = "train/value_loss", a.log_interval or 1
model.set_logger(configure(str(folder), ["stdout", "csv"]))
model.learn(total_timesteps=a.steps, log_interval=interval)

with open(folder / "progress.csv") as f:
    rows = list(csv.DictReader(f))
train = [(int(r["time/total_timesteps"]), float(r[loss_key])) for r in rows if r.get(loss_key, "") != ""]
train = [(s, v if math.isfinite(v) else float("nan")) for s, v in train]
keep(folder / "progress.csv")
keep(folder / "monitor.monitor.csv", "monitor.csv")
write_truth(framework=f"sb3-contrib {sb3_contrib.__version__}", settings=vars(a), loss_name=loss_key,
            step_unit="environment timesteps (`total_timesteps` in the table's `time/` group)",
            tolerance=tol_sig(3), record=f"SB3's logger's own progress.csv (`{loss_key}` at `time/total_timesteps`)",
            train_loss=train,
            ep_rew_mean=[(int(r["time/total_timesteps"]), float(r["rollout/ep_rew_mean"])) for r in rows
                         if r.get("rollout/ep_rew_mean", "") != ""])
