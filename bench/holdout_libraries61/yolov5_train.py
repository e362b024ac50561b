"""yolov5 (the ``yolov5`` PyPI package, 7.0.14): ``yolov5.train.run(...)`` as its README shows, on a tiny synthetic
YOLO-format data set made here (64x64 images of coloured rectangles on noise, 1 or 2 classes, labels as
``class cx cy w h``), yolov5n built from its yaml with no pretrained weights (``weights=''``), ``--img 64``, CPU.
yolov5 prints its own lines: ``train: weights=, cfg=...`` (its options), the hyperparameters, the model summary,
the data-set scans, then per epoch a header ``Epoch GPU_mem box_loss obj_loss cls_loss Instances Size`` and tqdm
rows (stderr, no TTY: ``\\r`` redraws) ``0/9  0G  0.1163  0.02393  0  26  64: 100%|...``, the running means
``%11.4g``, then its validation table ``Class Images Instances P R mAP50 mAP50-95``. Truth: its own
``results.csv`` (``train/box_loss`` at ``epoch``, 0-based), kept with ``opt.yaml`` and ``hyp.yaml``."""

from __future__ import annotations

import argparse
import csv
import math
import os
import shutil
import sys
from pathlib import Path

from h61_truth import keep, seed_all, torchvision_cpu_nms, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--batch", type=int, default=8)
ap.add_argument("--images", type=int, default=24, help="training images")
ap.add_argument("--classes", type=int, default=1)
ap.add_argument("--optimizer", default="SGD", choices=["SGD", "Adam", "AdamW"])
ap.add_argument("--lr0", type=float, default=0.01)
ap.add_argument("--lrf", type=float, default=0.01)
ap.add_argument("--warmup", type=float, default=1.0, help="warmup epochs")
ap.add_argument("--cos-lr", action="store_true")
ap.add_argument("--noval", action="store_true")
ap.add_argument("--no-mosaic", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
# yolov5 7.0.14 strips its checkpoints with torch.load(f) after training: torch >= 2.6 loads weights only by default
# and refuses its pickles unless told to load them whole (torch's own switch, as yolov5's users set it)
os.environ["TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"] = "1"
seed_all(0)
torchvision_cpu_nms()

import matplotlib  # noqa: E402
import numpy as np  # noqa: E402
import yaml  # noqa: E402
import yolov5  # noqa: E402
from PIL import Image  # noqa: E402
from yolov5 import train  # noqa: E402

work = Path.cwd()
rng = np.random.default_rng(0)
COLORS = [(230, 40, 40), (40, 200, 60)]


def make_split(split: str, n: int) -> None:
    """``n`` images of 1-3 rectangles on noise, with their YOLO labels."""
    (work / "data" / "images" / split).mkdir(parents=True, exist_ok=True)
    (work / "data" / "labels" / split).mkdir(parents=True, exist_ok=True)
    for i in range(n):
        img = rng.integers(0, 90, size=(64, 64, 3), dtype=np.uint8)
        rows = []
        for _ in range(int(rng.integers(1, 4))):
            c = int(rng.integers(0, a.classes))
            w, h = rng.uniform(0.2, 0.5, size=2)
            cx, cy = rng.uniform(w / 2, 1 - w / 2), rng.uniform(h / 2, 1 - h / 2)
            x0, x1 = int((cx - w / 2) * 64), int((cx + w / 2) * 64)
            y0, y1 = int((cy - h / 2) * 64), int((cy + h / 2) * 64)
            img[y0:y1, x0:x1] = COLORS[c]
            rows.append(f"{c} {cx:.5f} {cy:.5f} {w:.5f} {h:.5f}")
        Image.fromarray(img).save(work / "data" / "images" / split / f"{i:03d}.jpg")
        (work / "data" / "labels" / split / f"{i:03d}.txt").write_text("\n".join(rows) + "\n")


# offline: yolov5's check_dataset fetches Arial.ttf for its plots unless the font is there (the working folder or its
# config folder); matplotlib's DejaVu Sans stands in for it
shutil.copy(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf", work / "Arial.ttf")
make_split("train", a.images)
make_split("val", 8)
names = ["red", "green"][: a.classes]
(work / "shapes.yaml").write_text(yaml.safe_dump({"path": str(work / "data"), "train": "images/train",
                                                  "val": "images/val", "names": dict(enumerate(names))}))
hyp = yaml.safe_load((Path(train.__file__).parent / "data" / "hyps" / "hyp.scratch-low.yaml").read_text())
hyp.update(lr0=a.lr0, lrf=a.lrf, warmup_epochs=a.warmup, mosaic=0.0 if a.no_mosaic else 1.0)
(work / "hyp.yaml").write_text(yaml.safe_dump(hyp))
cfg = Path(train.__file__).parent / "models" / "yolov5n.yaml"
sys.argv = sys.argv[:1]  # train.run reads the command line too (parse_known_args): only the options given here
opt = train.run(data=str(work / "shapes.yaml"), cfg=str(cfg), weights="", hyp=str(work / "hyp.yaml"),
                imgsz=64, epochs=a.epochs, batch_size=a.batch, optimizer=a.optimizer, cos_lr=a.cos_lr,
                noval=a.noval, device="cpu", workers=0, project=str(work / "runs"), name="exp", exist_ok=True,
                noplots=True, seed=0, patience=1000)
save = Path(opt.save_dir)
with open(save / "results.csv") as f:
    rows = [{k.strip(): v.strip() for k, v in r.items()} for r in csv.DictReader(f)]
keep(save / "results.csv", save / "opt.yaml", save / "hyp.yaml")
ep = [int(r["epoch"]) for r in rows]
write_truth(framework=f"yolov5 {yolov5.__version__}", settings=vars(a), loss_name="box_loss",
            step_unit="epoch, 0-based (`3/9` in the bar rows)", tolerance={"rel": 5.1e-4},
            record="its own `results.csv` (`train/box_loss` at `epoch`)",
            train_loss=[(e, float(r["train/box_loss"])) for e, r in zip(ep, rows, strict=True)],
            eval_loss=[(e, float(r["val/box_loss"])) for e, r in zip(ep, rows, strict=True)
                       if not math.isnan(float(r["val/box_loss"]))],
            eval_name="val/box_loss")
