"""PyHealth: a tiny clinical-prediction model (its RNN, Transformer, RETAIN or MLP) trained by its own
``pyhealth.trainer.Trainer`` on a small generated EHR-like sample set (``SampleEHRDataset``: patients' visits with
condition and procedure codes, a binary or multiclass label drawn from the codes; no download). PyHealth's logger
prints to stdout: the model, the training settings, then per epoch ``--- Train epoch-0, step-10 ---`` and
``loss: 0.6931`` (and with validation data ``--- Eval epoch-0, step-10 ---`` and its metrics), with tqdm's bars on
stderr; the same records go to its own log file ``output/<exp_name>/log.txt``. Truth: that log file's
``--- Train epoch-E, step-S ---`` / ``loss: X`` records (the epoch's mean batch loss, 4 decimals), at the global step
``S``."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from h68_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="RNN", choices=["RNN", "Transformer", "RETAIN", "MLP"])
ap.add_argument("--mode", default="binary", choices=["binary", "multiclass"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=1e-2)
ap.add_argument("--optimizer", default="adam", choices=["adam", "adamw", "sgd"])
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=320)

ap.add_argument("--max-grad-norm", type=float, default=None)
ap.add_argument("--weight-decay", type=float, default=0.0)
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import torch  # noqa: E402
from pyhealth.datasets import SampleEHRDataset, get_dataloader, split_by_patient  # noqa: E402
from pyhealth.models import MLP, RETAIN, RNN, Transformer  # noqa: E402
from pyhealth.trainer import Trainer  # noqa: E402

rng = np.random.default_rng(0)
COND = [f"C{i:03d}" for i in range(40)]
PROC = [f"P{i:03d}" for i in range(20)]
risky = set(COND[:8])
samples: list[dict[str, object]] = []
for p in range(a.n):
    visits = int(rng.integers(1, 4))
    conds = [[str(c) for c in rng.choice(COND, size=int(rng.integers(1, 5)), replace=False)] for _ in range(visits)]
    procs = [[str(c) for c in rng.choice(PROC, size=int(rng.integers(1, 3)), replace=False)] for _ in range(visits)]
    score = sum(c in risky for v in conds for c in v) + rng.normal(0, 0.5)
    if a.mode == "binary":
        y: int | str = int(score > 0.8)
    else:
        y = "low" if score < 0.5 else ("mid" if score < 1.5 else "high")
    if a.model == "MLP":  # PyHealth's MLP takes a flat list of codes per sample: the visits' codes together
        samples.append({"patient_id": f"patient-{p}", "visit_id": f"visit-{p}",
                        "conditions": [c for v in conds for c in v], "procedures": [c for v in procs for c in v],
                        "label": y})
    else:
        samples.append({"patient_id": f"patient-{p}", "visit_id": f"visit-{p}", "conditions": conds,
                        "procedures": procs, "label": y})
dataset = SampleEHRDataset(samples=samples, dataset_name="synthetic_ehr", task_name=f"risk_{a.mode}")
if a.no_val:
    train_ds, val_ds = dataset, None
else:
    train_ds, val_ds, _ = split_by_patient(dataset, [0.8, 0.2, 0.0], seed=0)
train_loader = get_dataloader(train_ds, batch_size=a.batch, shuffle=True)
val_loader = None if val_ds is None else get_dataloader(val_ds, batch_size=a.batch, shuffle=False)

cls = {"RNN": RNN, "Transformer": Transformer, "RETAIN": RETAIN, "MLP": MLP}[a.model]
sizes = {"embedding_dim": 16} if a.model in ("Transformer", "RETAIN") else {"embedding_dim": 16, "hidden_dim": 16}
model = cls(dataset=dataset, feature_keys=["conditions", "procedures"], label_key="label", mode=a.mode, **sizes)
opt = {"adam": torch.optim.Adam, "adamw": torch.optim.AdamW, "sgd": torch.optim.SGD}[a.optimizer]
trainer = Trainer(model=model, device="cpu", output_path="output", exp_name="run")
monitor = None if a.no_val else ("pr_auc" if a.mode == "binary" else "accuracy")
trainer.train(train_dataloader=train_loader, val_dataloader=val_loader, epochs=a.epochs, optimizer_class=opt,
              optimizer_params={"lr": a.lr}, weight_decay=a.weight_decay,
              max_grad_norm=a.max_grad_norm, monitor=monitor)

own = Path("output/run/log.txt")
keep(own)
text = own.read_text()
train: list[tuple[int, str]] = []
evals: list[tuple[int, str]] = []
head = re.compile(r"--- (Train|Eval) epoch-(\d+), step-(\d+) ---")
where: list[tuple[int, str]] | None = None
step = 0
for line in text.splitlines():
    m = head.search(line)
    if m:
        where, step = (train if m[1] == "Train" else evals), int(m[3])
    elif where is not None and " loss: " in line:
        where.append((step, line.split(" loss: ")[1].strip()))
        where = None
    elif "---" in line:
        where = None
import pyhealth  # noqa: E402

write_truth(framework=f"pyhealth {pyhealth.__version__}", settings=vars(a), loss_name="loss",
            step_unit="global optimizer step (`--- Train epoch-0, step-10 ---`: epoch 0-based, step the steps so far)",
            tolerance=tol_decimals(4),
            record="its own log file `output/<exp_name>/log.txt` (`--- Train epoch-E, step-S ---` then `loss: X`)",
            train_loss=train, eval_loss=evals or None, eval_name="Eval loss" if evals else None)
