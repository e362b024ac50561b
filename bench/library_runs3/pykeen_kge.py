"""PyKEEN 1.x: ``pipeline()`` training a knowledge-graph embedding on a dataset the package ships (Nations,
Kinships, UMLS: no download), with a result tracker.

PyKEEN prints a tqdm bar over the epochs (``Training epochs on cpu: 45%|...| 9/20 [00:02<00:03, 3.4epoch/s,
loss=0.123, prev_loss=0.145]``), per-epoch batch bars, then an evaluation bar. Trackers: ``csv`` (a file
``type,step,key,value``), ``json`` (a JSON object per line), ``console`` (``Step: 3`` then ``Metric: loss = 0.12``
lines on stdout). Truth: the tracker's own file (csv/json) or the model's ``losses`` (console), at the epoch (1-based,
the tracker's ``step``).
"""

from __future__ import annotations

import argparse
import glob
import json

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="TransE")
ap.add_argument("--dataset", default="Nations")
ap.add_argument("--epochs", type=int, default=30)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="Adam")
ap.add_argument("--tracker", default="csv", choices=["csv", "json", "console"])
ap.add_argument("--loss", default=None)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from pykeen.pipeline import pipeline  # noqa: E402

torch.set_num_threads(1)
tk: dict = {"csv": {"path": "tracker.csv"}, "json": {"path": "tracker.jsonl"}, "console": {"writer": "builtin"}}[
    a.tracker]
res = pipeline(dataset=a.dataset, model=a.model, model_kwargs={"embedding_dim": 32}, loss=a.loss,
               optimizer=a.optimizer, optimizer_kwargs={"lr": a.lr}, training_kwargs={"num_epochs": a.epochs,
               "batch_size": 256}, random_seed=0, device="cpu", result_tracker=a.tracker,
               result_tracker_kwargs=tk, evaluation_kwargs={"batch_size": 256}, use_testing_data=False)
losses = [[i + 1, float(v)] for i, v in enumerate(res.losses)]
common = dict(framework=f"pykeen {a.model}", settings=vars(a), label=a.label, should_stop=a.should_stop,
              loss_name="loss", step_unit="epoch, 1-based (the tracker's step)",
              tolerance={"rel": 1e-6, "sig": 3, "abs": 1e-9})
if a.tracker == "console":
    write_truth(**common, record="PipelineResult.losses (the per-epoch mean loss the tracker prints)",
                train_loss=losses)
else:
    f = glob.glob("tracker.*")[0]
    keep(f)
    pts = []
    if a.tracker == "csv":
        import csv

        with open(f) as fh:
            for r in csv.DictReader(fh):
                if r["type"] == "metric" and r["key"] == "loss":
                    pts.append([int(r["step"]), float(r["value"])])
    else:
        for ln in open(f):
            d = json.loads(ln)
            if "metrics" in d and "loss" in d["metrics"]:
                pts.append([int(d["step"]), float(d["metrics"]["loss"])])
    write_truth(**common, record=f"the {a.tracker} result tracker's file, its 'loss' metric", train_loss=pts)
    store_entry(f, "truth.json")
