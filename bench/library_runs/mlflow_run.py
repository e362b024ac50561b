"""A user's PyTorch loop logging to MLflow: ``mlflow.log_metric('train_loss', v, step=s)`` into MLflow 3's
default local store (a sqlite ``mlflow.db`` in the working directory) or a ``mlruns/`` file store, and printing
a line per epoch or none.

Truth: the store itself, read back with ``MlflowClient.get_metric_history`` (at MLflow's ``step``); the
``mlflow.db`` (or ``mlruns/``) is kept beside the log.
"""

from __future__ import annotations

import argparse
import os

from _toy import toy_args, train
from _truth import common_args, keep, settings_of, write_truth

p = argparse.ArgumentParser()
p.add_argument("--store", default="sqlite", help="sqlite (the default mlflow.db) / file (mlruns/)")
toy_args(p)
common_args(p)
args = p.parse_args()

if args.store == "file":
    os.environ["MLFLOW_TRACKING_URI"] = "file:./mlruns"
    os.environ["MLFLOW_ALLOW_FILE_STORE"] = "true"  # MLflow 3 keeps the file store in maintenance: opt in
import mlflow  # noqa: E402

mlflow.set_experiment("tiny-regression")
with mlflow.start_run(run_name="mlp") as run:
    mlflow.log_params({"lr": args.lr, "epochs": args.epochs})

    def log(step: int, loss: float) -> None:
        mlflow.log_metric("train_loss", loss, step=step)
        if args.print:
            print(f"step {step}: train_loss={loss:.5f}")

    train(log, epochs=args.epochs, lr=args.lr, seed=args.seed, every=args.every, growth=args.growth)
hist = mlflow.MlflowClient().get_metric_history(run.info.run_id, "train_loss")
keep("mlruns" if args.store == "file" else "mlflow.db")
write_truth(framework=f"mlflow ({args.store} store)", settings=settings_of(args), label=args.label,
            should_stop=args.should_stop, loss_name="train_loss", step_unit="MLflow metric step (global step)",
            tolerance={"rel": 1e-5, "abs": 5e-6}, record="MlflowClient.get_metric_history of the run's store",
            train_loss=[(m.step, m.value) for m in sorted(hist, key=lambda m: (m.step, m.timestamp))],
            run_id=run.info.run_id)
