"""OpenCLIP (open_clip_torch): a tiny CLIP (a 2-layer ViT on 32x32 images, a 2-layer text transformer) trained from
scratch with its own training command, ``python -m open_clip_train.main`` (started as a subprocess, as users start
it), on a small CSV dataset (``--dataset-type csv``: tab-separated ``filepath``/``title``) of coloured shapes drawn
here with PIL and captioned from what is drawn (no download). The model is a ``local-dir:`` config folder
(``open_clip_config.json``, no weights). OpenCLIP logs to the console (stderr) and to ``logs/NAME/out.log``
(``Train Epoch: 1 [ 64/256 (25%)] ... Loss: 3.4657 (3.4657)``); with ``--report-to tensorboard`` it writes its
scalars (``train/loss`` at its global step) under ``logs/NAME/tensorboard``; with validation data it appends
``results.jsonl``. Truth: the TensorBoard scalar ``train/loss`` (the logged batch's loss, printed with 5 significant
digits) at OpenCLIP's own step (``num_batches_per_epoch * epoch + batch``, 0-based)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from h57_truth import keep, seed_all, tol_sig, tolerate_cpu_torchvision, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=256)
ap.add_argument("--opt", default="adamw")
ap.add_argument("--scheduler", default="cosine")
ap.add_argument("--warmup", type=int, default=4)
ap.add_argument("--cooldown", type=int, default=0)
ap.add_argument("--wd", type=float, default=0.1)
ap.add_argument("--log-every", type=int, default=2)
ap.add_argument("--accum", type=int, default=1)
ap.add_argument("--siglip", action="store_true")
ap.add_argument("--clip-norm", type=float, default=None)
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

rng = np.random.default_rng(0)
COLORS = {"red": (220, 30, 30), "green": (30, 180, 40), "blue": (30, 60, 220), "yellow": (230, 210, 30),
          "purple": (140, 40, 170), "white": (245, 245, 245)}
SHAPES = ["square", "circle", "triangle", "cross"]
BACKS = {"black": (0, 0, 0), "gray": (110, 110, 110)}


def draw(path: Path, color: str, shape: str, back: str) -> None:
    im = Image.new("RGB", (32, 32), BACKS[back])
    d = ImageDraw.Draw(im)
    s = int(rng.integers(8, 14))
    cx, cy = (int(v) for v in rng.integers(s + 1, 31 - s, size=2))
    box = (cx - s, cy - s, cx + s, cy + s)
    c = COLORS[color]
    if shape == "square":
        d.rectangle(box, fill=c)
    elif shape == "circle":
        d.ellipse(box, fill=c)
    elif shape == "triangle":
        d.polygon([(cx, cy - s), (cx - s, cy + s), (cx + s, cy + s)], fill=c)
    else:
        d.rectangle((cx - s, cy - 2, cx + s, cy + 2), fill=c)
        d.rectangle((cx - 2, cy - s, cx + 2, cy + s), fill=c)
    im.save(path)


def dataset(name: str, n: int) -> str:
    folder = Path("images") / name
    folder.mkdir(parents=True, exist_ok=True)
    rows = ["filepath\ttitle"]
    for i in range(n):
        color, shape, back = (str(rng.choice(list(k))) for k in (COLORS, SHAPES, BACKS))
        p = folder / f"{i:04d}.png"
        draw(p, color, shape, back)
        rows.append(f"{p}\ta {color} {shape} on a {back} background")
    Path(f"{name}.csv").write_text("\n".join(rows) + "\n")
    return f"{name}.csv"


cfg = {"model_cfg": {"embed_dim": 64,
                     "vision_cfg": {"image_size": 32, "layers": 2, "width": 64, "head_width": 32, "patch_size": 8},
                     "text_cfg": {"context_length": 16, "vocab_size": 49408, "width": 64, "heads": 2,
                                  "layers": 2}},
       "preprocess_cfg": {"mean": [0.5, 0.5, 0.5], "std": [0.5, 0.5, 0.5]}}
Path("tiny_clip").mkdir(exist_ok=True)
Path("tiny_clip/open_clip_config.json").write_text(json.dumps(cfg, indent=2))

cmd = [sys.executable, "-m", "open_clip_train.main", "--model", "local-dir:tiny_clip",
       "--train-data", dataset("train", a.n), "--dataset-type", "csv", "--csv-img-key", "filepath",
       "--csv-caption-key", "title", "--batch-size", str(a.batch), "--epochs", str(a.epochs), "--lr", str(a.lr),
       "--wd", str(a.wd), "--warmup", str(a.warmup), "--lr-scheduler", a.scheduler, "--opt", a.opt,
       "--workers", "0", "--precision", "fp32", "--device", "cpu", "--seed", "0", "--logs", "logs",
       "--name", "tiny", "--report-to", "tensorboard", "--log-every-n-steps", str(a.log_every),
       "--accum-freq", str(a.accum), "--save-frequency", "0"]
if not a.no_val:
    cmd += ["--val-data", dataset("val", max(64, a.n // 4)), "--val-frequency", "1"]
if a.cooldown:
    cmd += ["--epochs-cooldown", str(a.cooldown)]
if a.siglip:
    cmd += ["--siglip"]
if a.clip_norm is not None:
    cmd += ["--grad-clip-norm", str(a.clip_norm)]
# torchvision's only wheel here is built for the CUDA torch (see h57_truth.tolerate_cpu_torchvision); the command is
# called in-process, as the `python -m open_clip_train.main` entry point calls it.
tolerate_cpu_torchvision()
from open_clip_train.main import main  # noqa: E402

sys.argv = ["open_clip_train/main.py", *cmd[3:]]
main(sys.argv[1:])

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

logging.getLogger("tensorboard").setLevel(logging.WARNING)  # its reader's own INFO lines, after the run

run = Path("logs/tiny")
ea = EventAccumulator(str(run / "tensorboard"), size_guidance={"scalars": 0})
ea.Reload()
train = [(e.step, e.value) for e in ea.Scalars("train/loss")]
val_tag = "val/clip_val_loss"
val = [(e.step, e.value) for e in ea.Scalars(val_tag)] if val_tag in ea.Tags()["scalars"] else None
keep(run / "out.log")
keep(run / "params.txt")
if (run / "checkpoints" / "results.jsonl").is_file():
    keep(run / "checkpoints" / "results.jsonl")
keep(run / "tensorboard")
import open_clip  # noqa: E402

write_truth(framework=f"open_clip_torch {open_clip.__version__}", settings=vars(a), loss_name="Loss",
            step_unit="OpenCLIP's global step (`num_batches_per_epoch * epoch + batch`, 0-based; the log prints "
                      "`Train Epoch: 0 [ 64/256 (25%)]`)",
            tolerance=tol_sig(5),
            record="its TensorBoard scalars (`train/loss` at its step), read back with EventAccumulator",
            train_loss=[(s, "nan" if v != v else v) for s, v in train],
            eval_loss=val, eval_name="val/clip_val_loss (epoch-end validation, at the step after the epoch)"
            if val else None)
