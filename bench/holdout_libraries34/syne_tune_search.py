"""syne-tune: a ``Tuner`` on its ``LocalBackend`` (one worker) running ``syne_trial.py`` (a numpy linear regression
trained by gradient descent, reporting ``mean_loss`` each epoch) under ``RandomSearch`` or ``ASHA`` over the learning
rate (log-uniform), optionally starting with ``points_to_evaluate`` (a user's learning-rate sweep, in its order).
syne-tune prints its own banner, its logger's INFO lines on stderr, a line per trial started / completed / stopped, and
its status table (`Resource summary (last result is reported):`, pandas-formatted: ``trial_id status iter lr epochs
epoch mean_loss worker-time``) every ``print_update_interval`` seconds and at the end. Truth: the tuner's own status
(``tuner.tuning_status.trial_rows``, what its table prints): each trial's last reported ``mean_loss``, at the trial
id (0-based), for the trials that reported one (ASHA's stopped trials run on to their end under the local backend:
the table shows their last result, where its ``results.csv.zip`` keeps the results up to the stop decision)."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from h34_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--scheduler", default="random", choices=["random", "asha"])
ap.add_argument("--trials", type=int, default=8)
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lo", type=float, default=1e-3)
ap.add_argument("--hi", type=float, default=0.5)
ap.add_argument("--points", default="", help="learning rates to evaluate first, in order")
ap.add_argument("--print-every", type=float, default=30.0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import syne_tune  # noqa: E402
from syne_tune import StoppingCriterion, Tuner  # noqa: E402
from syne_tune.backend import LocalBackend  # noqa: E402
from syne_tune.config_space import loguniform  # noqa: E402
from syne_tune.optimizer.baselines import ASHA, RandomSearch  # noqa: E402

logging.getLogger().setLevel(logging.INFO)
cs = {"lr": loguniform(a.lo, a.hi), "epochs": a.epochs}
points = [{"lr": float(p)} for p in a.points.split(",") if p] or None
if a.scheduler == "asha":
    sched = ASHA(cs, metric="mean_loss", time_attr="epoch", max_t=a.epochs, do_minimize=True, random_seed=0,
                 points_to_evaluate=points)
else:
    sched = RandomSearch(cs, metrics=["mean_loss"], do_minimize=True, random_seed=0, points_to_evaluate=points)
entry = str(Path(__file__).resolve().parent / "syne_trial.py")
tuner = Tuner(trial_backend=LocalBackend(entry_point=entry), scheduler=sched,
              stop_criterion=StoppingCriterion(max_num_trials_finished=a.trials), n_workers=1, sleep_time=0.2,
              print_update_interval=a.print_every, tuner_name=f"h34-{a.scheduler}")
tuner.run()

path = Path(tuner.tuner_path)
rows = tuner.tuning_status.trial_rows
last = [(int(t), float(r["mean_loss"])) for t, r in sorted(rows.items()) if r.get("mean_loss") is not None]
keep(path / "metadata.json")
write_truth(framework=f"syne-tune {syne_tune.__version__}", settings=vars(a), loss_name="mean_loss",
            step_unit="trial id, 0-based (the status table's `trial_id`)",
            tolerance={"rel": 5.1e-6, "abs": 5.1e-7},
            record="the tuner's own status (`tuner.tuning_status.trial_rows`, the rows its table prints: each "
                   "trial's last reported mean_loss)",
            train_loss=last)
