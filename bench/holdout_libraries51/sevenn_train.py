"""SevenNet (sevenn): a tiny equivariant interatomic potential trained with its own command, ``sevenn input.yaml``
(called in-process, as the console script does), on a small synthetic set of rattled fcc Cu cells labelled by ASE's
EMT calculator (energy, forces, stress; no download). SevenNet prints its tables to stdout and writes ``log.sevenn``
and its learning curve ``lc.csv`` in the working folder. Truth: ``lc.csv`` (the training set's ``TotalLoss`` at
each epoch, 1-based)."""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from h51_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=0.005)
ap.add_argument("--optimizer", default="adam")
ap.add_argument("--gamma", type=float, default=0.99)
ap.add_argument("--batch", type=int, default=4)
ap.add_argument("--n", type=int, default=24)
ap.add_argument("--channel", type=int, default=8)
ap.add_argument("--layers", type=int, default=2)
ap.add_argument("--force-weight", type=float, default=0.1)
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import yaml  # noqa: E402
from ase.build import bulk  # noqa: E402
from ase.calculators.emt import EMT  # noqa: E402
from ase.io import write  # noqa: E402

rng = np.random.default_rng(0)


def cells(n: int) -> list:
    out = []
    for _ in range(n):
        at = bulk("Cu", "fcc", a=3.61 * (1 + rng.uniform(-0.03, 0.03)), cubic=True)
        at.rattle(stdev=0.08, seed=int(rng.integers(1 << 30)))
        at.calc = EMT()
        at.get_potential_energy(), at.get_forces(), at.get_stress()
        out.append(at)
    return out


write("train.extxyz", cells(a.n))
files = {"load_trainset_path": ["./train.extxyz"]}
if not a.no_val:
    write("valid.extxyz", cells(max(4, a.n // 4)))
    files["load_validset_path"] = ["./valid.extxyz"]
train = {"random_seed": 1, "is_train_stress": True, "epoch": a.epochs, "optimizer": a.optimizer,
         "optim_param": {"lr": a.lr}, "force_loss_weight": a.force_weight, "stress_loss_weight": 1e-06,
         "per_epoch": a.epochs, "error_record": [["Energy", "RMSE"], ["Force", "RMSE"], ["Stress", "RMSE"],
                                                  ["TotalLoss", "None"]]}
train["scheduler"] = "exponentiallr"
train["scheduler_param"] = {"gamma": a.gamma}
cfg = {"model": {"chemical_species": "Auto", "cutoff": 4.0, "channel": a.channel, "lmax": 1,
                 "num_convolution_layer": a.layers, "weight_nn_hidden_neurons": [16, 16],
                 "radial_basis": {"radial_basis_name": "bessel", "bessel_basis_num": 4},
                 "cutoff_function": {"cutoff_function_name": "poly_cut", "poly_cut_p_value": 6},
                 "act_gate": {"e": "silu", "o": "tanh"}, "act_scalar": {"e": "silu", "o": "tanh"},
                 "is_parity": False, "self_connection_type": "nequip"},
       "train": train,
       "data": {"batch_size": a.batch, "shift": "per_atom_energy_mean", "scale": "force_rms",
                "data_format_args": {"index": ":"}, **files}}
Path("input.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))

from sevenn.main.sevenn import main  # noqa: E402

sys.argv = ["sevenn", "input.yaml", "-s"]
try:
    main()
except SystemExit:
    pass

with open("lc.csv") as f:
    rows = list(csv.DictReader(f))
for own in ("lc.csv", "log.sevenn"):
    keep(own)
import sevenn  # noqa: E402

write_truth(framework=f"sevenn {sevenn.__version__}", settings=vars(a), loss_name="TotalLoss",
            step_unit="epoch, 1-based (`Epoch 3/10`)", tolerance={"rel": 1e-09, "abs": 0.51e-6},
            record="its learning curve `lc.csv` (`trainset_TotalLoss` at `epoch`)",
            train_loss=[(int(r["epoch"]), r["trainset_TotalLoss"]) for r in rows],
            eval_loss=None if a.no_val else [(int(r["epoch"]), r["validset_TotalLoss"]) for r in rows],
            eval_name=None if a.no_val else "validset TotalLoss")
