"""NeuralProphet 0.9: ``NeuralProphet(...).fit(df, freq="D")`` on a synthetic daily series (trend, weekly and
yearly seasonality, noise), optionally autoregressive (``n_lags``).

``fit`` draws Lightning's tqdm bar (``progress="bar"``, the default: one ``\\r`` redraw a batch, its postfix the
epoch's ``Loss``, ``RegLoss``, ``MAE``, ``RMSE``) and returns the per-epoch metrics as a DataFrame, which the user
prints (``print(metrics.to_string())``: a table, the column names over one row an epoch, printed once at the end)
or, with ``progress="print"``-like habits, prints as it goes. Its own ``INFO - (NP.df_utils...)`` logging goes
to stderr. Truth: the returned metrics' ``Loss`` at its ``epoch`` (0-based, as printed).
"""

from __future__ import annotations

import argparse
import logging

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=30)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--n-lags", type=int, default=0)
ap.add_argument("--print-table", default="end", choices=["end", "none"])
ap.add_argument("--progress", default="bar", choices=["bar", "none"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402
from neuralprophet import NeuralProphet, set_random_seed  # noqa: E402

torch.set_num_threads(1)
set_random_seed(0)
rng = np.random.default_rng(0)
n = 3 * 365
t = np.arange(n)
y = 10 + 0.01 * t + 2 * np.sin(2 * np.pi * t / 7) + 3 * np.sin(2 * np.pi * t / 365.25) + rng.normal(0, 0.7, n)
df = pd.DataFrame({"ds": pd.date_range("2020-01-01", periods=n, freq="D"), "y": y})
kw = {"n_lags": a.n_lags} if a.n_lags else {}
m = NeuralProphet(epochs=a.epochs, learning_rate=a.lr, batch_size=64, **kw)
metrics = m.fit(df, freq="D", progress=None if a.progress == "none" else "bar")
if a.print_table == "end":
    print(metrics.to_string())
logging.shutdown()
write_truth(framework="neuralprophet", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="train_loss", step_unit="epoch, 0-based (the returned metrics' epoch column)",
            # the bar's postfix prints 3 significant digits (``train_loss=0.0774``); the table 6 decimals
            tolerance={"rel": 5.1e-3, "abs": 5.1e-7},
            record="the DataFrame fit() returns: its train_loss per epoch",
            train_loss=[(int(e), float(v)) for e, v in zip(metrics["epoch"], metrics["train_loss"], strict=True)])
