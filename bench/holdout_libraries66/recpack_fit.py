"""RecPack: its PyTorch recommenders (``BPRMF``, ``GRU4RecCrossEntropy``, ``GRU4RecNegSampling``, ``MultVAE``) trained
in a RecPack pipeline (``PipelineBuilder``: a scenario's train / validation / test split, ``add_algorithm`` with its
parameters, ``add_metric``, ``pipeline.run()``) on a tiny generated interaction matrix (users walking a ring of
items in time), as its quickstart does. RecPack's own logger (``recpack``, a stdout handler it installs on import)
prints per epoch ``2026-12-07 05:40:01,123 - base - recpack - INFO - Processed epoch 3 in 0.05 s.Batch Training Loss =
0.6911`` (4 decimals), the validation ``StoppingCriterion has value ...`` and ``Evaluation at end of 3 took 0.01 s.``;
tqdm bars (stderr, no TTY) count each epoch's batches. Truth: the losses each epoch's own ``_train_epoch`` returns
(one per batch, recorded as the algorithm returns them to its ``fit``), their mean, the number its log line prints,
at its epoch (0-based)."""

from __future__ import annotations

import argparse
import os
from importlib.metadata import version

from h66_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algo", default="BPRMF", choices=["BPRMF", "GRU4RecCrossEntropy", "GRU4RecNegSampling", "MultVAE"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--batch", type=int, default=64)
ap.add_argument("--optimizer", default=None, help="GRU4Rec's optimization_algorithm (adagrad / sgd)")
ap.add_argument("--momentum", type=float, default=0.0)
ap.add_argument("--clipnorm", type=float, default=1.0)
ap.add_argument("--criterion", default=None, help="stopping criterion (bpr / recall / ndcg)")
ap.add_argument("--users", type=int, default=300)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
# RecPack 0.3.6 keeps its best model with torch.save and reloads it with a bare torch.load, which torch >= 2.6 refuses
# (weights_only); torch's own switch for code that predates that default:
os.environ.setdefault("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")
seed_all(0)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import recpack.algorithms as algorithms  # noqa: E402
from recpack.matrix import InteractionMatrix  # noqa: E402
from recpack.pipelines import PipelineBuilder  # noqa: E402
from recpack.scenarios import LastItemPrediction, WeakGeneralization  # noqa: E402

rng = np.random.default_rng(0)
rows = []
for u in range(a.users):
    n, start, step = int(rng.integers(6, 16)), int(rng.integers(0, 80)), int(rng.integers(1, 4))
    for k in range(n):
        rows.append((u, (start + k * step + int(rng.integers(0, 2))) % 80, k * 60 + u))
df = pd.DataFrame(rows, columns=["user_id", "item_id", "ts"]).drop_duplicates(["user_id", "item_id"])
im = InteractionMatrix(df, "item_id", "user_id", timestamp_ix="ts")

# the record: what the algorithm's own `_train_epoch` hands back to its `fit` each epoch (its batches' losses)
cls = getattr(algorithms, a.algo)
RECORD: list[list[float]] = []
_own_epoch = cls._train_epoch


def _recorded_epoch(self: object, X: object) -> list[float]:
    losses = _own_epoch(self, X)
    RECORD.append([float(v) for v in losses])
    return losses


cls._train_epoch = _recorded_epoch

params: dict = {"max_epochs": a.epochs, "learning_rate": a.lr, "batch_size": a.batch, "seed": 0}
if a.algo == "BPRMF":
    params.update(num_components=16)
elif a.algo.startswith("GRU4Rec"):
    params.update(num_components=16, hidden_size=16, clipnorm=a.clipnorm, momentum=a.momentum)
    if a.optimizer:
        params["optimization_algorithm"] = a.optimizer
    if a.algo == "GRU4RecNegSampling":
        params["num_negatives"] = 5
else:
    params.update(dim_bottleneck_layer=32, dim_hidden_layer=64)
if a.criterion:
    params["stopping_criterion"] = a.criterion

scenario = (LastItemPrediction(validation=True, n_most_recent_in=10) if a.algo.startswith("GRU4Rec")
            else WeakGeneralization(0.75, validation=True, seed=0))
scenario.split(im)
builder = PipelineBuilder()
builder.set_data_from_scenario(scenario)
builder.add_algorithm(a.algo, params=params)
builder.add_metric("NDCGK", [10, 20])
builder.add_metric("CalibratedRecallK", 10)
pipeline = builder.build()
try:
    pipeline.run()
    print(pipeline.get_metrics())
finally:
    write_truth(framework=f"recpack {version('recpack')}", settings=vars(a),
                loss_name="Batch Training Loss", step_unit="epoch, 0-based (`Processed epoch 3 in ...`)",
                tolerance=tol_decimals(4),
                record="the batch losses the algorithm's own `_train_epoch` returns to its `fit` each epoch, their "
                       "mean (what its `Batch Training Loss` line prints)",
                train_loss=[(e, float(np.mean(v))) for e, v in enumerate(RECORD)])
