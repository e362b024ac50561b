"""CHGNet: a small CHGNet built from its constructor (no pretrained weights) trained from scratch by its own
``chgnet.trainer.Trainer`` on synthetic rock-salt crystals (pymatgen ``Structure``s, randomly strained and rattled,
energies per atom from a pair potential), the way its fine-tuning tutorial does (``StructureData``,
``get_train_val_test_loader``, ``Trainer(...).train(train_loader, val_loader)``). The Trainer prints (stdout,
block-buffered) ``Epoch: [0][1/8] | Time (0.101)(0.002) | Loss 0.1234(0.1234) | MAE e 0.321(0.321)`` on the first
batch and every ``print_freq`` batches, the validation's ``*   e_MAE (0.123)`` after each epoch. Truth: the Trainer's
own record, ``trainer.training_history["e"]["train"]`` (the epoch's mean energy MAE, eV/atom, printed in the
parentheses of the epoch's last batch line), at the epoch (0-based, ``Epoch: [E]``), and ``["e"]["val"]``."""

from __future__ import annotations

import argparse

from h32_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--structures", type=int, default=60)
ap.add_argument("--batch", type=int, default=8)
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--optimizer", default="Adam")
ap.add_argument("--scheduler", default="CosLR")
ap.add_argument("--gamma", type=float, default=None, help="ExponentialLR's gamma (stepped 10 times an epoch)")
ap.add_argument("--print-freq", type=int, default=100)
ap.add_argument("--dim", type=int, default=16)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import numpy as np  # noqa: E402
from chgnet.data.dataset import StructureData, get_train_val_test_loader  # noqa: E402
from chgnet.model import CHGNet  # noqa: E402
from chgnet.trainer import Trainer  # noqa: E402
from pymatgen.core import Lattice, Structure  # noqa: E402

rng = np.random.default_rng(0)
structures, energies, forces = [], [], []
for _ in range(a.structures):
    a0 = rng.uniform(5.0, 6.2)
    s = Structure.from_spacegroup("Fm-3m", Lattice.cubic(a0), ["Na", "Cl"], [[0, 0, 0], [0.5, 0.5, 0.5]])
    s.perturb(rng.uniform(0.0, 0.15))
    d = s.distance_matrix + np.eye(len(s)) * 1e3
    r6 = (2.3 / d) ** 6
    energies.append(float(2 * (r6 ** 2 - r6).sum() / len(s)) - 3.0)
    forces.append(np.zeros((len(s), 3)).tolist())
    structures.append(s)

data = StructureData(structures=structures, energies=energies, forces=forces)
train_loader, val_loader, _ = get_train_val_test_loader(data, batch_size=a.batch, train_ratio=0.8, val_ratio=0.2)
model = CHGNet(atom_fea_dim=a.dim, bond_fea_dim=a.dim, angle_fea_dim=a.dim, n_conv=2,
               atom_conv_hidden_dim=a.dim, bond_conv_hidden_dim=a.dim, mlp_hidden_dims=(a.dim, a.dim))
kw = {"scheduler_params": {"gamma": a.gamma}} if a.gamma is not None else {}
trainer = Trainer(model=model, targets="e", optimizer=a.optimizer, scheduler=a.scheduler, criterion="MSE",
                  epochs=a.epochs, learning_rate=a.lr, print_freq=a.print_freq, use_device="cpu", torch_seed=0,
                  **kw)
trainer.train(train_loader, val_loader, save_dir="")

h = trainer.training_history["e"]
write_truth(framework=f"chgnet {version('chgnet')}", settings=vars(a), loss_name="e MAE (train, eV/atom)",
            step_unit="epoch, 0-based (`Epoch: [E][i/N]`; the epoch's mean is the parenthesised MAE of its last "
                      "batch line)",
            tolerance=tol_decimals(3), record="the Trainer's `training_history['e']['train']` (and `['val']`)",
            train_loss=list(enumerate(h["train"])), eval_loss=list(enumerate(h["val"])),
            eval_name="e MAE (val, `*   e_MAE (x)`)")
