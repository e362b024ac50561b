"""scvi-tools: an ``SCVI`` (or ``LinearSCVI``) model trained with its own ``train`` (Lightning underneath, its tqdm bar
on stderr) on a small synthetic count matrix (negative-binomial counts, 2 cell types). Its bar, ``\\r``-redrawn:
``Epoch 3/8:  25%|██▌       | 2/8 [00:00<00:00, 16.95it/s, v_num=1, train_loss=260]`` (3 significant digits),
``validation_loss=...`` too when a validation set is held out. Truth: the model's ``history`` (``train_loss``, one
value an epoch, the epoch's mean; ``validation_loss``), at the epoch, 1-based, as the bar's ``Epoch N/M`` counts it."""

from __future__ import annotations

import argparse
import traceback

import numpy as np
from h16_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="scvi", choices=["scvi", "linear"])
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--optimizer", default="Adam")
ap.add_argument("--weight-decay", type=float, default=1e-6)
ap.add_argument("--batch", type=int, default=128)
ap.add_argument("--val", action="store_true", help="hold out 20 %% of the cells and validate every epoch")
ap.add_argument("--cells", type=int, default=400)
ap.add_argument("--genes", type=int, default=60)
ap.add_argument("--gamma", type=float, default=1.0, help="multiply the learning rate by this after every epoch")
ap.add_argument("--likelihood", default="zinb", choices=["zinb", "nb", "poisson"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import anndata  # noqa: E402
import scvi  # noqa: E402
from lightning.pytorch.callbacks import Callback  # noqa: E402


class LrGrowth(Callback):
    """The user's own callback: keeps the trainer (its logger holds scvi's history even when a run ends in an
    error) and, with --gamma, multiplies every learning rate by gamma after each epoch."""

    trainer = None

    def on_train_start(self, trainer, pl_module):
        LrGrowth.trainer = trainer

    def on_train_epoch_end(self, trainer, pl_module):
        if a.gamma != 1.0:
            for opt in trainer.optimizers:
                for g in opt.param_groups:
                    g["lr"] *= a.gamma


scvi.settings.seed = 0
rng = np.random.default_rng(0)
kind = rng.integers(0, 2, size=a.cells)
mean = np.where(kind[:, None] == 0, rng.gamma(2.0, 2.0, size=a.genes), rng.gamma(2.0, 2.0, size=a.genes))
X = rng.poisson(mean * rng.lognormal(0, 0.3, size=(a.cells, 1))).astype(np.float32)
adata = anndata.AnnData(X)
cls = scvi.model.SCVI if a.model == "scvi" else scvi.model.LinearSCVI
cls.setup_anndata(adata)
model = cls(adata, n_hidden=32, n_latent=5, gene_likelihood=a.likelihood)
kw = dict(max_epochs=a.epochs, accelerator="cpu", batch_size=a.batch, callbacks=[LrGrowth()],
          plan_kwargs={"lr": a.lr, "optimizer": a.optimizer, "weight_decay": a.weight_decay})
if a.val:
    kw.update(train_size=0.8, check_val_every_n_epoch=1)
else:
    kw.update(train_size=1.0)
try:
    model.train(**kw)
except Exception:
    traceback.print_exc()

hist = model.history_ if getattr(model, "history_", None) else LrGrowth.trainer.logger.history  # type: ignore[attr-defined]
train = [(int(i) + 1, float(v)) for i, v in hist["train_loss"]["train_loss"].items()]
ev = None
if a.val and "validation_loss" in hist:
    ev = [(int(i) + 1, float(v)) for i, v in hist["validation_loss"]["validation_loss"].dropna().items()]
write_truth(framework=f"scvi-tools {scvi.__version__}", settings=vars(a), loss_name="train_loss",
            step_unit="epoch, 1-based (the bar's `Epoch N/M`)", tolerance=tol_sig(3),
            record="the model's `history` (`train_loss`, the epoch's mean, from scvi's own logger)",
            train_loss=train, eval_loss=ev, eval_name="validation_loss" if ev else None)
