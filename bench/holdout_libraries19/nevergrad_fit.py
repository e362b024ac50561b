"""nevergrad: a tiny model trained without gradients, as its docs' "minimize a loss" examples write it. The model's
weights are the parametrization (``ng.p.Array``), the loss is its training loss on a small synthetic table (mean
squared error of a linear regression, or the log loss of a logistic regression computed as a user first writes it),
and ``optimizer.minimize(loss, verbosity=2)`` prints its own progress on stdout, per evaluation: ``Launching 1 jobs
with new suggestions`` / ``Updating fitness with value 3.671777`` / ``39 remaining budget and 0 running jobs`` /
``Current pessimistic best is: MultiValue<mean: ..., count: 1, parameter: Array{(6,)}:[...]>`` (the value as
Python's ``str``). nevergrad's ``ParametersLogger`` callback writes its own JSON-lines file, one line a ``tell``
(``#loss``, ``#num-tell``, the candidate's values): kept as ``parameters_log.json``, the truth's source. Truth:
``#loss`` at ``#num-tell`` (0-based: the evaluations told before it); nevergrad stores a non-finite loss clipped to
5e20 (with a ``LossTooLargeWarning`` on stderr), so there the value the loss returned (``nan``, ``inf``, as its log
prints it) is the truth."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from h19_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--optimizer", default="OnePlusOne")
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--budget", type=int, default=40)
ap.add_argument("--sigma", type=float, default=1.0, help="the parametrization's mutation scale")
ap.add_argument("--n", type=int, default=200)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import nevergrad as ng  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 5)) * np.array([1.0, 3.0, 0.5, 2.0, 4.0])
w_true = np.array([1.5, -2.0, 0.7, 1.0, -0.5])
if a.task == "reg":
    y = X @ w_true + 3.0 + rng.normal(scale=0.5, size=a.n)
else:
    y = (X @ w_true + rng.normal(scale=1.0, size=a.n) > 0).astype(float)


told: list[float] = []  # the values the loss returned, in order (only to undo nevergrad's clipping, below)


def loss(w: np.ndarray) -> float:
    z = X @ w[:5] + w[5]
    with np.errstate(all="ignore"):
        if a.task == "reg":
            v = float(np.mean((z - y) ** 2))
        else:
            p = 1 / (1 + np.exp(-z))
            v = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    told.append(v)
    return v


param = ng.p.Array(shape=(6,)).set_mutation(sigma=a.sigma)
param.random_state = np.random.RandomState(0)
opt = ng.optimizers.registry[a.optimizer](parametrization=param, budget=a.budget, num_workers=1)
log_file = Path("parameters_log.json")
opt.register_callback("tell", ng.callbacks.ParametersLogger(log_file))
rec = opt.minimize(loss, verbosity=2)
print(f"recommendation: {rec.value}", flush=True)

# nevergrad clips a non-finite or huge loss to 5e20 before it stores it (its LossTooLargeWarning); its log prints the
# value told (``nan``, ``inf``), so a clipped value is replaced by the value the loss returned at that tell.
CLIPPED = 5e20
rows = [json.loads(ln) for ln in log_file.read_text().splitlines() if ln.strip()]
keep(log_file)
write_truth(framework=f"nevergrad {ng.__version__}", settings=vars(a),
            loss_name="fitness value (MSE)" if a.task == "reg" else "fitness value (log loss)",
            step_unit="evaluation, 0-based (`#num-tell` of its ParametersLogger; one `Updating fitness with value` "
                      "line each)", tolerance=tol_sig(12),
            record="nevergrad's `ParametersLogger` file (`parameters_log.json`: `#loss` at `#num-tell`; its 5e20, the "
                   "value nevergrad clips a non-finite loss to, as the value told, nan or inf)",
            train_loss=[(r["#num-tell"], told[r["#num-tell"]] if r["#loss"] == CLIPPED else r["#loss"]) for r in rows])
