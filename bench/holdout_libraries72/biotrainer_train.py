"""biotrainer: a small supervised model (FNN, DeeperFNN, LogReg or CNN) trained by its own command, ``biotrainer
train --config config.yml`` (called in-process, as the console script does), on protein sequences drawn here (a FASTA
file whose headers carry ``TARGET=`` and ``SET=train/val/test``, no download) embedded by its built-in
``one_hot_encoding`` embedder: a per-sequence regression (``sequence_to_value``), a per-sequence classification
(``sequence_to_class``) or a per-residue classification (``residue_to_class``). biotrainer logs (Python logging, to
stderr and to its ``logger_out.log``) its pipeline steps, then per epoch ``Epoch 3``, ``Training results``,
``\tloss: 0.56`` (one line a metric, 2 decimals), ``Validation results`` and the same metrics of the validation set,
and at the end prints its whole result dictionary to stdout. Truth: its ``out.yml`` (``training_loss`` by epoch,
0-based, of the hold-out split)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from h72_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--protocol", default="sequence_to_value",
                choices=["sequence_to_value", "sequence_to_class", "residue_to_class"])
ap.add_argument("--model", default="FNN")
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--epochs", type=int, default=12)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--n", type=int, default=200)
ap.add_argument("--patience", type=int, default=0, help="early-stopping patience (0: the number of epochs)")
ap.add_argument("--class-weights", action="store_true")
ap.add_argument("--writer", default="none", choices=["none", "tensorboard"])
ap.add_argument("--scale", type=float, default=1.0, help="factor on the regression target")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import yaml  # noqa: E402

AA = "ACDEFGHIKLMNPQRSTVWY"
rng = np.random.default_rng(0)
records = []
n_val = n_test = a.n // 8
for i in range(a.n):
    seq = "".join(rng.choice(list(AA), int(rng.integers(20, 41))))
    split = "train" if i < a.n - n_val - n_test else ("val" if i < a.n - n_test else "test")
    if a.protocol == "residue_to_class":
        # a residue's class: hydrophobic (H), charged (C) or other (O), flipped at random 10 % of the time
        lab = "".join("H" if c in "AILMFVW" else "C" if c in "DEKR" else "O" for c in seq)
        lab = "".join(ch if rng.random() > 0.1 else "O" for ch in lab)
        records.append(f">p{i} TARGET={lab} SET={split}\n{seq}\n")
        continue
    charge = (seq.count("K") + seq.count("R") - seq.count("D") - seq.count("E")) / len(seq)
    hyd = sum(seq.count(c) for c in "AILMFVW") / len(seq)
    if a.protocol == "sequence_to_value":
        target = f"{a.scale * (10 * charge + 5 * hyd + rng.normal(0, 0.1)):.4f}"
    else:
        target = "basic" if charge > 0.03 else "acidic" if charge < -0.03 else "neutral"
    records.append(f">p{i} TARGET={target} SET={split}\n{seq}\n")
cfg: dict = {"protocol": a.protocol, "model_choice": a.model, "optimizer_choice": a.optimizer,
             "learning_rate": a.lr, "num_epochs": a.epochs, "batch_size": a.batch,
             "patience": a.patience or a.epochs, "device": "cpu", "embedder_name": "one_hot_encoding", "seed": 0,
             "external_writer": a.writer}
Path("sequences.fasta").write_text("".join(records))
cfg["input_file"] = "sequences.fasta"
if a.class_weights:
    cfg["use_class_weights"] = True
Path("config.yml").write_text(yaml.safe_dump(cfg, sort_keys=False))

from biotrainer.utilities.cli import app  # noqa: E402

sys.argv = ["biotrainer", "train", "--config", "config.yml"]
try:
    app()
except SystemExit:
    pass

out = yaml.safe_load(Path("output/out.yml").read_text())
for own in ("output/out.yml", "output/logger_out.log", "config.yml"):
    keep(own)
import biotrainer  # noqa: E402


def split_losses(doc: dict, key: str) -> list[tuple[int, float]]:
    """The ``key`` series (``training_loss``, ``validation_loss``) of the hold-out split, by epoch."""
    found: list[tuple[int, float]] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if key in node and isinstance(node[key], dict) and not found:
                found.extend((int(e), float(v)) for e, v in node[key].items())
                return
            for v in node.values():
                walk(v)

    walk(doc)
    return sorted(found)


write_truth(framework=f"biotrainer {biotrainer.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 0-based (`Epoch 0`)", tolerance=tol_decimals(2),
            record="its `out.yml` (`training_loss` by epoch of the hold-out split)",
            train_loss=split_losses(out, "training_loss"), eval_loss=split_losses(out, "validation_loss"),
            eval_name="validation loss")
