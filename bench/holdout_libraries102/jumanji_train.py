"""Jumanji: its A2C agent trained by its own training script (``jumanji.training.train.train``, a Hydra
``@hydra.main`` over the configs shipped in the package; called in-process with the command line a user types, as
``python -m jumanji.training.train`` does) on one of its JAX environments, with its default terminal logger: Python
logging on stderr, after every epoch ``Eval Stochastic >> ...``, ``Eval Greedy >> ...`` and ``Train >> Env Steps:
1.60e+03 | ... | Total Loss: 12.345 | ...`` (``%.3f``). Hydra also writes its own log file and config copies in
``outputs/DATE/TIME/`` (kept). The configs are found by ``--config-path`` (the wheel's ``configs`` folder is no
package, so Hydra's default module lookup fails). Truth: the metrics dict each epoch's training hands the logger
(``label='train'``), recorded by Jumanji's own ``ListLogger`` beside the terminal one: ``total_loss`` at the epoch's
``env_steps``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from h102_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--env", default="tsp")
ap.add_argument("--epochs", type=int, default=12)
ap.add_argument("--learner-steps", type=int, default=10)
ap.add_argument("--n-steps", type=int, default=20)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--eval-batch", type=int, default=16)
ap.add_argument("--lr", type=float, default=None)
ap.add_argument("--blocks", type=int, default=1)
ap.add_argument("--mlp", type=int, default=64)
ap.add_argument("--normalize-advantage", action="store_true")
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import jax  # noqa: E402
import jumanji  # noqa: E402
import jumanji.training  # noqa: E402
from jumanji.training.loggers import ListLogger, TerminalLogger  # noqa: E402

record = ListLogger()
steps: list[int] = []
_write = TerminalLogger.write


def write(self, data, label=None, env_steps=None):
    if label == "train":
        record.write(data, label=label, env_steps=env_steps)
        steps.append(int(env_steps))
    _write(self, data, label=label, env_steps=env_steps)


TerminalLogger.write = write

from jumanji.training.train import train  # noqa: E402

home = Path.cwd()
configs = Path(jumanji.training.__file__).parent / "configs"
over = [f"env={a.env}", "agent=a2c", f"seed={a.seed}", f"env.training.num_epochs={a.epochs}",
        f"env.training.num_learner_steps_per_epoch={a.learner_steps}", f"env.training.n_steps={a.n_steps}",
        f"env.training.total_batch_size={a.batch}", f"env.evaluation.eval_total_batch_size={a.eval_batch}",
        f"env.evaluation.greedy_eval_total_batch_size={a.eval_batch}"]
if a.env in ("tsp", "knapsack", "cvrp"):
    over += [f"env.network.transformer_num_blocks={a.blocks}", f"env.network.transformer_mlp_units=[{a.mlp}]"]
if a.lr is not None:
    over.append(f"env.a2c.learning_rate={a.lr}")
if a.normalize_advantage:
    over.append("env.a2c.normalize_advantage=true")
sys.argv = ["train.py", "--config-path", str(configs), *over]
try:
    train()
except SystemExit:
    pass
os.chdir(home)

fw = f"jumanji {jumanji.__version__}"
loss = [(s, float(v)) for s, v in zip(steps, record.history["total_loss"], strict=True)]
unit = "env steps before the epoch (`Env Steps: 1.60e+03`, `%.2e`): epoch i (0-based) x n_steps x total_batch_size x "\
       "num_learner_steps_per_epoch"
rec = "Jumanji's `ListLogger` fed the metrics each epoch's training hands the terminal logger (`label='train'`): "\
      "`total_loss` at its `env_steps`"
write_truth(framework=fw, settings=vars(a), loss_name="Total Loss", step_unit=unit, tolerance=tol_decimals(3),
            record=rec, train_loss=loss)
logs = sorted(home.glob("outputs/*/*/*.log"))
if logs:
    keep(home / "outputs")
    write_truth(framework=fw, settings=vars(a), loss_name="Total Loss", step_unit=unit, tolerance=tol_decimals(3),
                record=rec + " (Hydra's own log file of the run, its `Train >>` lines)", train_loss=loss,
                name="truth_store.json", file=str(logs[-1].relative_to(home)))
jax.effects_barrier()
