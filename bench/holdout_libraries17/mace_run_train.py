"""mace-torch: its ``run_train`` script (``mace_run_train``'s ``main``, the same code as the console script) on a
small synthetic extended-XYZ file (6-atom clusters, energies and forces from ASE's Lennard-Jones calculator), a tiny
MACE (``8x0e``, one interaction), on CPU, as its README's training example runs it. Its logger writes to stdout
and to its own ``logs/<name>_run-<seed>.log`` (kept and scored, with ``truth_store.json``): the setup, then once per
``eval_interval`` epochs ``2026-12-06 07:01:46.561 INFO: Epoch 0: head: Default, loss=2.40230370,
RMSE_E_per_atom=   23.32 meV, RMSE_F=  256.64 meV / A`` - the loss on the validation set (``Started training,
reporting errors on validation set``; ``%.8f``), ``Initial:`` before the first epoch -, then the error table.
Truth: its own results file ``results/<name>_run-<seed>_train.txt`` (JSON lines, kept): the ``"mode": "eval"``
entries' ``loss`` at their ``epoch`` (0-based, as ``Epoch N:`` prints it; the unnumbered ``Initial`` left out). The
batch losses (``"mode": "opt"``) are not printed."""

from __future__ import annotations

import argparse
import glob
import json
import sys

import numpy as np
from h17_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=10)
ap.add_argument("--eval-interval", type=int, default=1)
ap.add_argument("--optimizer", default="adam", choices=["adam", "adamw"])
ap.add_argument("--scheduler", default="ReduceLROnPlateau", choices=["ReduceLROnPlateau", "ExponentialLR"])
ap.add_argument("--gamma", type=float, default=0.9993)
ap.add_argument("--channels", type=int, default=8)
ap.add_argument("--configs", type=int, default=60)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from ase import Atoms  # noqa: E402
from ase.calculators.lj import LennardJones  # noqa: E402
from ase.io import write  # noqa: E402

rng = np.random.default_rng(0)
configs = []
for _ in range(a.configs):
    while True:
        pos = rng.uniform(0, 3.2, size=(6, 3))
        d = np.linalg.norm(pos[:, None] - pos[None], axis=-1) + np.eye(6) * 9
        if d.min() > 0.95:
            break
    at = Atoms("H4O2", positions=pos)
    at.calc = LennardJones(sigma=1.0, epsilon=0.1, rc=3.0)
    e, f = at.get_potential_energy(), at.get_forces()
    at.calc = None
    at.info["REF_energy"] = e
    at.arrays["REF_forces"] = f
    configs.append(at)
write("train.xyz", configs)

import mace  # noqa: E402
from mace.cli.run_train import main  # noqa: E402

name = "lj_mace"
sys.argv = ["mace_run_train", f"--name={name}", "--train_file=train.xyz", "--valid_fraction=0.2", "--E0s=average",
            "--model=MACE", f"--hidden_irreps={a.channels}x0e", "--r_max=3.0", f"--batch_size={a.batch}",
            f"--max_num_epochs={a.epochs}", "--device=cpu", "--default_dtype=float32", "--num_interactions=1",
            "--max_L=0", "--correlation=2", f"--seed={a.seed}", f"--eval_interval={a.eval_interval}",
            f"--lr={a.lr}", f"--optimizer={a.optimizer}", f"--scheduler={a.scheduler}",
            f"--lr_scheduler_gamma={a.gamma}"]
main()

results = glob.glob(f"results/{name}_run-{a.seed}_train.txt")[0]
rows = [json.loads(ln) for ln in open(results) if ln.strip()]
evals = [(r["epoch"], r["loss"]) for r in rows if r.get("mode") == "eval" and r.get("epoch") is not None]
own_log = f"logs/{name}_run-{a.seed}.log"
keep(results)
keep(own_log)
common = dict(framework=f"mace-torch {mace.__version__}", settings=vars(a),
              loss_name="loss (on the validation set, as `Epoch N: head: Default, loss=` prints it)",
              step_unit="epoch, 0-based (`Epoch N:`)", tolerance=tol_decimals(8),
              record=f"its results file `{results}` (`\"mode\": \"eval\"` entries: `loss` at `epoch`)",
              train_loss=evals)
write_truth(**common)
write_truth(**common, name="truth_store.json", file=own_log.split("/")[-1])
