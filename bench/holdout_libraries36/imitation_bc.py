"""imitation: behavioral cloning (``imitation.algorithms.bc.BC``) of a hand-written CartPole-v1 expert (a rule on the
pole's angle and angular velocity; gymnasium's built-in environment, no download), its demonstrations collected with
``imitation.data.rollout``, as the library's BC tutorial does. The logger is the library's own
(``imitation.util.logger.configure("logs/bc", ["stdout", "log", "csv"])``): a table on stdout every ``log_interval``
batches (``| bc/loss | 0.693 |``, SB3's ``{:<8.3g}``), the same tables in ``logs/bc/log.txt`` (kept, scored too)
and the values in ``logs/bc/progress.csv``; ``train``'s tqdm progress bar on stderr. Truth: ``progress.csv`` (the
library's own CSV), ``bc/loss`` at ``bc/batch`` (0-based batch count across epochs, as the table prints it)."""

from __future__ import annotations

import argparse
import csv
import math

import numpy as np
from h36_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "rmsprop"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--epochs", type=int, default=4)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--log-interval", type=int, default=500)
ap.add_argument("--episodes", type=int, default=20)
ap.add_argument("--ent-weight", type=float, default=1e-3)
ap.add_argument("--l2-weight", type=float, default=0.0)
ap.add_argument("--noise", type=float, default=0.0, help="fraction of the expert's actions replaced at random")
ap.add_argument("--lr-growth", type=float, default=1.0, help="on_epoch_end: the rate multiplied by this")
ap.add_argument("--rollouts", action="store_true", help="log_rollouts_venv: the clone's return at each log")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import imitation  # noqa: E402
import torch as th  # noqa: E402
from imitation.algorithms import bc  # noqa: E402
from imitation.data import rollout  # noqa: E402
from imitation.data.wrappers import RolloutInfoWrapper  # noqa: E402
from imitation.util import logger as imit_logger  # noqa: E402
from imitation.util.util import make_vec_env  # noqa: E402

th.set_num_threads(1)
rng = np.random.default_rng(0)
venv = make_vec_env("CartPole-v1", rng=rng, n_envs=2, post_wrappers=[lambda env, _: RolloutInfoWrapper(env)])
noise_rng = np.random.default_rng(1)


def expert(obs, state=None, episode_start=None):
    acts = (obs[:, 2] + 0.5 * obs[:, 3] > 0).astype(np.int64)
    flip = noise_rng.random(len(acts)) < a.noise
    acts[flip] = noise_rng.integers(0, 2, flip.sum())
    return acts, None


trajs = rollout.rollout(expert, venv, rollout.make_sample_until(min_episodes=a.episodes), rng=rng)
transitions = rollout.flatten_trajectories(trajs)
print(f"{len(trajs)} expert episodes, {len(transitions)} transitions")

opt = {"adam": th.optim.Adam, "sgd": th.optim.SGD, "rmsprop": th.optim.RMSprop}[a.optimizer]
log = imit_logger.configure("logs/bc", ["stdout", "log", "csv"])
trainer = bc.BC(observation_space=venv.observation_space, action_space=venv.action_space, demonstrations=transitions,
                rng=rng, batch_size=a.batch, optimizer_cls=opt, optimizer_kwargs={"lr": a.lr},
                ent_weight=a.ent_weight, l2_weight=a.l2_weight, custom_logger=log)


def grow_lr():
    for g in trainer.optimizer.param_groups:
        g["lr"] *= a.lr_growth


trainer.train(n_epochs=a.epochs, log_interval=a.log_interval, log_rollouts_venv=venv if a.rollouts else None,
              on_epoch_end=grow_lr if a.lr_growth != 1.0 else None)
log.close()

rows = list(csv.DictReader(open("logs/bc/progress.csv")))
pts = []
for r in rows:
    v = float(r["bc/loss"])
    pts.append((int(float(r["bc/batch"])), v if math.isfinite(v) else ("nan" if math.isnan(v) else str(v))))
keep("logs/bc/log.txt", "log.txt")
keep("logs/bc/progress.csv", "progress.csv")
common = dict(framework=f"imitation {imitation.__version__}", settings=vars(a), loss_name="bc/loss",
              step_unit="batch, 0-based, across epochs (the `bc/batch` row)", tolerance=tol_sig(3),
              record="the library's own logger CSV `logs/bc/progress.csv` (`bc/loss` at `bc/batch`)",
              train_loss=pts, steps_per_epoch=math.ceil(len(transitions) / a.batch))
write_truth(**common)
# its own log file (`logs/bc/log.txt`: the stdout tables without tqdm's bar), scored too
write_truth(**common, name="truth_store.json", file="log.txt")
