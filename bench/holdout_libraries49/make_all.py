"""Make the 49th held-out library corpus (examples/libraries_holdout49): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout49/bin/python bench/holdout_libraries49/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- aim (a numpy loop tracked with aim.Run().track; the loop's own prints: "epoch 2 step 30 loss 0.6261")
run("aim_reg_sgd_p10_5ep", "aim_loop.py", "--lr 0.05 --epochs 5 --print-every 10")
run("aim_reg_adam_val_p5_4ep", "aim_loop.py", "--optimizer adam --lr 0.01 --epochs 4 --print-every 5 --val")
run("aim_cls_momentum_p20_8ep", "aim_loop.py", "--task cls --optimizer momentum --lr 0.02 --epochs 8 --print-every 20")
run("aim_cls_sgd_val_b64_p4_10ep", "aim_loop.py", "--task cls --lr 0.2 --batch 64 --epochs 10 --print-every 4 --val")
run("aim_reg_momentum_decay_p8_6ep", "aim_loop.py", "--optimizer momentum --lr 0.02 --gamma 0.7 --epochs 6 "
    "--print-every 8")
run("aim_reg_momentum_lr_high_nan", "aim_loop.py", "--optimizer momentum --lr 3 --epochs 8 --print-every 5",
    label="nan", stop=True)
run("aim_cls_sgd_lr_growth_diverged", "aim_loop.py", "--task cls --lr 0.05 --gamma 3 --epochs 8 --print-every 8 --val",
    label="diverged", stop=True)
run("aim_reg_momentum_lr_growth_nan", "aim_loop.py", "--optimizer momentum --lr 0.01 --gamma 4 --epochs 8 "
    "--print-every 8", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout49", "libho49", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
