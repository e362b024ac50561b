"""NeuralHydrology: a tiny rainfall-runoff LSTM trained with its own command, ``nh-run train --config-file cfg.yml``
(called in-process, as the console script does), on its ``generic`` dataset layout filled with a few synthetic
basins (daily precipitation and temperature driving a linear reservoir; netCDF time series and an attributes CSV;
no download). NeuralHydrology logs with Python's logging to stdout (``2026-12-06 22:28:04,791: Epoch 7 average loss:
avg_loss: 0.03752, avg_total_loss: 0.03752``, 5 decimals; the validation line with its metrics) and to its own
``output.log``, and draws a tqdm bar per epoch on stdout whose postfix is each batch's loss (``Loss: 0.0234``, 4
decimals) unless ``verbose: 0``. Truth: the TensorBoard scalars it writes with ``log_tensorboard: True``
(``train/avg_total_loss`` at each epoch, 1-based)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from h53_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="cudalstm", choices=["cudalstm", "ealstm", "gru"])
ap.add_argument("--loss", default="MSE", choices=["MSE", "NSE", "RMSE"])
ap.add_argument("--optimizer", default="Adam", choices=["Adam", "AdamW"])
ap.add_argument("--lr", default="0:0.005", help="NeuralHydrology's learning_rate: epoch:rate pairs, comma-separated")
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--batch", type=int, default=64)
ap.add_argument("--hidden", type=int, default=16)
ap.add_argument("--seq-length", type=int, default=30)
ap.add_argument("--basins", type=int, default=3)
ap.add_argument("--years", type=int, default=2, help="training years")
ap.add_argument("--validate-every", type=int, default=1, help="0: no validation")
ap.add_argument("--no-metrics", action="store_true", help="validation without NSE / KGE metrics")
ap.add_argument("--early-stopping", action="store_true")
ap.add_argument("--verbose", type=int, default=1, choices=[0, 1])
ap.add_argument("--clip", type=float, default=1.0, help="clip_gradient_norm; 0: none")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import xarray as xr  # noqa: E402
from ruamel.yaml import YAML  # noqa: E402

rng = np.random.default_rng(0)
data = Path("data")
(data / "time_series").mkdir(parents=True, exist_ok=True)
(data / "attributes").mkdir(exist_ok=True)
first, n_years = 2000, a.years + 2
dates = pd.date_range(f"{first}-01-01", f"{first + n_years - 1}-12-31", freq="D")
basins = [f"basin_{i:02d}" for i in range(a.basins)]
attributes = []
for i, basin in enumerate(basins):
    n = len(dates)
    doy = dates.day_of_year.values
    tmax = 15 + 10 * np.sin(2 * np.pi * (doy - 100) / 365) + rng.normal(0, 2, n)
    prcp = rng.gamma(0.6, 6.0, n) * (rng.random(n) < 0.4)
    k = 0.05 + 0.04 * i
    store, q = 0.0, np.zeros(n)
    for t in range(n):
        store = max(store + prcp[t] - 0.05 * max(tmax[t], 0.0), 0.0)
        q[t] = k * store
        store -= q[t]
    ds = xr.Dataset({"prcp": ("date", prcp), "tmax": ("date", tmax), "qobs": ("date", q)}, coords={"date": dates})
    ds.to_netcdf(data / "time_series" / f"{basin}.nc")
    attributes.append({"gauge_id": basin, "area": 100.0 * (i + 1), "aridity": 0.5 + 0.2 * i})
pd.DataFrame(attributes).to_csv(data / "attributes" / "attributes.csv", index=False)
Path("basins.txt").write_text("\n".join(basins) + "\n")

end_train = first + a.years - 1
lr = {int(e): float(r) for e, r in (p.split(":") for p in a.lr.split(","))}
cfg: dict = {
    "experiment_name": f"tiny_{a.model}", "run_dir": "./runs",
    "train_basin_file": "basins.txt", "validation_basin_file": "basins.txt", "test_basin_file": "basins.txt",
    "train_start_date": f"01/01/{first}", "train_end_date": f"31/12/{end_train}",
    "validation_start_date": f"01/01/{end_train + 1}", "validation_end_date": f"31/12/{end_train + 1}",
    "test_start_date": f"01/01/{end_train + 2}", "test_end_date": f"31/12/{end_train + 2}",
    "device": "cpu", "seed": 1, "verbose": a.verbose,
    "model": a.model, "head": "regression", "output_activation": "linear", "hidden_size": a.hidden,
    "initial_forget_bias": 3, "output_dropout": 0.2, "optimizer": a.optimizer, "loss": a.loss,
    "learning_rate": lr, "batch_size": a.batch, "epochs": a.epochs, "predict_last_n": 1,
    "seq_length": a.seq_length, "num_workers": 0, "log_interval": 5, "log_tensorboard": True, "log_n_figures": 0,
    "save_weights_every": a.epochs + 1, "dataset": "generic", "data_dir": "./data",
    "dynamic_inputs": ["prcp", "tmax"], "target_variables": ["qobs"], "static_attributes": ["area", "aridity"],
}
if a.clip:
    cfg["clip_gradient_norm"] = a.clip
if a.validate_every:
    cfg.update(validate_every=a.validate_every, validate_n_random_basins=a.basins)
    if not a.no_metrics:
        cfg["metrics"] = ["NSE", "KGE"]
if a.early_stopping:
    cfg.update(early_stopping=True, patience_early_stopping=3, minimum_epochs_before_early_stopping=4,
               patience_dynamic_learning_rate=2, factor_dynamic_learning_rate=0.5)
with open("cfg.yml", "w") as f:
    YAML().dump(cfg, f)

from neuralhydrology.__about__ import __version__ as nh_version  # noqa: E402
from neuralhydrology.nh_run import _main  # noqa: E402

sys.argv = ["nh-run", "train", "--config-file", "cfg.yml"]
try:
    _main()
except SystemExit:
    pass
except RuntimeError as e:  # a NaN loss ends the training (kept: a real outcome; the traceback is in the log)
    print(f"nh-run ended: {e}", file=sys.stderr)

import logging  # noqa: E402

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

logging.disable(logging.INFO)  # the training is over: TensorBoard's reader logs nothing into nh-run's log

(run_dir,) = sorted(Path("runs").iterdir())
events = EventAccumulator(str(run_dir), size_guidance={"scalars": 0})
events.Reload()
keep(run_dir / "output.log")


def series(tag: str) -> list[tuple[int, float]] | None:
    return [(s.step, s.value) for s in events.Scalars(tag)] if tag in events.Tags()["scalars"] else None


valid = series("valid/avg_total_loss")
write_truth(framework=f"neuralhydrology {nh_version}", settings=vars(a), loss_name="avg_total_loss",
            step_unit="epoch, 1-based (`Epoch 3 average loss: ...`)", tolerance={"rel": 2e-07, "abs": 0.51e-05},
            record="the TensorBoard scalars it writes (`train/avg_total_loss`: the mean of the batch losses of the "
                   "epoch, stored as float32: `rel` covers that rounding of large losses), read with "
                   "TensorBoard's `EventAccumulator`",
            train_loss=series("train/avg_total_loss") or [], eval_loss=valid,
            eval_name="validation avg_total_loss" if valid else None)
