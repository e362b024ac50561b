"""Make the 57th held-out library corpus (examples/libraries_holdout57): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout57/bin/python bench/holdout_libraries57/make_all.py [--only NAME ...] [--check] [--manifest-only]
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import blind_maker  # noqa: E402

# name: (generator, args, label, should_stop)
RUNS: blind_maker.Runs = {}
run = blind_maker.registry(RUNS)

# --- open_clip_torch (`python -m open_clip_train.main` on a tiny local-dir CLIP and a CSV of drawn shapes; its
# logging lines `2026-12-07,01:56:52 | INFO | Train Epoch: 3 [160/256 (62%)] Data (t): 0.009 Batch (t): 0.042,
# 760.634/s, 760.634/s/gpu LR: 0.000429 Logit Scale: 14.464 Contrastive_loss: 1.1173 (1.1156) Loss: 1.1173 (1.1156)`
# on stderr, `Eval Epoch: 4 ... clip_val_loss: ...` with validation; its out.log, params.txt, results.jsonl and
# TensorBoard scalars kept)
run("openclip_adamw_cosine_val_6ep", "openclip_train.py", "--epochs 6")
run("openclip_adamw_const_b64_val_10ep", "openclip_train.py", "--scheduler const --batch 64 --epochs 10 --lr 2e-3")
run("openclip_constcooldown_noval_8ep", "openclip_train.py", "--scheduler const-cooldown --cooldown 3 --epochs 8 "
    "--no-val")
run("openclip_siglip_val_6ep", "openclip_train.py", "--siglip --epochs 6")
run("openclip_logevery1_noval_4ep", "openclip_train.py", "--log-every 1 --epochs 4 --no-val")
run("openclip_nowarmup_logevery100_noval_12ep", "openclip_train.py",
    "--warmup 0 --lr 5e-4 --epochs 12 --log-every 100 --no-val")
run("openclip_timmsgd_n512_val_5ep", "openclip_train.py", "--opt timm/sgd --lr 0.05 --wd 0 --n 512 --epochs 5")
run("openclip_siglip_lr3_clipnorm_nan", "openclip_train.py", "--siglip --lr 3 --clip-norm 1 --scheduler const "
    "--warmup 0 --wd 0 --epochs 8 --no-val", label="nan", stop=True)
run("openclip_timmsgd_lr100_nan", "openclip_train.py", "--opt timm/sgd --lr 100 --scheduler const --warmup 0 --wd 0 "
    "--epochs 6 --no-val", label="nan", stop=True)
run("openclip_warmup_to_lr20_val_nan", "openclip_train.py", "--lr 20 --scheduler const --warmup 40 --wd 0 "
    "--epochs 8", label="nan", stop=True)


# --- mattersim (a tiny M3GNet built from scratch in its `Potential`, trained by `Potential.train_model` as its
# fine-tuning script does, over EMT-labelled Cu cells; loguru lines on stderr per epoch: `Epoch: 3 / 12` then
# `train: Loss: 0.5921, MAE(e): 0.0412, MAE(f): 0.6012, MAE(s): 0.0000, Time: 0.12s, lr: 0.00200000` and a `val:`
# line with validation data; the metrics its `wandb` hook gets kept as wandb_hook_record.jsonl)
run("mattersim_adam_l1_val_12ep", "mattersim_fit.py", "--epochs 12 --forces --loss l1")
run("mattersim_adam_forces_val_12ep", "mattersim_fit.py", "--epochs 12 --forces")
run("mattersim_adam_efs_alloy_noval_12ep", "mattersim_fit.py", "--epochs 12 --forces --stresses --alloy --no-val")
run("mattersim_adamw_b8_val_15ep", "mattersim_fit.py", "--epochs 15 --forces --optimizer adamw --batch 8 --n 32")
run("mattersim_sgd_noval_10ep", "mattersim_fit.py", "--epochs 10 --forces --optimizer sgd --lr 0.05 --no-val")
run("mattersim_huber_steplr3_val_12ep", "mattersim_fit.py",
    "--epochs 12 --forces --loss huber --step-size 3 --gamma 0.5 --lr 0.01")
run("mattersim_cosine_3blocks_noval_12ep", "mattersim_fit.py",
    "--epochs 12 --forces --scheduler cosine --blocks 3 --lr 0.005 --no-val")
run("mattersim_steplr_growth_noval_diverged", "mattersim_fit.py",
    "--epochs 12 --forces --lr 0.01 --step-size 1 --gamma 1.5 --no-val", label="diverged", stop=True)
run("mattersim_steplr_growth_val_nan", "mattersim_fit.py", "--epochs 12 --forces --lr 0.01 --step-size 1 --gamma 2",
    label="nan", stop=True)
run("mattersim_steplr_growth4_noval_nan", "mattersim_fit.py",
    "--epochs 12 --forces --lr 0.05 --step-size 1 --gamma 4 --no-val", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout57", "libho57", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
