"""torch-rechub: a ranking model (``DeepFM``, ``WideDeep``, ``DCN``) trained by its ``CTRTrainer.fit`` on a small
synthetic click table (sparse id features + dense features), as its examples do (``DataGenerator`` then
``generate_dataloader``). The trainer prints ``epoch: 0``, draws a tqdm bar per epoch on stderr
(``train: 100%|...| 10/10 [00:00<00:00, 52.1it/s, loss=0.693]``: every ``log_interval`` = 10 batches the mean of the
last 10 batch losses, tqdm's 3 significant digits), with validation ``epoch: 0 validation: auc: 0.71`` and a
``validation`` bar, with a ``StepLR`` scheduler ``Current lr : 0.001``. The data make exactly 10 batches an epoch, so
the bar's one value per epoch is the epoch's mean loss. Truth: the ``train/loss`` the trainer hands its
``model_logger`` (a ``torch_rechub.basic.tracking.BaseLogger``) per epoch."""

from __future__ import annotations

import argparse

import numpy as np
import torch
from h5_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="DeepFM", choices=["DeepFM", "WideDeep", "DCN"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd"])
ap.add_argument("--gamma", type=float, default=0.0, help="StepLR gamma (step_size 1); 0: no scheduler")
ap.add_argument("--batch", type=int, default=256)
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--patience", type=int, default=10)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch_rechub  # noqa: E402
from torch_rechub.basic.features import DenseFeature, SparseFeature  # noqa: E402
from torch_rechub.basic.tracking import BaseLogger  # noqa: E402
from torch_rechub.models.ranking import DCN, DeepFM, WideDeep  # noqa: E402
from torch_rechub.trainers import CTRTrainer  # noqa: E402
from torch_rechub.utils.data import DataGenerator  # noqa: E402

rng = np.random.default_rng(0)
n_train = 10 * a.batch
n = n_train * 10 // 8 + 10
vocab = {"user_id": 200, "item_id": 150, "cate_id": 12, "city": 30}
x = {k: rng.integers(0, v, size=n) for k, v in vocab.items()}
dense = {f"d{i}": rng.normal(size=n).astype(np.float32) for i in range(3)}
u_bias, i_bias, c_bias = rng.normal(size=200), rng.normal(size=150), rng.normal(size=12)
logit = u_bias[x["user_id"]] + i_bias[x["item_id"]] + c_bias[x["cate_id"]] + dense["d0"] - 0.5 * dense["d1"] - 1.0
y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)
x.update(dense)
n_val = (n - n_train) // 2
idx = {"train": slice(0, n_train), "val": slice(n_train, n_train + n_val), "test": slice(n_train + n_val, n)}
part = {k: ({f: v[s] for f, v in x.items()}, y[s]) for k, s in idx.items()}

sparse = [SparseFeature(k, vocab_size=v, embed_dim=8) for k, v in vocab.items()]
dense_f = [DenseFeature(f"d{i}") for i in range(3)]
mlp = {"dims": [64, 32], "dropout": 0.1, "activation": "relu"}
if a.model == "DeepFM":
    model = DeepFM(deep_features=dense_f + sparse, fm_features=sparse, mlp_params=mlp)
elif a.model == "WideDeep":
    model = WideDeep(wide_features=dense_f, deep_features=sparse, mlp_params=mlp)
else:
    model = DCN(features=dense_f + sparse, n_cross_layers=2, mlp_params=mlp)

dg = DataGenerator(*part["train"])
train_dl, val_dl, test_dl = dg.generate_dataloader(x_val=part["val"][0], y_val=part["val"][1],
                                                   x_test=part["test"][0], y_test=part["test"][1],
                                                   batch_size=a.batch)


class HistoryLogger(BaseLogger):
    """The trainer's model_logger: keeps what CTRTrainer.fit logs."""

    def __init__(self) -> None:
        self.rows: list[tuple[int, dict]] = []

    def log_metrics(self, metrics, step=None):
        self.rows.append((step, dict(metrics)))

    def log_hyperparams(self, params):
        pass

    def finish(self):
        pass


hist = HistoryLogger()
opt_fn = torch.optim.Adam if a.optimizer == "adam" else torch.optim.SGD
trainer = CTRTrainer(model, optimizer_fn=opt_fn, optimizer_params={"lr": a.lr, "weight_decay": 1e-5},
                     scheduler_fn=torch.optim.lr_scheduler.StepLR if a.gamma else None,
                     scheduler_params={"step_size": 1, "gamma": a.gamma} if a.gamma else None,
                     n_epoch=a.epochs, earlystop_patience=a.patience, device="cpu", model_path=".",
                     model_logger=hist)
trainer.fit(train_dl, None if a.no_val else val_dl)
auc = trainer.evaluate(trainer.model, test_dl)
print(f"test auc: {auc}")

train = [(s, m["train/loss"]) for s, m in hist.rows if "train/loss" in m]
val = [(s, m["val/auc"]) for s, m in hist.rows if "val/auc" in m]
ver = getattr(torch_rechub, "__version__", None)
if ver is None:
    from importlib.metadata import version
    ver = version("torch-rechub")
write_truth(framework=f"torch-rechub {ver}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 0-based (`epoch: N` before the bar)", tolerance=tol_sig(3),
            record="the train/loss CTRTrainer.fit hands its model_logger (a BaseLogger) per epoch",
            train_loss=train, **({"eval_loss": val, "eval_name": "auc"} if val else {}),
            steps_per_epoch=len(train_dl))  # the bar's total: a reader numbering batches is equally right
