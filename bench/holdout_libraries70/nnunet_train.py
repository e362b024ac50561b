"""nnU-Net v2 (nnunetv2): a tiny 2D segmentation dataset made here (grey PNG images of noisy blobs and their masks,
in nnU-Net's raw layout as ``Dataset070_Blobs``), planned and preprocessed by its own ``nnUNetv2_plan_and_preprocess
-d 70 -c 2d -npfp 1 -np 1`` (its entry point called in-process, as the console script does), then trained on the
CPU the way ``nnUNetv2_train``'s ``run_training`` does it: the trainer built from the plans, ``run_training()``, then
``perform_actual_validation()``. The trainer is a user's short subclass of nnU-Net's own ``nnUNetTrainer`` or of a
variant it ships (Adam, cosine annealing, no deep supervision, CE loss) that sets the epochs, iterations per epoch
and initial learning rate in ``__init__``, as nnU-Net's docs tell users to do (``--lr-growth``: the should-stop runs'
rate multiplied every epoch instead of the poly schedule). (It is built here rather than found by
name: nnU-Net's search by name imports every shipped trainer, and its Primus trainers need torchvision, whose wheels
here are CUDA builds that do not load beside the CPU torch.) nnU-Net prints its own timestamped lines to stdout
(``Epoch 3``, ``Current learning rate: 0.00725``, ``train_loss -0.5123``, ``val_loss ...``, ``Pseudo dice [...]``,
``Epoch time: 1.2 s``) and the same to its ``training_log_*.txt`` (kept). Truth: its logger's record
(``logger.get_checkpoint()['train_losses']``, what it saves in its checkpoints) at each epoch, 0-based as printed;
no checkpoint is kept."""

from __future__ import annotations

import argparse
import glob
import importlib
import json
import os
import sys
from pathlib import Path

from h70_truth import keep, seed_all, write_truth

# the shipped trainers a user's subclass derives from: name -> module under nnunetv2.training.nnUNetTrainer
BASES = {"nnUNetTrainer": "nnUNetTrainer",
         "nnUNetTrainerAdam": "variants.optimizer.nnUNetTrainerAdam",
         "nnUNetTrainerVanillaAdam": "variants.optimizer.nnUNetTrainerAdam",
         "nnUNetTrainerCosAnneal": "variants.lr_schedule.nnUNetTrainerCosAnneal",
         "nnUNetTrainerNoDeepSupervision": "variants.network_architecture.nnUNetTrainerNoDeepSupervision",
         "nnUNetTrainerCELoss": "variants.loss.nnUNetTrainerCELoss"}


def tiny_trainer(base: str, epochs: int, iters: int, val_iters: int, lr: float, growth: float | None) -> type:
    """The user's trainer: nnU-Net's ``base`` with fewer epochs and iterations and its own initial rate
    (``growth``: the base's optimizer with a rate multiplied by ``growth`` every epoch instead of its schedule)."""
    import torch
    from torch.optim.lr_scheduler import LambdaLR

    CUDA = torch.device("cuda")  # nnU-Net's default device (the trainer is made here with the CPU)
    Base = getattr(importlib.import_module(f"nnunetv2.training.nnUNetTrainer.{BASES[base]}"), base)

    class nnUNetTrainerTiny(Base):  # type: ignore[misc, valid-type]
        def __init__(self, plans: dict, configuration: str, fold: int, dataset_json: dict,
                     device: torch.device = CUDA):
            super().__init__(plans, configuration, fold, dataset_json, device)
            self.num_epochs = epochs
            self.num_iterations_per_epoch = iters
            self.num_val_iterations_per_epoch = val_iters
            self.initial_lr = lr

        def configure_optimizers(self):
            optimizer, scheduler = super().configure_optimizers()
            if growth is not None:
                scheduler = LambdaLR(optimizer, lambda epoch: growth ** epoch)
            return optimizer, scheduler

    return nnUNetTrainerTiny


