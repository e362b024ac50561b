"""Make the 61st held-out library corpus (examples/libraries_holdout61): real runs of a training library nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout61/bin/python bench/holdout_libraries61/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- yolov5 (`yolov5.train.run(...)`, yolov5n from its yaml, no pretrained weights, `--img 64`, on synthetic shapes:
# its options and hyperparameters on one line each, the model summary, then per epoch a header `Epoch GPU_mem
# box_loss obj_loss cls_loss Instances Size` and tqdm rows redrawn with `\r` (`3/14  0G  0.09311  0.01071  0  26
# 64: 100%|...`), its validation table `all  8  17  0.00458  0.647 ...`; its own results.csv kept)
run("yolov5_adam_nomosaic_15ep", "yolov5_train.py", "--epochs 15 --optimizer Adam --lr0 0.002 --no-mosaic")
run("yolov5_adamw_cos_b4_15ep", "yolov5_train.py",
    "--epochs 15 --optimizer AdamW --lr0 0.003 --no-mosaic --batch 4 --cos-lr")
run("yolov5_adam_2cls_b16_12ep", "yolov5_train.py", "--epochs 12 --optimizer Adam --lr0 0.001 --classes 2 --batch 16 "
    "--images 48")
run("yolov5_adam_mosaic_12ep", "yolov5_train.py", "--epochs 12 --optimizer Adam --lr0 0.002")
run("yolov5_sgd_nomosaic_15ep", "yolov5_train.py", "--epochs 15 --lr0 0.02 --no-mosaic")
run("yolov5_sgd_cos_2cls_12ep", "yolov5_train.py", "--epochs 12 --lr0 0.01 --cos-lr --classes 2 --no-mosaic")
run("yolov5_adamw_nowarmup_10ep", "yolov5_train.py", "--epochs 10 --optimizer AdamW --lr0 0.001 --warmup 0 "
    "--no-mosaic")
run("yolov5_adam_b4_lrf_20ep", "yolov5_train.py", "--epochs 20 --optimizer Adam --lr0 0.002 --lrf 0.1 --batch 4 "
    "--no-mosaic --images 16")
run("yolov5_adam_2cls_mosaic_14ep", "yolov5_train.py", "--epochs 14 --optimizer Adam --lr0 0.002 --classes 2")
run("yolov5_sgd_lr_huge_nan", "yolov5_train.py", "--epochs 10 --lr0 300 --warmup 3", label="nan", stop=True)
run("yolov5_sgd_lr_huger_nan", "yolov5_train.py", "--epochs 8 --lr0 3000 --warmup 3", label="nan", stop=True)
run("yolov5_adam_lr_high_nan", "yolov5_train.py", "--epochs 10 --optimizer Adam --lr0 2 --warmup 3", label="nan",
    stop=True)
run("yolov5_adamw_lr_high_2cls_nan", "yolov5_train.py",
    "--epochs 10 --optimizer AdamW --lr0 20 --warmup 3 --classes 2", label="nan", stop=True)
run("yolov5_sgd_lr_huge_b4_nan", "yolov5_train.py", "--epochs 8 --lr0 100 --warmup 3 --batch 4 --no-mosaic",
    label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout61", "libho61", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
