"""autogluon: ``TabularPredictor(label, path, verbosity=3 or 4, log_to_file=True).fit(...)`` with only its tabular
neural network (``hyperparameters={"NN_TORCH": {...}}``: epochs, learning rate, ``adam`` / ``sgd``, layers,
``epochs_wo_improve``), on a small synthetic table (binary, multiclass or regression), with a ``tuning_data`` table or
AutoGluon's own holdout split. At verbosity 3 and more the network logs one line an epoch on stdout (its logger):
``Epoch 3 (Update 27).\\tTrain loss: 0.6465, Val accuracy: 0.82, Best Epoch: 3`` (``round(x, 4)``), among AutoGluon's
other messages, and the same lines go to its own log file ``<path>/logs/predictor_log.txt`` (kept, scored too).
Truth: the values the network hands, once an epoch, to the ``reporter`` its ``_train_net`` takes (the one AutoGluon's
HPO passes: ``train_loss`` = the epoch's mean batch loss, ``epoch`` = the update count); a predictor's fit passes
none outside HPO, so the generator wraps ``_train_net`` to pass one, and changes nothing else. At the epoch, 1-based
(``Epoch N``), ``steps_per_epoch`` the updates an epoch."""

from __future__ import annotations

import argparse
import os

import numpy as np
from h13_truth import dest, keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="binary", choices=["binary", "multiclass", "regression"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--patience", type=int, default=None, help="epochs_wo_improve")
ap.add_argument("--layers", type=int, default=4)
ap.add_argument("--hidden", type=int, default=128)
ap.add_argument("--verbosity", type=int, default=4)
ap.add_argument("--tuning", action="store_true", help="give a tuning_data table (else AutoGluon's holdout)")
ap.add_argument("--n", type=int, default=600)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import autogluon.tabular  # noqa: E402
import pandas as pd  # noqa: E402
from autogluon.tabular import TabularPredictor  # noqa: E402
from autogluon.tabular.models.tabular_nn.torch.tabular_nn_torch import TabularNeuralNetTorchModel  # noqa: E402

reports: list[dict] = []
_train_net = TabularNeuralNetTorchModel._train_net


def _train_net_reporting(self, *args, **kwargs):
    kwargs["reporter"] = lambda **kw: reports.append(kw)
    return _train_net(self, *args, **kwargs)


TabularNeuralNetTorchModel._train_net = _train_net_reporting

rng = np.random.default_rng(0)
X = pd.DataFrame(rng.normal(size=(a.n, 6)), columns=[f"x{i}" for i in range(6)])
X["color"] = rng.choice(["red", "green", "blue"], size=a.n)
s = X.x0 + 2 * X.x1 - X.x2 * X.x3 + (X.color == "red") * 1.5 + rng.normal(scale=0.8, size=a.n)
if a.task == "binary":
    X["target"] = np.where(s > 0.5, "yes", "no")
elif a.task == "multiclass":
    X["target"] = pd.cut(s, [-np.inf, -1.0, 0.5, 2.0, np.inf], labels=["a", "b", "c", "d"]).astype(str)
else:
    X["target"] = 10.0 * s + 50.0

hp = {"num_epochs": a.epochs, "learning_rate": a.lr, "optimizer": a.optimizer, "num_layers": a.layers,
      "hidden_size": a.hidden}
if a.patience is not None:
    hp["epochs_wo_improve"] = a.patience
n_train = int(a.n * 0.8)
train, tune = X.iloc[:n_train], X.iloc[n_train:]
path = "AutogluonModels/ag-nn"
predictor = TabularPredictor(label="target", problem_type=a.task, path=path, verbosity=a.verbosity,
                             log_to_file=True)
predictor.fit(train if a.tuning else X, tuning_data=tune if a.tuning else None, hyperparameters={"NN_TORCH": hp},
              ag_args_fit={"num_cpus": 1, "num_gpus": 0})

per_epoch = reports[1]["epoch"] - reports[0]["epoch"] if len(reports) > 1 else reports[0]["epoch"]
common = dict(framework=f"autogluon {autogluon.tabular.__version__}", settings=vars(a), loss_name="Train loss",
              step_unit="epoch, 1-based (`Epoch N (Update U)`)", tolerance=tol_decimals(4),
              record="the values NN_TORCH's `_train_net` hands its `reporter` once an epoch (`train_loss`)",
              train_loss=[(i + 1, r["train_loss"]) for i, r in enumerate(reports)], steps_per_epoch=per_epoch)
write_truth(**common)
log_file = os.path.join(path, "logs", "predictor_log.txt")
if dest() is not None and os.path.isfile(log_file):
    keep(log_file)
    write_truth(name="truth_store.json", file="predictor_log.txt", **common)
