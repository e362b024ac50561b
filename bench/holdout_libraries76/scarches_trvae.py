"""scArches: a trVAE (``scarches.models.TRVAE``, hidden layers and latent size small) trained by its own trainer
(``TRVAE.train``, Adam, KL annealing, its early stopping that lowers the rate on a plateau) on a synthetic
single-cell count matrix (an ``AnnData`` of cells x genes from two studies, three cell types), with
``monitor_only_val=False`` so the trainer's progress line shows the training losses too. The trainer writes one
``\\r``-rewritten progress bar an epoch on stdout: `` |████----| 40.0%  - epoch_loss: 312.8840332031 -
epoch_recon_loss: ... - val_loss: ...`` (10 decimals). Truth: the trainer's own ``logs['epoch_loss']`` (the mean of
the batches' losses), at its 1-based epoch (the bar's count)."""

from __future__ import annotations

import argparse
import json

from h76_truth import dest, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--eps", type=float, default=0.01, help="Adam eps (TRVAE.train's eps)")
ap.add_argument("--batch", type=int, default=64)
ap.add_argument("--recon", default="nb", choices=["nb", "zinb", "mse"])
ap.add_argument("--anneal", type=int, default=None, help="alpha_epoch_anneal")
ap.add_argument("--no-val", action="store_true", help="train_frac=1 (no validation, no early stopping)")
ap.add_argument("--early-stop", action="store_true", help="early stopping (patience and lr_patience small)")
ap.add_argument("--no-mmd", action="store_true")
ap.add_argument("--per-epoch", type=int, default=None, help="n_samples: cells drawn an epoch")
ap.add_argument("--cells", type=int, default=400)
ap.add_argument("--genes", type=int, default=200)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import anndata  # noqa: E402
import numpy as np  # noqa: E402
import scarches as sca  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)
rng = np.random.default_rng(0)
types = rng.integers(0, 3, a.cells)
study = rng.integers(0, 2, a.cells)
profile = rng.gamma(0.6, 2.0, size=(3, a.genes))
shift = rng.gamma(4.0, 0.25, size=(2, a.genes))
size = rng.lognormal(0.0, 0.3, a.cells)[:, None]
mu = profile[types] * shift[study] * size * 2.0
counts = rng.negative_binomial(5, 5 / (5 + mu)).astype(np.float32)
adata = anndata.AnnData(counts)
adata.obs["study"] = np.array(["study1", "study2"])[study]
adata.obs["cell_type"] = np.array(["B", "T", "NK"])[types]
adata.obs["study"] = adata.obs["study"].astype("category")
if a.recon == "mse":  # trVAE's MSE loss wants normalized, log-transformed data
    X = adata.X / adata.X.sum(1, keepdims=True) * 1e4
    adata.X = np.log1p(X).astype(np.float32)

model = sca.models.TRVAE(adata=adata, condition_key="study", conditions=["study1", "study2"],
                         hidden_layer_sizes=[64, 32], latent_dim=8, recon_loss=a.recon,
                         use_mmd=not a.no_mmd)
kw: dict = {"batch_size": a.batch, "alpha_epoch_anneal": a.anneal, "monitor_only_val": False}
if a.per_epoch:
    kw["n_samples"] = a.per_epoch
if a.no_val:
    kw.update(train_frac=1.0, use_early_stopping=False)
elif a.early_stop:
    kw["early_stopping_kwargs"] = {"early_stopping_metric": "val_unweighted_loss", "patience": 6,
                                   "threshold": 0, "reduce_lr": True, "lr_patience": 3, "lr_factor": 0.1}
else:
    kw["use_early_stopping"] = False
model.train(n_epochs=a.epochs, lr=a.lr, eps=a.eps, **kw)
logs = model.trainer.logs
d = dest()
if d is not None:  # the trainer's own record, as it keeps it
    (d / "trainer_logs.json").write_text(json.dumps({k: [float(x) for x in v] for k, v in logs.items()}) + "\n")
write_truth(framework=f"scArches {sca.__version__}", settings=vars(a), loss_name="epoch_loss",
            step_unit="epoch, 1-based (the progress bar's count of n_epochs)", tolerance=tol_decimals(10),
            record="the trVAE trainer's `logs['epoch_loss']` (model.trainer.logs)",
            train_loss=list(enumerate(logs["epoch_loss"], 1)),
            eval_loss=list(enumerate(logs["val_loss"], 1)) if logs.get("val_loss") else None,
            eval_name="val_loss" if logs.get("val_loss") else None)