def make_dataset(raw: Path, n: int, size: int) -> None:
    """``n`` grey images of 1-3 bright noisy discs and their masks, in nnU-Net's raw layout (PNG, one channel)."""
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(0)
    (raw / "imagesTr").mkdir(parents=True)
    (raw / "labelsTr").mkdir(parents=True)
    yy, xx = np.mgrid[:size, :size]
    for i in range(n):
        mask = np.zeros((size, size), bool)
        for _ in range(int(rng.integers(1, 4))):
            cy, cx = rng.uniform(8, size - 8, 2)
            mask |= (yy - cy) ** 2 + (xx - cx) ** 2 < rng.uniform(4, 10) ** 2
        img = 90 + 70 * mask + rng.normal(0, 25, mask.shape)
        Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)).save(raw / "imagesTr" / f"blob_{i:03d}_0000.png")
        Image.fromarray(mask.astype(np.uint8)).save(raw / "labelsTr" / f"blob_{i:03d}.png")
    ds = {"channel_names": {"0": "grey"}, "labels": {"background": 0, "blob": 1}, "numTraining": n,
          "file_ending": ".png"}
    (raw / "dataset.json").write_text(json.dumps(ds, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default="nnUNetTrainer", choices=sorted(BASES))
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--iters", type=int, default=8, help="num_iterations_per_epoch")
    ap.add_argument("--val-iters", type=int, default=3, help="num_val_iterations_per_epoch")
    ap.add_argument("--lr", type=float, default=1e-2)
    ap.add_argument("--lr-growth", type=float, help="multiply the rate by this every epoch (no poly schedule)")
    ap.add_argument("--fold", default="0", help="0-4, or all (train on every case, validate on them too)")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--size", type=int, default=48)
    ap.add_argument("--label", default="healthy")
    ap.add_argument("--should-stop", action="store_true")
    a = ap.parse_args()

    cwd = Path.cwd()
    for k in ("nnUNet_raw", "nnUNet_preprocessed", "nnUNet_results"):
        (cwd / k).mkdir(exist_ok=True)
        os.environ[k] = str(cwd / k)
    os.environ["nnUNet_n_proc_DA"] = "1"  # one process for the planner's estimates and preprocessing
    os.environ["nnUNet_def_n_proc"] = "1"
    os.environ.setdefault("nnUNet_compile", "false")
    seed_all(0)
    import torch

    torch.set_num_threads(1)
    make_dataset(cwd / "nnUNet_raw" / "Dataset070_Blobs", a.n, a.size)

    from nnunetv2.experiment_planning.plan_and_preprocess_entrypoints import plan_and_preprocess_entry

    sys.argv = ["nnUNetv2_plan_and_preprocess", "-d", "70", "-c", "2d", "-npfp", "1", "-np", "1",
                "--verify_dataset_integrity"]
    plan_and_preprocess_entry()

    os.environ["nnUNet_n_proc_DA"] = "0"  # augment in the training process: no worker processes on a shared CPU
    from batchgenerators.utilities.file_and_folder_operations import load_json

    pre = cwd / "nnUNet_preprocessed" / "Dataset070_Blobs"
    plans = load_json(str(pre / "nnUNetPlans.json"))
    plans["continue_training"] = False
    cls = tiny_trainer(a.base, a.epochs, a.iters, a.val_iters, a.lr, a.lr_growth)
    fold = a.fold if a.fold == "all" else int(a.fold)
    trainer = cls(plans=plans, configuration="2d", fold=fold, dataset_json=load_json(str(pre / "dataset.json")),
                  device=torch.device("cpu"))
    trainer.run_training()
    out = Path(trainer.output_folder)
    try:
        trainer.perform_actual_validation(False)
    finally:  # its final validation may fail (a real outcome): the training's record and log are kept all the same
        log = trainer.logger.get_checkpoint()
        for f in sorted(glob.glob(str(out / "training_log_*.txt"))):
            keep(f)
        if (out / "validation" / "summary.json").is_file():
            keep(out / "validation" / "summary.json", "validation_summary.json")
        from importlib.metadata import version

        write_truth(framework=f"nnunetv2 {version('nnunetv2')}", settings=vars(a), loss_name="train_loss",
                    step_unit="epoch, 0-based (`Epoch 0`)",
                    # `np.round(loss, 4)` of a float32: 4 decimals, or float32's shortest digits (`11857.096`)
                    tolerance={"rel": 1e-07, "abs": 0.51e-4},
                    record="nnU-Net's logger (`logger.get_checkpoint()['train_losses']`, saved in its checkpoints)",
                    train_loss=list(enumerate(float(v) for v in log["train_losses"])),
                    eval_loss=list(enumerate(float(v) for v in log["val_losses"])), eval_name="val_loss",
                    pseudo_dice=[[i, float(v)] for i, v in enumerate(log["mean_fg_dice"])])

if __name__ == "__main__":  # nnU-Net's export workers start by spawn and import this file
    main()
