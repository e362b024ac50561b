"""Ax (ax-platform): a search over a small training's learning rate (and momentum) with its Service API's
``AxClient`` loop (``get_next_trial`` / ``complete_trial``), as its tutorials show: its default generation strategy
(Sobol then BoTorch Bayesian optimisation) or a learning-rate sweep attached in increasing order
(``attach_trial``). Its own logger on stderr (``[INFO 12-06 12:35:25] ax.service.ax_client: ...``): per trial
``Generated new trial 3 with parameters {'lr': 0.000131} using model Sobol.`` (an attached trial has no such line)
then ``Completed trial 3 with data: {'loss': 39.061544}.`` (floats rounded to 6 decimals
for the log, large ones in full: ``3.919375305953931e+16``), with its warnings (the deprecated ``AxClient``, the
seed; a sweep's rates outside the bounds warned). The script prints ``get_trials_data_frame()`` at the end.
The objective is the training's final loss (tiny_train.py). Truth: the experiment's data
(``ax_client.experiment.fetch_data().df``, ``mean`` of ``loss`` per ``trial_index``), at the trial index the log
prints (0-based)."""

from __future__ import annotations

import argparse
import math

from h30_truth import seed_all, tol_decimals, write_truth
from tiny_train import train

ap = argparse.ArgumentParser()
ap.add_argument("--mode", default="bo", choices=["bo", "sweep"])
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--lr-min", type=float, default=1e-4)
ap.add_argument("--lr-max", type=float, default=0.05)
ap.add_argument("--lrs", default="0.0003,0.001,0.003,0.01,0.03")
ap.add_argument("--momentum", type=float, default=None, help="a fixed momentum (else 0, or searched)")
ap.add_argument("--search-momentum", action="store_true")
ap.add_argument("--epochs", type=int, default=30)
ap.add_argument("--trials", type=int, default=10)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

from ax.service.ax_client import AxClient, ObjectiveProperties  # noqa: E402

ax_client = AxClient(random_seed=0)
params = [{"name": "lr", "type": "range", "bounds": [a.lr_min, a.lr_max], "log_scale": True}]
if a.search_momentum:
    params.append({"name": "momentum", "type": "range", "bounds": [0.0, 0.95]})
ax_client.create_experiment(name="tiny_training", parameters=params,
                            objectives={"loss": ObjectiveProperties(minimize=True)})


def evaluate(p: dict) -> float:
    mom = p.get("momentum", a.momentum if a.momentum is not None else 0.0)
    return train(float(p["lr"]), a.epochs, float(mom), a.task)


if a.mode == "sweep":
    for lr in [float(v) for v in a.lrs.split(",")]:
        p, idx = ax_client.attach_trial(parameters={"lr": lr})
        ax_client.complete_trial(trial_index=idx, raw_data={"loss": evaluate(p)})
else:
    for _ in range(a.trials):
        p, idx = ax_client.get_next_trial()
        ax_client.complete_trial(trial_index=idx, raw_data={"loss": evaluate(p)})

df = ax_client.experiment.fetch_data().df
df = df[df["metric_name"] == "loss"].sort_values("trial_index")
train_loss = [(int(t), float(m)) for t, m in zip(df["trial_index"], df["mean"], strict=True)]
print(ax_client.get_trials_data_frame().to_string())
write_truth(framework=f"ax-platform {version('ax-platform')}", settings=vars(a), loss_name="loss",
            step_unit="trial index, 0-based (`Completed trial N with data`)", tolerance=tol_decimals(6),
            record="the experiment's data (`ax_client.experiment.fetch_data().df`, the `mean` of `loss` per trial)",
            train_loss=train_loss, n_nonfinite=sum(not math.isfinite(v) for _, v in train_loss))
