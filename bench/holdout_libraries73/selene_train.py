"""Selene (selene-sdk): a tiny DeepSEA-like convolutional network over one-hot DNA trained with Selene's own
``TrainModel`` (``train_and_validate``), as its Python-API tutorials do: a ``MultiSampler`` over two
``MatFileSampler``s (train and validation ``.mat`` files of one-hot sequences, ``(N, 4, L)``, and targets) made here
from synthetic sequences (a feature is on when its motif occurs; no download). Multi-label classification with
``BCELoss`` or a regression of motif counts with ``MSELoss``; SGD (momentum) or Adam; Selene's ``ReduceLROnPlateau``
on the validation loss or none. Selene logs to stdout (``2026-12-07 09:10:11,123 - [STEP 50] average number of steps
per second: 180.3``, ``... - training loss: 0.6931...``, ``... - validation roc_auc: 0.61``, ``... - validation loss:
...``; the full float repr) every ``report_stats_every_n_steps`` and writes its own records in the output folder:
``selene_sdk.train_model.train.txt`` (a header ``loss``, then one average training loss a report) and
``selene_sdk.train_model.validation.txt``. Truth: ``selene_sdk.train_model.train.txt`` (the average training loss
over the steps since the last report, at the report step: ``[STEP 50]``, 0-based steps)."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from h73_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="SGD", choices=["SGD", "Adam"])
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--steps", type=int, default=400)
ap.add_argument("--report", type=int, default=50)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=1200)
ap.add_argument("--length", type=int, default=100)
ap.add_argument("--features", type=int, default=4)
ap.add_argument("--no-scheduler", action="store_true")
ap.add_argument("--quiet", action="store_true", help="logging_verbosity=1 (no debug lines in its own log file)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import scipy.io  # noqa: E402
import torch  # noqa: E402
from selene_sdk import TrainModel  # noqa: E402
from selene_sdk.samplers import MultiSampler  # noqa: E402
from selene_sdk.samplers.file_samplers import MatFileSampler  # noqa: E402
from torch import nn  # noqa: E402

rng = np.random.default_rng(0)
ALPHABET = "ACGT"
motifs = ["".join(rng.choice(list(ALPHABET), size=6)) for _ in range(a.features)]


def make(n: int, path: str) -> None:
    seqs = rng.integers(0, 4, size=(n, a.length))
    targets = np.zeros((n, a.features), dtype="float32")
    for i in range(n):
        for f, motif in enumerate(motifs):
            k = int(rng.poisson(0.5))
            for _ in range(k):
                pos = int(rng.integers(0, a.length - len(motif)))
                seqs[i, pos:pos + len(motif)] = [ALPHABET.index(c) for c in motif]
            s = "".join(ALPHABET[j] for j in seqs[i])
            targets[i, f] = float(s.count(motif)) if a.task == "reg" else float(motif in s)
    onehot = np.eye(4, dtype="float32")[seqs].transpose(0, 2, 1)  # (N, 4, L)
    scipy.io.savemat(path, {"sequences": onehot, "targets": targets})


make(a.n, "train.mat")
make(max(200, a.n // 4), "valid.mat")
features = [f"motif_{m}" for m in motifs]
sampler = MultiSampler(MatFileSampler("train.mat", "sequences", targets_key="targets", random_seed=1),
                       MatFileSampler("valid.mat", "sequences", targets_key="targets", random_seed=2, shuffle=False),
                       features)


class TinySEA(nn.Module):
    """A DeepSEA-like network, small: convolution, pooling, a dense head (a sigmoid for classification)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(4, 16, 8), nn.ReLU(), nn.MaxPool1d(4), nn.Conv1d(16, 16, 4), nn.ReLU(),
                                  nn.AdaptiveMaxPool1d(1))
        self.head = nn.Linear(16, a.features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.head(self.conv(x).squeeze(-1))
        return torch.sigmoid(out) if a.task == "cls" else out


model = TinySEA()
criterion = nn.BCELoss() if a.task == "cls" else nn.MSELoss()
opt_cls = torch.optim.SGD if a.optimizer == "SGD" else torch.optim.Adam
opt_kwargs = {"lr": a.lr, "momentum": 0.9} if a.optimizer == "SGD" else {"lr": a.lr}
kw: dict = {"metrics": {}} if a.task == "reg" else {}  # a regression: no ROC AUC / average precision
trainer = TrainModel(model, sampler, criterion, opt_cls, opt_kwargs, batch_size=a.batch, max_steps=a.steps,
                     report_stats_every_n_steps=a.report, output_dir="out", save_checkpoint_every_n_steps=10 ** 9,
                     cpu_n_threads=1, logging_verbosity=1 if a.quiet else 2, use_scheduler=not a.no_scheduler,
                     scheduler_kwargs={"patience": 2, "factor": 0.8}, **kw)
trainer.train_and_validate()

rows = Path("out/selene_sdk.train_model.train.txt").read_text().split("\n")
vals = [r for r in rows[1:] if r.strip()]
val_rows = [r.split("\t")[0] for r in Path("out/selene_sdk.train_model.validation.txt").read_text().split("\n")[1:]
            if r.strip()]
steps = [a.report * (i + 1) for i in range(len(vals))]
for own in ("selene_sdk.train_model.train.txt", "selene_sdk.train_model.validation.txt",
            "selene_sdk.train_model.log"):
    if Path("out", own).is_file():
        keep(Path("out", own))
shutil.rmtree("out", ignore_errors=True)  # its checkpoints (best_model.pth.tar, checkpoint.pth.tar) are not kept
from importlib.metadata import version  # noqa: E402

write_truth(framework=f"selene-sdk {version('selene-sdk')}", settings=vars(a), loss_name="training loss",
            step_unit="step, 0-based (`[STEP 50]`), every `report_stats_every_n_steps`",
            tolerance={"rel": 1e-12, "abs": 1e-15},
            record="its own `selene_sdk.train_model.train.txt` (one average training loss a report)",
            train_loss=list(zip(steps, vals, strict=True)), eval_loss=list(zip(steps, val_rows, strict=True)),
            eval_name="validation loss")
