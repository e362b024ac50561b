"""pytorch-metric-learning: its ``MetricLossOnly`` / ``TrainWithClassifier`` trainer on a small synthetic clustered
data set (an MLP trunk and embedder), as its docs and example notebooks set it up: logging at INFO on the root
logger (``INFO:PML:TRAINING EPOCH 1``), the record-keeper hooks of ``logging_presets`` (``get_record_keeper`` +
``get_hook_container``: the loss histories kept every ``log_freq`` iterations in the record keeper's CSV folder and
sqlite file), with or without a ``GlobalEmbeddingSpaceTester`` at each epoch end (``end_of_epoch_hook``, accuracies
by faiss). The trainer draws one tqdm bar per epoch on stderr whose description is the iteration's loss,
``total_loss=0.23456:  40%|...| 50/125``. Truth: the record keeper's ``loss_histories.csv`` (``total_loss`` at
its global iteration, 0-based across epochs: one description per iteration; the bar's count lags)."""

from __future__ import annotations

import argparse
import csv
import logging
import shutil
from pathlib import Path

import numpy as np
import torch
from h5_truth import dest, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--trainer", default="MetricLossOnly", choices=["MetricLossOnly", "TrainWithClassifier"])
ap.add_argument("--loss", default="triplet", choices=["triplet", "contrastive", "ntxent", "arcface"])
ap.add_argument("--epochs", type=int, default=4)
ap.add_argument("--iters", type=int, default=100, help="iterations_per_epoch")
ap.add_argument("--log-freq", type=int, default=10)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd"])
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma stepped every iteration (0: none)")
ap.add_argument("--tester", action="store_true", help="GlobalEmbeddingSpaceTester at each epoch end")
ap.add_argument("--batch", type=int, default=64)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
logging.getLogger().setLevel(logging.INFO)
seed_all(0)

import pytorch_metric_learning  # noqa: E402
from pytorch_metric_learning import losses, miners, samplers, testers, trainers  # noqa: E402
from pytorch_metric_learning.utils import logging_presets  # noqa: E402
from pytorch_metric_learning.utils.accuracy_calculator import AccuracyCalculator  # noqa: E402

logging.info("VERSION %s", pytorch_metric_learning.__version__)

rng = np.random.default_rng(0)
n_cls, per, d = 20, 60, 32
centers = rng.normal(size=(n_cls, d)) * 0.35
Xa = np.concatenate([centers[c] + rng.normal(size=(per, d)) for c in range(n_cls)]).astype(np.float32)
ya = np.repeat(np.arange(n_cls), per)
train_mask = ya < 14


class DS(torch.utils.data.Dataset):
    def __init__(self, X, y):
        self.X, self.y = torch.tensor(X), torch.tensor(y)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.X[i], self.y[i]


train_ds, val_ds = DS(Xa[train_mask], ya[train_mask]), DS(Xa[~train_mask], ya[~train_mask] - 14)
trunk = torch.nn.Sequential(torch.nn.Linear(d, 64), torch.nn.ReLU(), torch.nn.Linear(64, 64), torch.nn.ReLU())
embedder = torch.nn.Linear(64, 16)
models = {"trunk": trunk, "embedder": embedder}
opt_cls = torch.optim.Adam if a.optimizer == "adam" else torch.optim.SGD
optimizers = {"trunk_optimizer": opt_cls(trunk.parameters(), lr=a.lr),
              "embedder_optimizer": opt_cls(embedder.parameters(), lr=a.lr)}
if a.loss == "triplet":
    loss_funcs = {"metric_loss": losses.TripletMarginLoss(margin=0.2)}
    mining_funcs = {"tuple_miner": miners.MultiSimilarityMiner(epsilon=0.1)}
elif a.loss == "contrastive":
    loss_funcs = {"metric_loss": losses.ContrastiveLoss(pos_margin=0, neg_margin=1)}
    mining_funcs = {"tuple_miner": miners.PairMarginMiner(pos_margin=0.2, neg_margin=0.8)}
elif a.loss == "ntxent":
    loss_funcs = {"metric_loss": losses.NTXentLoss(temperature=0.1)}
    mining_funcs = {}
else:
    loss_funcs = {"metric_loss": losses.ArcFaceLoss(num_classes=14, embedding_size=16)}
    mining_funcs = {}
    optimizers["metric_loss_optimizer"] = opt_cls(loss_funcs["metric_loss"].parameters(), lr=a.lr)
loss_weights = None
if a.trainer == "TrainWithClassifier":
    models["classifier"] = torch.nn.Linear(16, 14)
    optimizers["classifier_optimizer"] = opt_cls(models["classifier"].parameters(), lr=a.lr)
    loss_funcs["classifier_loss"] = torch.nn.CrossEntropyLoss()
    loss_weights = {"metric_loss": 1, "classifier_loss": 0.5}
lr_schedulers = None
if a.gamma:
    lr_schedulers = {f"{k.split('_optimizer')[0]}_scheduler_by_iteration":
                     torch.optim.lr_scheduler.ExponentialLR(o, gamma=a.gamma) for k, o in optimizers.items()}

record_keeper, _, _ = logging_presets.get_record_keeper("example_logs", "example_tensorboard")
hooks = logging_presets.get_hook_container(record_keeper, log_freq=a.log_freq)
end_of_epoch_hook = None
if a.tester:
    tester = testers.GlobalEmbeddingSpaceTester(
        end_of_testing_hook=hooks.end_of_testing_hook, dataloader_num_workers=0,
        accuracy_calculator=AccuracyCalculator(include=("precision_at_1", "mean_average_precision_at_r"),
                                               k="max_bin_count"))
    end_of_epoch_hook = hooks.end_of_epoch_hook(tester, {"val": val_ds}, "example_saved_models", test_interval=1,
                                                patience=None)
sampler = samplers.MPerClassSampler(train_ds.y, m=4, length_before_new_iter=len(train_ds))
trainer = getattr(trainers, a.trainer)(
    models, optimizers, a.batch, loss_funcs, train_ds, mining_funcs=mining_funcs, sampler=sampler,
    iterations_per_epoch=a.iters, dataloader_num_workers=0, loss_weights=loss_weights, lr_schedulers=lr_schedulers,
    end_of_iteration_hook=hooks.end_of_iteration_hook, end_of_epoch_hook=end_of_epoch_hook)
trainer.train(num_epochs=a.epochs)
record_keeper.save_records()

rows = list(csv.DictReader(open(Path("example_logs") / "loss_histories.csv")))
step_col = next(c for c in rows[0] if "iteration" in c or c == "step") if rows else "iteration"
series = [(int(float(r[step_col])), float(r["total_loss"])) for r in rows]
d_ = dest()
if d_ is not None:
    (d_ / "example_logs").mkdir(exist_ok=True)
    for f in Path("example_logs").glob("*.csv"):
        if f.name == "loss_histories.csv" or f.name.startswith("accuracies"):
            shutil.copy2(f, d_ / "example_logs" / f.name)
write_truth(framework=f"pytorch-metric-learning {pytorch_metric_learning.__version__}", settings=vars(a),
            loss_name="total_loss",
            step_unit="global iteration, 0-based across epochs (the n-th `total_loss=` description drawn in epoch e "
                      "is iteration (e - 1) x iterations_per_epoch + n - 1; the bar's count lags, tqdm moves it "
                      "only at its redraw interval)",
            tolerance=tol_decimals(5),
            record="the record keeper's loss_histories.csv (logging_presets hooks, every log_freq iterations)",
            train_loss=series, steps_per_epoch=a.iters)
