"""metatrain: its command ``mtt train options.yaml`` (called as a subprocess, as users run it) on a tiny PET model
(metatrain's native architecture, shrunk to ~10-20K parameters) over a small synthetic set of rattled fcc Cu cells
labelled by ASE's EMT calculator (energy and, unless ``--no-forces``, forces; no download). metatrain logs each
``log_interval``-th epoch on one line, ``Epoch:    3 | learning rate: 5.000e-04 | training loss: 2.379e+03 |
training energy RMSE (per atom): 32.996 meV | ...`` (stdout, behind its banner, dataset statistics and loss setup),
and writes the same numbers to ``outputs/DATE/TIME/train.csv``. Truth: that ``train.csv`` (``training loss`` at
``Epoch``, 0-based as it prints it)."""

from __future__ import annotations

import argparse
import csv
import glob
import shutil
import subprocess
import sys
from pathlib import Path

from h74_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--batch", type=int, default=8)
ap.add_argument("--n", type=int, default=32)
ap.add_argument("--d", type=int, default=16, help="PET d_pet/d_head")
ap.add_argument("--layers", type=int, default=1, help="PET num_gnn_layers")
ap.add_argument("--warmup", type=float, default=0.01)
ap.add_argument("--log-interval", type=int, default=1)
ap.add_argument("--clip", type=float, default=1.0, help="grad_clip_norm")
ap.add_argument("--no-forces", action="store_true")
ap.add_argument("--no-val", action="store_true", help="validation_set: a fraction of the training set (0.0 = none)")
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
        at = bulk("Cu", "fcc", a=3.61 * (1 + rng.uniform(-0.04, 0.04)), cubic=True)
        at.rattle(stdev=0.08, seed=int(rng.integers(1 << 30)))
        at.calc = EMT()
        at.info["energy"] = at.get_potential_energy()
        at.arrays["forces"] = at.get_forces()
        at.calc = None
        out.append(at)
    return out


write("train.xyz", cells(a.n))
target = {"key": "energy", "unit": "eV", "forces": False} if a.no_forces else {"key": "energy", "unit": "eV"}
options: dict = {
    "seed": 42,
    "architecture": {
        "name": "pet",
        "model": {"d_pet": a.d, "d_head": a.d, "d_node": 2 * a.d, "d_feedforward": 2 * a.d, "num_heads": 2,
                  "num_attention_layers": 1, "num_gnn_layers": a.layers, "cutoff": 4.0},
        "training": {"batch_size": a.batch, "num_epochs": a.epochs, "learning_rate": a.lr,
                     "warmup_fraction": a.warmup, "log_interval": a.log_interval, "grad_clip_norm": a.clip,
                     "checkpoint_interval": 1000},
    },
    "training_set": {"systems": {"read_from": "train.xyz", "length_unit": "angstrom"}, "targets": {"energy": target}},
    "test_set": 0.0,
}
if a.no_val:
    options["validation_set"] = 0.25
else:
    write("val.xyz", cells(max(4, a.n // 4)))
    options["validation_set"] = {"systems": {"read_from": "val.xyz", "length_unit": "angstrom"},
                                 "targets": {"energy": target}}
Path("options.yaml").write_text(yaml.safe_dump(options, sort_keys=False))

mtt = str(Path(sys.executable).with_name("mtt"))
sys.stdout.flush()
rc = subprocess.run([mtt, "train", "options.yaml"]).returncode
print(f"mtt train exited with {rc}", flush=True) if rc else None

csvs = sorted(glob.glob("outputs/*/*/train.csv"))
with open(csvs[-1]) as f:
    rows = list(csv.reader(f))
head, rows = rows[0], [r for r in rows[2:] if r and r[0].strip()]
col = {k: i for i, k in enumerate(head)}
keep(csvs[-1], "train.csv")
keep("options.yaml")
shutil.rmtree("outputs", ignore_errors=True)
import metatrain  # noqa: E402

has_val = "validation loss" in col
write_truth(framework=f"metatrain {metatrain.__version__}", settings=vars(a), loss_name="training loss",
            step_unit="epoch, 0-based (`Epoch:    3 |`)", tolerance=tol_sig(4),
            record="its `outputs/DATE/TIME/train.csv` (`training loss` at `Epoch`)",
            train_loss=[(int(r[col["Epoch"]]), float(r[col["training loss"]])) for r in rows],
            eval_loss=[(int(r[col["Epoch"]]), float(r[col["validation loss"]])) for r in rows] if has_val else None,
            eval_name="validation loss" if has_val else None)
