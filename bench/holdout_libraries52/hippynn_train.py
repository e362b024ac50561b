"""hippynn: a tiny HIP-NN interatomic potential trained as hippynn's barebones example does (its graph nodes
``SpeciesNode`` / ``PositionsNode`` -> ``Hipnn`` -> ``HEnergyNode``, losses from ``hippynn.graphs.loss``,
``assemble_for_training``, a ``Database`` from arrays split into train / valid / test, a ``PatienceController`` with
a scheduler, ``setup_and_train``), on small synthetic molecules (3 to 6 atoms of H, C, O, padded; energies from a
Morse pair potential computed here; no download). hippynn prints to stdout its model, each epoch's header (``Epoch
3:``, ``Learning rate: 0.001``, ``Batch Size: 16``), an optional tqdm bar on stderr, and a table of its validation
losses evaluated on the train and valid splits (``Loss    :    *  0.62341   *  0.60027``, ``%10.5g``). Truth: its
``MetricTracker.epoch_metric_values`` (the ``train`` split's ``Loss`` at each epoch, 0-based as ``Epoch 0:``)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from h52_truth import seed_all, tol_sig, write_truth


def molecules(rng: Any, n: int, max_atoms: int = 6) -> tuple[Any, Any, Any]:
    """Random small molecules (H, C, O; 3 to ``max_atoms`` atoms, padded with 0) and their Morse energies."""
    import numpy as np

    species = np.array([1, 6, 8])
    depth = {1: 0.6, 6: 1.0, 8: 0.9}
    size = {1: 0.6, 6: 0.75, 8: 0.7}
    self_e = {1: -0.5, 6: -3.0, 8: -2.2}
    Z = np.zeros((n, max_atoms), dtype=np.int64)
    R = np.zeros((n, max_atoms, 3), dtype=np.float32)
    T = np.zeros((n, 1), dtype=np.float32)
    for m in range(n):
        k = int(rng.integers(3, max_atoms + 1))
        z = rng.choice(species, size=k, p=[0.5, 0.3, 0.2])
        pos: list = []
        while len(pos) < k:
            p = rng.uniform(0.0, 2.4, size=3)
            if all(np.linalg.norm(p - q) > 0.95 for q in pos):
                pos.append(p)
        e = sum(self_e[int(s)] for s in z)
        for i in range(k):
            for j in range(i + 1, k):
                r = float(np.linalg.norm(pos[i] - pos[j]))
                d = (depth[int(z[i])] * depth[int(z[j])]) ** 0.5
                r0 = size[int(z[i])] + size[int(z[j])]
                e += d * ((1 - np.exp(-1.8 * (r - r0))) ** 2 - 1)
        Z[m, :k] = z
        R[m, :k] = np.array(pos)
        T[m, 0] = e
    return Z, R, T


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "adamw"])
    ap.add_argument("--scheduler", default="plateau", choices=["plateau", "batchsize", "exp", "none"])
    ap.add_argument("--gamma", type=float, default=0.9)
    ap.add_argument("--patience", type=int, default=3, help="of the plateau schedulers")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--features", type=int, default=16)
    ap.add_argument("--interactions", type=int, default=1)
    ap.add_argument("--fraction-train-eval", type=float, default=0.1)
    ap.add_argument("--stopping-key", default="T-RMSE")
    ap.add_argument("--progress", action="store_true", help="hippynn's tqdm bars (off by default here)")
    ap.add_argument("--no-pretrain", action="store_true")
    ap.add_argument("--label", default="healthy")
    ap.add_argument("--should-stop", action="store_true")
    a = ap.parse_args()
    # hippynn reads its settings from the environment when imported (users set HIPPYNN_PROGRESS)
    os.environ["HIPPYNN_PROGRESS"] = "tqdm" if a.progress else "none"
    seed_all(0)

    import hippynn
    import numpy as np
    import torch
    from hippynn.databases import Database
    from hippynn.experiment import SetupParams, assemble_for_training, setup_and_train
    from hippynn.experiment.controllers import PatienceController, RaiseBatchSizeOnPlateau
    from hippynn.graphs import inputs, loss, networks, targets
    from hippynn.pretraining import hierarchical_energy_initialization

    torch.set_default_dtype(torch.float32)
    Z, R, T = molecules(np.random.default_rng(0), a.n)

    network_params = {"possible_species": [0, 1, 6, 8], "n_features": a.features, "n_sensitivities": 12,
                      "dist_soft_min": 0.7, "dist_soft_max": 3.5, "dist_hard_max": 4.5,
                      "n_interaction_layers": a.interactions, "n_atom_layers": 2}
    species = inputs.SpeciesNode(db_name="Z")
    positions = inputs.PositionsNode(db_name="R")
    network = networks.Hipnn("hipnn_model", (species, positions), module_kwargs=network_params)
    henergy = targets.HEnergyNode("HEnergy", network, db_name="T")
    mse_energy = loss.MSELoss.of_node(henergy)
    mae_energy = loss.MAELoss.of_node(henergy)
    rsq_energy = loss.Rsq.of_node(henergy)
    rmse_energy = mse_energy ** (1 / 2)
    train_loss = rmse_energy + mae_energy
    validation_losses = {"T-RMSE": rmse_energy, "T-MAE": mae_energy, "T-RSQ": rsq_energy, "Loss": train_loss}
    training_modules, db_info = assemble_for_training(train_loss, validation_losses)

    database = Database({"Z": Z, "R": R, "T": T}, seed=0, test_size=0.1, valid_size=0.1, **db_info)
    if not a.no_pretrain:
        hierarchical_energy_initialization(henergy, database, trainable_after=False)

    params = training_modules.model.parameters()
    optimizer: torch.optim.Optimizer
    if a.optimizer == "adam":
        optimizer = torch.optim.Adam(params, lr=a.lr)
    elif a.optimizer == "adamw":
        optimizer = torch.optim.AdamW(params, lr=a.lr)
    else:
        optimizer = torch.optim.SGD(params, lr=a.lr, momentum=0.9)
    scheduler: object
    if a.scheduler == "plateau":
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=a.patience)
    elif a.scheduler == "batchsize":
        scheduler = RaiseBatchSizeOnPlateau(optimizer=optimizer, max_batch_size=4 * a.batch,
                                            patience=a.patience, factor=0.5)
    elif a.scheduler == "exp":
        scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=a.gamma)
    else:
        scheduler = None
    controller = PatienceController(optimizer=optimizer, scheduler=scheduler, batch_size=a.batch,
                                    eval_batch_size=64, max_epochs=a.epochs, termination_patience=a.epochs,
                                    fraction_train_eval=a.fraction_train_eval, stopping_key=a.stopping_key)
    metric_tracker = setup_and_train(training_modules=training_modules, database=database,
                                     setup_params=SetupParams(controller=controller))

    epochs = metric_tracker.epoch_metric_values
    write_truth(framework=f"hippynn {hippynn.__version__}", settings=vars(a), loss_name="Loss",
                step_unit="epoch, 0-based (`Epoch 0:`)", tolerance=tol_sig(5),
                record="its `MetricTracker.epoch_metric_values` (`['train']['Loss']` each epoch: the training "
                       "loss evaluated on the train split after the epoch)",
                train_loss=[(i, e["train"]["Loss"]) for i, e in enumerate(epochs)],
                eval_loss=[(i, e["valid"]["Loss"]) for i, e in enumerate(epochs)], eval_name="valid Loss")


if __name__ == "__main__":
    main()
