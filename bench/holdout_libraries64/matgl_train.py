"""matgl: a tiny MEGNet or M3GNet property model (built here, no pretrained weights) trained on generated rocksalt
and CsCl crystals (pymatgen ``Structure``, a made-up formation energy from the lattice constant and the elements'
electronegativities) the way matgl's tutorials train one: ``MGLDataset`` + ``MGLDataLoader``, matgl's
``ModelLightningModule`` (its default Adam with a cosine decay, or an optimizer and scheduler passed in) and a
Lightning ``Trainer`` with a ``CSVLogger``. The log is Lightning's (its banner, the model summary, the tqdm bar on
stderr without a TTY, whose postfix holds matgl's ``train_Total_Loss``/``val_Total_Loss`` etc., 3 significant
digits). Truth: the CSVLogger's ``metrics.csv`` (``train_Total_Loss`` at each ``epoch``, 0-based, as the bar's
``Epoch 3:``)."""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

from h64_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="megnet", choices=["megnet", "m3gnet"])
ap.add_argument("--optimizer", default="default", choices=["default", "adamw", "sgd"])
ap.add_argument("--scheduler", default="cosine", choices=["cosine", "step", "exp"])
ap.add_argument("--gamma", type=float, default=0.9)
ap.add_argument("--lr", type=float, default=0.001)
ap.add_argument("--loss", default="mse_loss", choices=["mse_loss", "l1_loss", "huber_loss"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=8)
ap.add_argument("--n", type=int, default=40)
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import lightning as pl  # noqa: E402
import matgl  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
from lightning.pytorch.loggers import CSVLogger  # noqa: E402
from matgl.ext.pymatgen import Structure2Graph  # noqa: E402
from matgl.graph.data import MGLDataLoader, MGLDataset, split_dataset  # noqa: E402
from matgl.models import M3GNet, MEGNet  # noqa: E402
from matgl.utils.training import ModelLightningModule  # noqa: E402
from pymatgen.core import Element, Lattice, Structure  # noqa: E402

pl.seed_everything(0)
rng = np.random.default_rng(0)
cations, anions = ["Li", "Na", "K", "Mg", "Ca"], ["F", "Cl", "O", "S"]
structures, energies = [], []
for i in range(a.n):
    c, an = cations[rng.integers(len(cations))], anions[rng.integers(len(anions))]
    lat = float(rng.uniform(3.6, 5.2))
    if i % 2:
        s = Structure.from_spacegroup("Fm-3m", Lattice.cubic(lat), [c, an], [[0, 0, 0], [0.5, 0.5, 0.5]])
    else:
        s = Structure(Lattice.cubic(lat * 0.62), [c, an], [[0, 0, 0], [0.5, 0.5, 0.5]])
    chi = float(Element(an).X) - float(Element(c).X)
    structures.append(s)
    energies.append(-0.8 * chi + 0.6 * (lat - 4.4) ** 2 + 0.3 * (i % 2) + 0.05 * float(rng.normal()))
elements = tuple(sorted(cations + anions))
converter = Structure2Graph(element_types=elements, cutoff=4.0)
dataset = MGLDataset(structures=structures, converter=converter, labels={"eform": energies}, root="MGLDataset",
                     save_cache=False)
frac = [1.0, 0.0, 0.0] if a.no_val else [0.8, 0.2, 0.0]
train_data, val_data, _ = split_dataset(dataset, frac_list=frac, shuffle=True, random_state=0)
loaders = MGLDataLoader(train_data=train_data, val_data=val_data, batch_size=a.batch, num_workers=0)
train_loader, val_loader = loaders[0], loaders[1]

model: torch.nn.Module
if a.model == "megnet":
    model = MEGNet(dim_node_embedding=8, dim_edge_embedding=16, dim_state_embedding=2, nblocks=1,
                   hidden_layer_sizes_input=(16, 8), hidden_layer_sizes_conv=(16, 16, 8),
                   hidden_layer_sizes_output=(8, 8), nlayers_set2set=1, niters_set2set=1,
                   activation_type="softplus2", element_types=elements, cutoff=4.0, gauss_width=0.5)
else:
    model = M3GNet(element_types=elements, dim_node_embedding=16, dim_edge_embedding=16, max_n=2, max_l=2,
                   nblocks=1, units=16, cutoff=4.0, threebody_cutoff=3.5, is_intensive=True,
                   readout_type="set2set")
optimizer: torch.optim.Optimizer | None = None
scheduler: torch.optim.lr_scheduler.LRScheduler | None = None
if a.optimizer == "adamw":
    optimizer = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
elif a.optimizer == "sgd":
    optimizer = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
if a.scheduler != "cosine":
    if optimizer is None:
        optimizer = torch.optim.Adam(model.parameters(), lr=a.lr, eps=1e-8)
    if a.scheduler == "step":
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=a.gamma)
    else:
        scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=a.gamma)
elif optimizer is not None:
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=1000, eta_min=a.lr * 0.01)
lit = ModelLightningModule(model=model, loss=a.loss, lr=a.lr,
                           optimizer=optimizer, scheduler=scheduler)
logger = CSVLogger("logs", name="matgl_training")
trainer = pl.Trainer(max_epochs=a.epochs, accelerator="cpu", logger=logger, enable_checkpointing=False,
                     log_every_n_steps=1)
trainer.fit(model=lit, train_dataloaders=train_loader, val_dataloaders=None if a.no_val else val_loader)

metrics = Path(logger.log_dir) / "metrics.csv"
rows = list(csv.DictReader(metrics.open()))
train = [(int(r["epoch"]), float(r["train_Total_Loss"])) for r in rows if r.get("train_Total_Loss")]
val = [(int(r["epoch"]), float(r["val_Total_Loss"])) for r in rows if r.get("val_Total_Loss")]
keep(metrics)
keep(Path(logger.log_dir) / "hparams.yaml")
write_truth(framework=f"matgl {matgl.__version__}", settings=vars(a), loss_name="train_Total_Loss",
            step_unit="epoch, 0-based (the bar's `Epoch 3:`; metrics.csv's `epoch`)", tolerance=tol_sig(3),
            record="the Lightning CSVLogger's metrics.csv (`train_Total_Loss` at `epoch`)", train_loss=train,
            eval_loss=val or None, eval_name="val_Total_Loss" if val else None)
