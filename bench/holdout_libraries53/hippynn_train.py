"""hippynn (LANL's atomistic library): a tiny HIP-NN potential trained with its own experiment loop,
``hippynn.experiment.setup_and_train``, as its examples do (graph nodes for species, positions, the network and a
hierarchical energy target, a dict of validation losses whose ``Loss`` is the training loss, a ``PatienceController``
and the terminal teed into ``training_log.txt`` by ``hippynn.tools.log_terminal``). Data: small synthetic clusters
of H and C atoms labelled by a Morse pair potential (energy, and forces when asked), no download. hippynn prints per
epoch ``Epoch 3:``, ``Learning rate:``, ``Batch Size:``, its tqdm bars (stderr) and a table, metrics as rows and the
``train`` / ``valid`` splits as columns (``{:>10.5g}``, a ``*`` before a value better than before). Truth: its
``MetricTracker`` (``epoch_metric_values[epoch]['train']['Loss']``, epochs 0-based)."""

from __future__ import annotations

import argparse

from h53_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=12)
ap.add_argument("--lr", type=float, default=0.003)
ap.add_argument("--optimizer", default="adam", choices=["adam", "adamw", "sgd"])
ap.add_argument("--scheduler", default="none", choices=["none", "plateau_batch", "exp"])
ap.add_argument("--gamma", type=float, default=0.9, help="ExponentialLR's factor each epoch")
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--n", type=int, default=160, help="number of clusters")
ap.add_argument("--atoms", type=int, default=6)
ap.add_argument("--forces", action="store_true", help="train on forces too")
ap.add_argument("--features", type=int, default=10)
ap.add_argument("--interactions", type=int, default=1)
ap.add_argument("--train-eval", type=float, default=1.0, help="fraction of the training set evaluated each epoch")
ap.add_argument("--patience", type=int, default=50)
ap.add_argument("--no-progress", action="store_true", help="hippynn's PROGRESS setting off (no tqdm bars)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import torch  # noqa: E402

torch.set_default_dtype(torch.float32)
import hippynn  # noqa: E402

if a.no_progress:
    hippynn.reload_settings(PROGRESS="none")
from hippynn.experiment import SetupParams, setup_and_train  # noqa: E402
from hippynn.experiment.assembly import assemble_for_training  # noqa: E402
from hippynn.experiment.controllers import PatienceController, RaiseBatchSizeOnPlateau  # noqa: E402
from hippynn.graphs import inputs, loss, networks, physics, targets  # noqa: E402

rng = np.random.default_rng(0)


def clusters(n: int, n_at: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` clusters of ``n_at`` H / C atoms in a 3.2 Å box, no two closer than 0.95 Å."""
    z = rng.choice([1, 6], size=(n, n_at))
    r = np.zeros((n, n_at, 3))
    for m in range(n):
        pts: list[np.ndarray] = []
        while len(pts) < n_at:
            p = rng.uniform(0.0, 3.2, 3)
            if all(np.linalg.norm(p - q) > 0.95 for q in pts):
                pts.append(p)
        r[m] = pts
    return z, r


def morse(z: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Energies (eV) and forces of a Morse pair potential whose depth and length depend on the pair's species."""
    zt = torch.as_tensor(z)
    rt = torch.as_tensor(r, dtype=torch.float64).requires_grad_(True)
    d = (rt[:, :, None, :] - rt[:, None, :, :]).norm(dim=-1)
    c = (zt == 6).double()
    depth = 0.5 + 1.5 * c[:, :, None] * c[:, None, :] + 0.5 * (c[:, :, None] + c[:, None, :])
    r0 = 1.1 + 0.2 * (c[:, :, None] + c[:, None, :])
    off = ~torch.eye(z.shape[1], dtype=torch.bool)
    x = torch.exp(-1.6 * (d - r0))
    e = (depth * (x * x - 2 * x))[:, off].sum(1) / 2
    (f,) = torch.autograd.grad(-e.sum(), rt)
    return e.detach().numpy(), f.numpy()


Z, R = clusters(a.n, a.atoms)
E, F = morse(Z, R)
arrays = {"Z": Z.astype(np.int64), "R": R.astype(np.float32), "T": E[:, None].astype(np.float32),
          "F": F.astype(np.float32)}

species = inputs.SpeciesNode(db_name="Z")
positions = inputs.PositionsNode(db_name="R")
network = networks.Hipnn("HIPNN", (species, positions), module_kwargs={
    "possible_species": [0, 1, 6], "n_features": a.features, "n_sensitivities": 8, "dist_soft_min": 0.8,
    "dist_soft_max": 3.0, "dist_hard_max": 3.6, "n_interaction_layers": a.interactions, "n_atom_layers": 2})
henergy = targets.HEnergyNode("HEnergy", network)
molecule_energy = henergy.mol_energy
molecule_energy.db_name = "T"
hierarchicality = henergy.hierarchicality

rmse_energy = loss.MSELoss.of_node(molecule_energy) ** (1 / 2)
mae_energy = loss.MAELoss.of_node(molecule_energy)
rsq_energy = loss.Rsq.of_node(molecule_energy)
l2_reg = loss.l2reg(network)
loss_error = rmse_energy + mae_energy
validation_losses = {"T-RMSE": rmse_energy, "T-MAE": mae_energy, "T-RSQ": rsq_energy}
if a.forces:
    gradient = physics.GradientNode("forces", (henergy, positions), sign=-1)
    gradient.db_name = "F"
    rmse_force = loss.MSELoss.of_node(gradient) ** (1 / 2)
    mae_force = loss.MAELoss.of_node(gradient)
    validation_losses.update({"F-RMSE": rmse_force, "F-MAE": mae_force})
    loss_error = loss_error + rmse_force + mae_force
rbar = loss.Mean.of_node(hierarchicality)
loss_regularization = 1e-6 * loss.Mean(l2_reg) + rbar
train_loss = loss_error + loss_regularization
validation_losses.update({"T-Hier": rbar, "L2Reg": l2_reg, "Loss-Err": loss_error,
                          "Loss-Reg": loss_regularization, "Loss": train_loss})

training_modules, db_info = assemble_for_training(train_loss, validation_losses)
database = hippynn.databases.Database(arrays, seed=0, valid_size=0.15, test_size=0.15, **db_info)

params = training_modules.model.parameters()
optimizer: torch.optim.Optimizer
if a.optimizer == "adam":
    optimizer = torch.optim.Adam(params, lr=a.lr)
elif a.optimizer == "adamw":
    optimizer = torch.optim.AdamW(params, lr=a.lr, weight_decay=1e-4)
else:
    optimizer = torch.optim.SGD(params, lr=a.lr, momentum=0.9)
scheduler: object = None
if a.scheduler == "plateau_batch":
    scheduler = RaiseBatchSizeOnPlateau(optimizer=optimizer, max_batch_size=4 * a.batch, patience=2, factor=0.5)
elif a.scheduler == "exp":
    scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=a.gamma)
controller = PatienceController(optimizer=optimizer, scheduler=scheduler, batch_size=a.batch,
                                eval_batch_size=64, max_epochs=a.epochs, termination_patience=a.patience,
                                fraction_train_eval=a.train_eval, stopping_key="Loss-Err")

with hippynn.tools.active_directory("tiny_hipnn"):
    with hippynn.tools.log_terminal("training_log.txt", "wt"):
        metric_tracker = setup_and_train(training_modules=training_modules, database=database,
                                         setup_params=SetupParams(controller=controller))
    keep("training_log.txt")


rows = metric_tracker.epoch_metric_values
write_truth(framework=f"hippynn {hippynn.__version__}", settings=vars(a), loss_name="Loss",
            step_unit="epoch, 0-based (`Epoch 0:`)", tolerance=tol_sig(5),
            record="its `MetricTracker` (`epoch_metric_values[epoch]['train']['Loss']`: the training loss on the "
                   "training set, evaluated after each epoch)",
            train_loss=[(i, float(r["train"]["Loss"])) for i, r in enumerate(rows)],
            eval_loss=[(i, float(r["valid"]["Loss"])) for i, r in enumerate(rows)], eval_name="valid Loss")
