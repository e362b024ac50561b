"""Ultralytics YOLO: ``model.train()`` on a tiny synthetic detection set made locally, CPU, offline.

The model is built from its YAML (no weights downloaded: ``pretrained=False``), the dataset is drawn here
(coloured rectangles on noise, YOLO label files), ``plots=False`` (plotting fetches a font), settings
``sync=False``. Ultralytics prints a column header (``Epoch GPU_mem box_loss cls_loss dfl_loss Instances
Size``) and one progress-bar row per batch redraw, then a validation table. The truth is its own
``results.csv`` (one row per epoch: ``train/box_loss``, ``train/cls_loss``, ``train/dfl_loss``, the epoch's
mean), at the 1-based epoch; the train loss scored is ``train/box_loss`` (the first loss column: there is no
printed total).
"""

from __future__ import annotations

import argparse
import csv
import glob
import os

from lib_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=4)
ap.add_argument("--model", default="yolov8n.yaml")
ap.add_argument("--lr0", type=float, default=0.01)
ap.add_argument("--optimizer", default="SGD")
ap.add_argument("--imgsz", type=int, default=64)
ap.add_argument("--n-train", type=int, default=32)
ap.add_argument("--batch", type=int, default=8)
ap.add_argument("--warmup", type=float, default=3.0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

rng = np.random.default_rng(0)
COLORS = [(220, 40, 40), (40, 200, 60), (40, 80, 230)]


def make_split(split: str, n: int) -> None:
    os.makedirs(f"data/images/{split}", exist_ok=True)
    os.makedirs(f"data/labels/{split}", exist_ok=True)
    for k in range(n):
        img = rng.integers(0, 60, size=(a.imgsz, a.imgsz, 3), dtype=np.uint8)
        rows = []
        for _ in range(int(rng.integers(1, 3))):
            c = int(rng.integers(0, 3))
            w, h = rng.integers(a.imgsz // 5, a.imgsz // 2, size=2)
            x0, y0 = rng.integers(0, a.imgsz - w), rng.integers(0, a.imgsz - h)
            img[y0:y0 + h, x0:x0 + w] = COLORS[c]
            rows.append(f"{c} {(x0 + w / 2) / a.imgsz:.6f} {(y0 + h / 2) / a.imgsz:.6f} {w / a.imgsz:.6f} "
                        f"{h / a.imgsz:.6f}")
        Image.fromarray(img).save(f"data/images/{split}/{k:03d}.png")
        with open(f"data/labels/{split}/{k:03d}.txt", "w") as f:
            f.write("\n".join(rows) + "\n")


make_split("train", a.n_train)
make_split("val", 8)
with open("data.yaml", "w") as f:
    f.write(f"path: {os.path.abspath('data')}\ntrain: images/train\nval: images/val\n"
            "names:\n  0: red\n  1: green\n  2: blue\n")

from ultralytics import YOLO, settings  # noqa: E402

settings.update({"sync": False})
model = YOLO(a.model)
model.train(data="data.yaml", epochs=a.epochs, imgsz=a.imgsz, batch=a.batch, device="cpu", workers=0,
            pretrained=False, plots=False, amp=False, lr0=a.lr0, optimizer=a.optimizer, warmup_epochs=a.warmup,
            project=os.path.abspath("runs"), name="train", seed=0, deterministic=True, val=True, exist_ok=True)

res = glob.glob("runs/train/results.csv")[0]
with open(res) as f:
    rows = [{k.strip(): v.strip() for k, v in r.items()} for r in csv.DictReader(f)]
keep(res)
if os.path.exists("runs/train/args.yaml"):
    keep("runs/train/args.yaml")
pts = [(int(float(r["epoch"])), float(r["train/box_loss"])) for r in rows]
write_truth(framework="ultralytics", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="box_loss", step_unit="epoch, 1-based (results.csv 'epoch'; the bar's 'e/E')",
            tolerance={"rel": 1e-9, "sig": 4, "abs": 5.1e-4}, record="runs/train/results.csv train/box_loss",
            train_loss=pts,
            cls_loss=[(int(float(r["epoch"])), float(r["train/cls_loss"])) for r in rows],
            dfl_loss=[(int(float(r["epoch"])), float(r["train/dfl_loss"])) for r in rows],
            eval_loss=[(int(float(r["epoch"])), float(r["val/box_loss"])) for r in rows], eval_name="val/box_loss")
