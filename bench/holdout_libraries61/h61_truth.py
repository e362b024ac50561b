"""Shared by the 61st held-out library generators: seeding, the truth file each run writes (``truth.json`` in
``HOLDOUT_DEST``), the library's own small files kept beside it, and the one thing the CPU torch needs before
torchvision is imported.

torchvision 0.28.0 from PyPI is built for CUDA: its ``_C`` ops do not load beside the CPU torch 2.13.0, so importing
it fails on the fake registration of ``torchvision::nms``. ``torchvision_cpu_nms`` defines that op (and ``qnms``,
schema only) with a plain-torch NMS before torchvision is imported, and tells torchvision its ops are there: only
``nms`` is used (yolov5's validation). Nothing of the libraries' training or logging is touched.
"""

from __future__ import annotations

import json
import math
import os
import random
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def dest() -> Path:
    """The run's folder (``HOLDOUT_DEST``, set by the maker; the working folder otherwise)."""
    return Path(os.environ.get("HOLDOUT_DEST", "."))


def seed_all(seed: int = 0) -> None:
    """Seed Python, numpy and torch (when there)."""
    random.seed(seed)
    try:
        import numpy as np

        np.random.seed(seed)
    except ImportError:
        pass
    try:
        import torch

        torch.manual_seed(seed)
        torch.set_num_threads(1)
    except ImportError:
        pass


def torchvision_cpu_nms() -> None:
    """Define ``torchvision::nms``/``qnms`` before torchvision is imported (its CUDA-built ops do not load)."""
    import torch

    lib = torch.library.Library("torchvision", "DEF")
    lib.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    lib.define("qnms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")

    def nms(dets: torch.Tensor, scores: torch.Tensor, thr: float) -> torch.Tensor:
        x1, y1, x2, y2 = dets.unbind(1)
        area = (x2 - x1).clamp(min=0) * (y2 - y1).clamp(min=0)
        gone = torch.zeros(len(dets), dtype=torch.bool)
        keep = []
        for i in scores.argsort(descending=True).tolist():
            if gone[i]:
                continue
            keep.append(i)
            w = (torch.minimum(x2[i], x2) - torch.maximum(x1[i], x1)).clamp(min=0)
            h = (torch.minimum(y2[i], y2) - torch.maximum(y1[i], y1)).clamp(min=0)
            gone |= w * h / (area[i] + area - w * h + 1e-9) > thr
        return torch.tensor(keep, dtype=torch.int64)

    lib.impl("nms", nms, "CPU")
    globals()["_torchvision_lib"] = lib  # kept alive: the op goes with its Library
    import torchvision.extension

    torchvision.extension._has_ops = lambda: True


def keep(*files: Path | str) -> None:
    """Copy the library's own small files into the run's folder."""
    for f in files:
        p = Path(f)
        if p.is_file():
            shutil.copy(p, dest() / p.name)


def _value(v: float) -> float | str:
    return v if math.isfinite(v) else ("nan" if math.isnan(v) else ("inf" if v > 0 else "-inf"))


def write_truth(*, framework: str, settings: dict[str, Any], loss_name: str, step_unit: str, tolerance: dict,
                record: str, train_loss: Iterable[tuple[int, float]],
                eval_loss: Iterable[tuple[int, float]] | None = None, eval_name: str | None = None) -> None:
    """``truth.json`` in the run's folder: the library's own record of the train loss at its own steps."""
    truth: dict[str, Any] = {
        "framework": framework, "settings": settings, "label": os.environ.get("HOLDOUT_LABEL", "healthy"),
        "should_stop": os.environ.get("HOLDOUT_SHOULD_STOP") == "1", "loss_name": loss_name,
        "step_unit": step_unit, "tolerance": tolerance, "record": record,
        "train_loss": [[int(s), _value(float(v))] for s, v in train_loss]}
    if eval_loss is not None:
        truth["eval_loss"] = [[int(s), _value(float(v))] for s, v in eval_loss]
        truth["eval_name"] = eval_name
    (dest() / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
