"""MatterSim (mattersim): a tiny M3GNet interatomic potential (MatterSim's own ``M3Gnet``, 2 blocks, 16 units), built
from scratch (no checkpoint downloaded), wrapped in its ``Potential`` and trained with ``Potential.train_model`` as
its fine-tuning script (``mattersim/training/finetune_mattersim.py``) does: ``build_dataloader`` over ASE atoms, an
``AtomScaling`` energy normaliser (its ``--re_normalize``), its Adam (or an optimizer handed to it) and its
``StepLR`` scheduler (or a cosine schedule set on it), on small synthetic sets of rattled fcc Cu / Cu-Au cells
labelled by ASE's EMT calculator (energy, forces, stress; no download). MatterSim logs through loguru on stderr, one
line per epoch and split (``train: Loss: 0.1234, MAE(e): ..., lr: ...``, 4 decimals). Truth: the metrics it hands
each epoch to its ``wandb`` hook (``wandb.log({"train/loss": ..., ...}, step=epoch)``; kept here by a recorder
passed as ``wandb``, as the fine-tuning script passes the ``wandb`` module), ``train/loss`` at the epoch (0-based,
``Epoch: 0 / 10``)."""

from __future__ import annotations

import argparse
import json

from h57_truth import dest, seed_all, tol_decimals, tolerate_cpu_torchvision, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=2e-3)
ap.add_argument("--optimizer", default="adam", choices=["adam", "adamw", "sgd"])
ap.add_argument("--scheduler", default="StepLR", choices=["StepLR", "cosine"])
ap.add_argument("--step-size", type=int, default=10)
ap.add_argument("--gamma", type=float, default=0.95)
ap.add_argument("--batch", type=int, default=4)
ap.add_argument("--n", type=int, default=24)
ap.add_argument("--units", type=int, default=16)
ap.add_argument("--blocks", type=int, default=2)
ap.add_argument("--loss", default="mse", choices=["mse", "huber", "l1"])
ap.add_argument("--forces", action="store_true")
ap.add_argument("--stresses", action="store_true")
ap.add_argument("--alloy", action="store_true")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import torch  # noqa: E402
from ase.build import bulk  # noqa: E402
from ase.calculators.emt import EMT  # noqa: E402
from ase.units import GPa  # noqa: E402

torch.manual_seed(0)
rng = np.random.default_rng(0)


def cells(n: int) -> list:
    out = []
    for _ in range(n):
        at = bulk("Cu", "fcc", a=3.61 * (1 + rng.uniform(-0.03, 0.03)), cubic=True)
        if a.alloy:
            for i in rng.choice(len(at), size=int(rng.integers(0, 3)), replace=False):
                at[int(i)].symbol = "Au"
        at.rattle(stdev=0.08, seed=int(rng.integers(1 << 30)))
        at.calc = EMT()
        out.append(at)
    return out


def labels(atoms: list) -> tuple:
    energies = [at.get_potential_energy() for at in atoms]
    forces = [at.get_forces() for at in atoms] if a.forces else None
    stresses = [at.get_stress(voigt=False) / GPa for at in atoms] if a.stresses else None
    return energies, forces, stresses


tolerate_cpu_torchvision()  # torchmetrics, which MatterSim imports, imports torchvision
from mattersim.datasets.utils.build import build_dataloader  # noqa: E402
from mattersim.forcefield.m3gnet.m3gnet import M3Gnet  # noqa: E402
from mattersim.forcefield.m3gnet.scaling import AtomScaling  # noqa: E402
from mattersim.forcefield.potential import Potential  # noqa: E402

kw = {"cutoff": 4.0, "threebody_cutoff": 3.0, "batch_size": a.batch}
train_atoms = cells(a.n)
e, f, s = labels(train_atoms)
dataloader = build_dataloader(train_atoms, e, f, s, shuffle=True, **kw)
# the fine-tuning script's --re_normalize with its default keys (energy-only: the per-species energy std and mean)
keys = ({"scale_key": "per_species_forces_rms", "shift_key": "per_species_energy_mean_linear_reg"} if a.forces else
        {"scale_key": "per_species_energy_std", "shift_key": "per_species_energy_mean"})
scale = AtomScaling(atoms=train_atoms, total_energy=e, forces=f, verbose=True, device="cpu", **keys)
val_dataloader = None
if not a.no_val:
    val_atoms = cells(max(4, a.n // 4))
    ve, vf, vs = labels(val_atoms)
    val_dataloader = build_dataloader(val_atoms, ve, vf, vs, **kw)

model = M3Gnet(num_blocks=a.blocks, units=a.units, max_l=2, max_n=3, cutoff=4.0, threebody_cutoff=3.0, device="cpu")
model.set_normalizer(scale)
optimizer: torch.optim.Optimizer | None = None  # None: MatterSim's own Adam (eps 1e-7)
if a.optimizer == "adamw":
    optimizer = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.01)
elif a.optimizer == "sgd":
    optimizer = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
if a.scheduler == "StepLR":
    potential = Potential(model, optimizer=optimizer, scheduler="StepLR", device="cpu", lr=a.lr,
                          step_size=a.step_size, gamma=a.gamma)
else:  # a scheduler object, which Potential takes as it is
    potential = Potential(model, optimizer=optimizer, device="cpu", lr=a.lr)
    potential.scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(potential.optimizer, T_max=a.epochs)


class Record:
    """What MatterSim hands its ``wandb`` hook: each call's dict at its step (the epoch)."""

    def __init__(self) -> None:
        self.rows: list[dict] = []

    def log(self, data: dict, step: int | None = None) -> None:
        self.rows.append({"step": step, **data})


record = Record()
loss = {"mse": torch.nn.MSELoss(), "huber": torch.nn.HuberLoss(delta=0.1), "l1": torch.nn.L1Loss()}[a.loss]
potential.train_model(dataloader, val_dataloader, loss=loss, include_energy=True, include_forces=a.forces,
                      include_stresses=a.stresses, epochs=a.epochs, wandb=record, save_checkpoint=False,
                      early_stop_patience=a.epochs, batch_size=a.batch)

d = dest()
if d is not None:
    (d / "wandb_hook_record.jsonl").write_text("".join(json.dumps(r) + "\n" for r in record.rows))
train = [(r["step"], "nan" if r["train/loss"] != r["train/loss"] else r["train/loss"]) for r in record.rows
         if "train/loss" in r]
val = [(r["step"], r["val/loss"]) for r in record.rows if "val/loss" in r]
import mattersim  # noqa: E402

write_truth(framework=f"mattersim {mattersim.__version__}", settings=vars(a), loss_name="Loss",
            step_unit="epoch, 0-based (`Epoch: 0 / 10`)", tolerance=tol_decimals(4),
            record="the metrics MatterSim hands its `wandb` hook each epoch (`train/loss` at `step=epoch`), kept "
                   "by a recorder passed as `wandb` (`wandb_hook_record.jsonl`)",
            train_loss=train, eval_loss=val or None, eval_name="val/loss" if val else None)
