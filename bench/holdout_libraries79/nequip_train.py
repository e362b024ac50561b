"""NequIP 0.6 (nequip): a tiny E(3)-equivariant interatomic potential trained with its own command, ``nequip-train
config.yaml`` (called in-process, as the console script does), on a small synthetic set of rattled fcc Cu cells
labelled by ASE's EMT calculator (energies and forces; no download). NequIP's logger prints to stdout and stderr and
to its ``log`` file; per epoch the last batch of the training and of the validation pass (``# Epoch batch  loss
loss_f  f_mae`` over ``      3     4        0.829 ...``, every ``log_batch_freq`` batches), then the epoch's
summary ``! Train               3    1.208     0.01        0.844 ...`` and ``! Validation ...`` (``%.3g``), the wall
time and ``! Best model``. Its trainer writes ``metrics_epoch.csv`` (the epoch's means, ``%.5g``). Truth: that CSV
(``training_loss`` at ``epoch``, 1-based; epoch 0 is the initial validation only)."""

from __future__ import annotations

import argparse
import csv
import os
import sys
from pathlib import Path

from h79_truth import keep, seed_all, tol_sig, write_truth


def run() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--optimizer", default="Adam")
    ap.add_argument("--momentum", type=float, default=0.0)
    ap.add_argument("--scheduler", default="none")
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--n", type=int, default=24)
    ap.add_argument("--n-val", type=int, default=8)
    ap.add_argument("--features", type=int, default=8)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--lmax", type=int, default=1)
    ap.add_argument("--energy", action="store_true", help="also fit the total energy (loss_coeffs forces + energy)")
    ap.add_argument("--ema", action="store_true")
    ap.add_argument("--batch-log", type=int, default=0, help="log_batch_freq (0: nequip's default)")
    ap.add_argument("--verbose", default="INFO")
    ap.add_argument("--label", default="healthy")
    ap.add_argument("--should-stop", action="store_true")
    a = ap.parse_args()
    # torch >= 2.6 loads with weights_only=True by default; nequip 0.6 pickles its processed dataset: torch's own
    # switch, as nequip 0.6's users set it
    os.environ["TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"] = "1"
    seed_all(0)

    import numpy as np  # noqa: E402
    import yaml  # noqa: E402
    from ase.build import bulk  # noqa: E402
    from ase.calculators.emt import EMT  # noqa: E402
    from ase.calculators.singlepoint import SinglePointCalculator  # noqa: E402
    from ase.io import write  # noqa: E402

    rng = np.random.default_rng(0)
    cells = []
    for _ in range(a.n + a.n_val):
        at = bulk("Cu", "fcc", a=3.61 * (1 + rng.uniform(-0.03, 0.03)), cubic=True)
        at.rattle(stdev=0.08, seed=int(rng.integers(1 << 30)))
        at.calc = EMT()
        e, f = at.get_potential_energy(), at.get_forces()
        at.calc = SinglePointCalculator(at, energy=e, forces=f)
        cells.append(at)
    write("cu.extxyz", cells)

    cfg: dict = {
        "root": "results", "run_name": "cu", "seed": 1, "dataset_seed": 2, "device": "cpu", "verbose": a.verbose,
        "model_builders": ["SimpleIrrepsConfig", "EnergyModel", "PerSpeciesRescale", "ForceOutput", "RescaleEnergyEtc"],
        "r_max": 4.0, "num_layers": a.layers, "l_max": a.lmax, "parity": True, "num_features": a.features,
        "num_basis": 4, "invariant_layers": 1, "invariant_neurons": 16,
        "dataset": "ase", "dataset_file_name": "cu.extxyz", "ase_args": {"format": "extxyz"},
        "chemical_symbols": ["Cu"], "n_train": a.n, "n_val": a.n_val, "batch_size": a.batch, "max_epochs": a.epochs,
        "learning_rate": a.lr, "optimizer_name": a.optimizer,
        "loss_coeffs": {"forces": 1.0, "total_energy": [1.0, "PerAtomMSELoss"]} if a.energy else "forces",
        "metrics_components": [["forces", "mae"]] + ([["total_energy", "mae", {"PerAtom": True}]] if a.energy else []),
        "use_ema": a.ema, "lr_scheduler_name": a.scheduler,
    }
    if a.momentum:
        cfg["optimizer_momentum"] = a.momentum
    if a.scheduler == "ReduceLROnPlateau":
        cfg.update(lr_scheduler_patience=2, lr_scheduler_factor=0.5)
    elif a.scheduler == "CosineAnnealingWarmRestarts":
        cfg.update(lr_scheduler_T_0=4, lr_scheduler_T_mult=2)
    if a.ema:
        cfg["ema_decay"] = 0.9
    if a.batch_log:
        cfg["log_batch_freq"] = a.batch_log
    Path("config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))

    from nequip.scripts.train import main  # noqa: E402

    sys.argv = ["nequip-train", "config.yaml"]
    main()

    run = Path("results/cu")
    with open(run / "metrics_epoch.csv") as f:
        rows = [{k.strip(): v.strip() for k, v in r.items()} for r in csv.DictReader(f)]
    for own in ("metrics_epoch.csv", "metrics_initialization.csv", "log"):
        keep(run / own)
    import nequip  # noqa: E402

    write_truth(framework=f"nequip {nequip.__version__}", settings=vars(a), loss_name="training_loss",
                step_unit="epoch, 1-based (the `Epoch` column of `! Train`)", tolerance=tol_sig(3),
                record="its trainer's `metrics_epoch.csv` (`training_loss` at `epoch`)",
                train_loss=[(int(r["epoch"]), r["training_loss"]) for r in rows],
                eval_loss=[(int(r["epoch"]), r["validation_loss"]) for r in rows], eval_name="validation_loss")


# nequip reads the dataset in worker processes started by `spawn`, which import this file again
if __name__ == "__main__":
    run()
