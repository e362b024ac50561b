"""lightwood (MindsDB's AutoML): a predictor built the library's way (``json_ai_from_problem`` on a pandas frame,
the JSON-AI's mixers set to one neural mixer, ``code_from_json_ai``, ``predictor_from_code``, ``predictor.learn``)
on a small synthetic table (4 numeric columns; a numeric target for regression, a 3-class one for classification).
lightwood's colorlog logger prints to stderr, without a TTY too (ANSI colours, ``INFO:lightwood-PID:...``): the type
inference, the 7 or 8 learn phases, the mixer's learning-rate search when no rate is given (``Loss of 12.73 with
learning rate 0.0001`` ...), then ``Loss @ epoch 3: 0.2053928300738`` per epoch (1-based) of the mixer's training,
and with ``fit_on_all`` a second, shorter series of the same lines (the adjustment on the validation split). The
epoch's loss it logs is the mixer's ``_error``, the criterion's mean over the dev split's batches, computed after
each training epoch. Truth: lightwood keeps no record of it, so the values its ``Neural._error`` returns during the
mixer's training are recorded as they are returned (a pass-through wrapper that changes nothing), epoch 1-based.
"""

from __future__ import annotations

import argparse
from importlib.metadata import version
from typing import Any

from h91_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--epochs", type=int, default=10, help="the mixer's n_epochs (it trains n_epochs + 1)")
ap.add_argument("--lr", type=float, default=None, help="the mixer's lr (none: its own learning-rate search)")
ap.add_argument("--n", type=int, default=600)
ap.add_argument("--no-fit-on-all", action="store_true", help="problem_definition fit_on_all=False")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from lightwood.api.high_level import (  # noqa: E402
    ProblemDefinition,
    code_from_json_ai,
    json_ai_from_problem,
    predictor_from_code,
)
from lightwood.mixer import neural  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 4))
df = pd.DataFrame(X, columns=["a", "b", "c", "d"])
if a.task == "reg":
    df["y"] = np.sin(X[:, 0]) * 3 + X[:, 1] ** 2 + 0.1 * rng.normal(size=a.n)
else:
    W = rng.normal(size=(4, 3))
    df["y"] = np.array(["low", "mid", "high"])[(X @ W + 0.5 * rng.normal(size=(a.n, 3))).argmax(1)]

# the values the mixer's `_error` returns (the `Loss @ epoch` it logs), one list per `_max_fit` (training, then the
# adjustment); recorded as returned, nothing changed
phases: list[list[float]] = []
_max_fit, _error = neural.Neural._max_fit, neural.Neural._error


def max_fit(self: Any, *args: Any, **kw: Any) -> Any:
    phases.append([])
    return _max_fit(self, *args, **kw)


def error(self: Any, *args: Any, **kw: Any) -> float:
    v = _error(self, *args, **kw)
    phases[-1].append(float(v))
    return v


neural.Neural._max_fit = max_fit
neural.Neural._error = error

pdef = ProblemDefinition.from_dict({"target": "y", "time_aim": 60, "fit_on_all": not a.no_fit_on_all})
json_ai = json_ai_from_problem(df, pdef)
margs: dict[str, Any] = {"n_epochs": a.epochs}
if a.lr is not None:
    margs["lr"] = a.lr
json_ai.model["args"]["submodels"] = [{"module": "Neural", "args": margs}]
predictor = predictor_from_code(code_from_json_ai(json_ai))
try:
    predictor.learn(df)
finally:  # a learn that ends in an error (as lightwood's does on a NaN prediction) still leaves its record
    write_truth(framework=f"lightwood {version('lightwood')}", settings=vars(a),
                loss_name=f"`Loss @ epoch` (the Neural mixer's criterion on the dev split after each epoch: "
                          f"{'MSE' if a.task == 'reg' else 'weighted cross entropy'})",
                step_unit="epoch, 1-based (`Loss @ epoch 3:`), the mixer's training (not the adjustment's series)",
                tolerance={"rel": 1e-09, "abs": 0.0},
                record="the values lightwood's `Neural._error` returns during the mixer's `_max_fit` "
                       "(the ones it logs)",
                train_loss=list(enumerate(phases[0] if phases else [], 1)),
                adjust_loss=[list(p) for p in phases[1:]] or None)
