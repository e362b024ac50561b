"""cell2location: its reference-signature model (``RegressionModel``) on a small synthetic single-cell count matrix, or
its spatial mapping model (``Cell2location``) on synthetic Visium-like spots mixed from known signatures, each set up
with ``setup_anndata`` and trained with its own ``train`` (scvi-tools' Pyro SVI loop on Lightning), as its tutorial
does. The optimiser is its default ``ClippedAdam`` at ``lr``, or one a user passes through ``plan_kwargs`` (Pyro's
``ClippedAdam`` with a per-step rate factor ``lrd``, or Pyro's ``Adam``). The log is Lightning's and scvi-tools'
warnings on stderr and the tqdm bar of epochs (no TTY: ``\\r`` redraws, ``Epoch 3/40: ... elbo_train=1.17e+5``, 3
significant digits). Truth: the model's own record, ``model.history["elbo_train"]`` (its ``epoch`` index, 0-based),
but its last epoch: the bar draws each epoch's value from the next epoch on (epoch 0's at ``Epoch 2/40 ... 2/40``),
so the last epoch's value is never printed."""

from __future__ import annotations

import argparse

from h86_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="reference", choices=["reference", "spatial"])
ap.add_argument("--optim", default="default", choices=["default", "clippedadam", "adam"])
ap.add_argument("--lr", type=float, default=0.002)
ap.add_argument("--lrd", type=float, default=1.0, help="ClippedAdam's rate factor per step")
ap.add_argument("--epochs", type=int, default=30)
ap.add_argument("--batch", type=int, default=0, help="0: full batch (batch_size=None)")
ap.add_argument("--train-size", type=float, default=1.0)
ap.add_argument("--n", type=int, default=600, help="cells (reference) or spots (spatial)")
ap.add_argument("--genes", type=int, default=120)
ap.add_argument("--no-pyro-validation", action="store_true", help="pyro.enable_validation(False)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import anndata  # noqa: E402
import cell2location  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pyro  # noqa: E402
import scvi  # noqa: E402
from cell2location.models import Cell2location, RegressionModel  # noqa: E402

scvi.settings.seed = 0
if a.no_pyro_validation:
    pyro.enable_validation(False)
rng = np.random.default_rng(0)
n_types = 5
sig = rng.gamma(0.5, 2.0, size=(n_types, a.genes))
genes = pd.DataFrame(index=[f"gene{i}" for i in range(a.genes)])
if a.model == "reference":
    lab = rng.integers(0, n_types, a.n)
    X = rng.poisson(sig[lab] * rng.gamma(5, 0.2, size=(a.n, 1)) * 3).astype("float32")
    obs = pd.DataFrame({"cell_type": [f"type{i}" for i in lab], "batch": [f"b{i % 2}" for i in range(a.n)]},
                       index=[f"cell{i}" for i in range(a.n)])
    ad = anndata.AnnData(X=X, obs=obs, var=genes)
    RegressionModel.setup_anndata(ad, batch_key="batch", labels_key="cell_type")
    mod = RegressionModel(ad)
else:
    w = rng.gamma(1.0, 3.0, size=(a.n, n_types)) * (rng.random((a.n, n_types)) < 0.6)
    X = rng.poisson(w @ sig).astype("float32")
    obs = pd.DataFrame({"sample": ["s0"] * a.n}, index=[f"spot{i}" for i in range(a.n)])
    ad = anndata.AnnData(X=X, obs=obs, var=genes)
    inf_aver = pd.DataFrame(sig.T, index=ad.var_names, columns=[f"type{i}" for i in range(n_types)])
    Cell2location.setup_anndata(ad, batch_key="sample")
    mod = Cell2location(ad, cell_state_df=inf_aver, N_cells_per_location=5, detection_alpha=20)

kw: dict = {}
if a.optim == "clippedadam":
    kw["plan_kwargs"] = {"optim": pyro.optim.ClippedAdam({"lr": a.lr, "lrd": a.lrd})}
elif a.optim == "adam":
    kw["plan_kwargs"] = {"optim": pyro.optim.Adam({"lr": a.lr})}
mod.train(max_epochs=a.epochs, batch_size=a.batch or None, train_size=a.train_size, lr=a.lr, **kw)

hist = mod.history["elbo_train"]["elbo_train"]
val = mod.history.get("elbo_validation")
write_truth(framework=f"cell2location {cell2location.__version__}", settings=vars(a), loss_name="elbo_train",
            step_unit="epoch, 0-based (the history's `epoch` index; the bar says `Epoch 3/30`, 1-based, and draws "
            "epoch e's value from its count e+2 on)",
            tolerance=tol_sig(3),
            record="the model's own record, `model.history['elbo_train']` (scvi-tools' logger, indexed by `epoch`)",
            train_loss=[(int(e), float(v)) for e, v in hist.items()][:-1],
            eval_loss=None if val is None else [(int(e), float(v)) for e, v in val["elbo_validation"].items()],
            eval_name=None if val is None else "elbo_validation",
            left_out="the history's last epoch: the bar never draws it (it shows each epoch's value one epoch late)",
            scvi_tools=scvi.__version__)
