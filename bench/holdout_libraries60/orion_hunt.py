"""orion: ``orion -v hunt`` (its command line, verbose) over a learning-rate sweep of a tiny numpy model: the user's
script trains a linear regression (or a logistic one) by full-batch gradient descent for ``--steps`` steps and
reports its final training loss with ``orion.client.report_objective``; orion's algorithm (``random``, ``tpe``,
``gridsearch``) picks each trial's ``lr`` from a ``loguniform`` prior, one trial after another, stored in a pickled
database. orion's own log (``-v``: INFO on stderr) prints each trial's result
(``Completed trials with results: [Result(name='objective', type='objective', value=17.845999786113513)]``), then
``Search finished successfully`` and its stats. Truth: the experiment's trials in its storage (``objective`` of each
completed trial, in the order they finished, 1-based)."""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
from pathlib import Path

from h60_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algo", default="random", choices=["random", "tpe", "gridsearch"])
ap.add_argument("--trials", type=int, default=10)
ap.add_argument("--lo", type=float, default=1e-3)
ap.add_argument("--hi", type=float, default=0.5)
ap.add_argument("--steps", type=int, default=30)
ap.add_argument("--task", default="linreg", choices=["linreg", "logreg"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

SCRIPT = '''"""The user's training script: full-batch gradient descent, its final training loss reported to orion."""
import argparse
import numpy as np
from orion.client import report_objective

p = argparse.ArgumentParser()
p.add_argument("--lr", type=float, required=True)
p.add_argument("--steps", type=int, default=30)
p.add_argument("--task", default="linreg")
args = p.parse_args()
rng = np.random.default_rng(0)
X = rng.normal(size=(200, 10)) * np.linspace(0.5, 3.0, 10)
w_true = rng.normal(size=10)
w = np.zeros(10)
with np.errstate(all="ignore"):
    if args.task == "linreg":
        y = X @ w_true + 0.3 * rng.normal(size=200)
        for _ in range(args.steps):
            w -= args.lr * 2 * X.T @ (X @ w - y) / len(y)
        loss = float(np.mean((X @ w - y) ** 2))
    else:
        y = (X @ w_true + 0.5 * rng.normal(size=200) > 0).astype(float)
        for _ in range(args.steps):
            p_ = 1 / (1 + np.exp(-(X @ w)))
            w -= args.lr * X.T @ (p_ - y) / len(y)
        p_ = 1 / (1 + np.exp(-(X @ w)))
        loss = float(-np.mean(y * np.log(p_) + (1 - y) * np.log(1 - p_)))
report_objective(loss)
'''
Path("train.py").write_text(SCRIPT)
algo = {"random": "random:\n      seed: 1", "tpe": "tpe:\n      seed: 1\n      n_initial_points: 4",
        "gridsearch": f"gridsearch:\n      n_values: {a.trials}"}[a.algo]
Path("orion_config.yaml").write_text(f"""experiment:
  algorithm:
    {algo}
storage:
  type: legacy
  database:
    type: pickleddb
    host: orion_db.pkl
""")
orion_cli = str(Path(sys.executable).with_name("orion"))
cmd = [orion_cli, "-v", "hunt", "-c", "orion_config.yaml", "-n", "lr_sweep", "--exp-max-trials", str(a.trials),
       sys.executable, "train.py", f"--lr~loguniform({a.lo}, {a.hi})", "--steps", str(a.steps), "--task", a.task]
rc = subprocess.call(cmd)

import orion.core  # noqa: E402
from orion.client import get_experiment  # noqa: E402

exp = get_experiment("lr_sweep", storage={"type": "legacy", "database": {"type": "pickleddb", "host": "orion_db.pkl"}})
done = sorted((t for t in exp.fetch_trials() if t.status == "completed"), key=lambda t: t.end_time)
vals = [float(t.objective.value) for t in done]
keep("train.py")
keep("orion_config.yaml")
write_truth(framework=f"orion {orion.core.__version__}", settings=vars(a), loss_name="objective",
            step_unit="trial, 1-based, in the order trials completed (no number printed)",
            tolerance={"rel": 1e-9}, record="the experiment's completed trials in orion's storage "
            "(`exp.fetch_trials()`, `trial.objective.value`, ordered by `end_time`)",
            train_loss=list(enumerate(vals, 1)), orion_exit_code=rc,
            lrs=[t.params["/lr"] for t in done], nonfinite=[i for i, v in enumerate(vals, 1) if not math.isfinite(v)])
