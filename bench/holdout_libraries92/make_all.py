"""Make the 92nd held-out library corpus (examples/libraries_holdout92): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout92/bin/python bench/holdout_libraries92/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- pzflow (`Flow.train(..., verbose=True)` on the data it ships: `Training 20 epochs ` / `Loss:` then `(3) 2.9086`
# every 5 % of the epochs from epoch 0, the validation loss beside it (`(3) 2.9086  3.0112`); `Training stopping
# after epoch 6 because training loss diverged.` when the loss goes non-finite)
run("pzflow_moons_default_20ep", "pzflow_train.py", "--n 1000 --batch 256 --epochs 20")
run("pzflow_moons_val_adamw_cosine_20ep", "pzflow_train.py",
    "--n 1000 --batch 256 --epochs 20 --val --optimizer adamw --lr 0.003 --schedule cosine")
run("pzflow_galaxy_chain_40ep", "pzflow_train.py", "--data galaxy --bijector chain --n 600 --batch 200 --epochs 40")
run("pzflow_moons_val_patience_noinitial_15ep", "pzflow_train.py",
    "--n 500 --batch 100 --epochs 15 --val --patience 3 --no-initial --optimizer adam --lr 0.002")
run("pzflow_moons_rmsprop_60ep", "pzflow_train.py", "--n 400 --batch 200 --epochs 60 --optimizer rmsprop --lr 0.002")
run("pzflow_moons_adam_lr_growth_inf", "pzflow_train.py",
    "--n 500 --batch 100 --epochs 15 --optimizer adam --lr 0.003 --schedule exp --decay 2.5 --every 5", label="nan",
    stop=True)
run("pzflow_moons_adam_lr_growth_diverged", "pzflow_train.py",
    "--n 500 --batch 100 --epochs 11 --optimizer adam --lr 0.003 --schedule exp --decay 1.5 --every 5",
    label="diverged", stop=True)

# --- lpd (`Trainer.train(epochs, verbose)` with `StatsPrint`: tqdm's bar on stderr at verbose 1 (`[Train epoch
# 3/10]: ... loss=0.693, metrics={'acc': ...}`), `[Train epoch 3/10], loss=0.6931471824645996` at verbose 2, and
# StatsPrint's box-drawn block at each epoch's end (`curr:0.147..., prev:..., best:...` for Train and Validation))
run("lpd_cls_adam_val_10ep", "lpd_train.py", "--epochs 10")
run("lpd_cls_adam_noval_verbose2_12ep", "lpd_train.py", "--epochs 12 --verbose 2 --no-statsprint --no-val")
run("lpd_reg_sgd_val_round4_quiet_10ep", "lpd_train.py",
    "--task reg --optimizer sgd --lr 0.005 --verbose 0 --round 4 --epochs 10")
run("lpd_reg_adamw_tqdm_b64_8ep", "lpd_train.py",
    "--task reg --optimizer adamw --lr 0.005 --no-statsprint --batch 64 --epochs 8")
run("lpd_cls_rmsprop_explr_summary_verbose2_10ep", "lpd_train.py",
    "--optimizer rmsprop --lr 0.003 --gamma 0.8 --summary --verbose 2 --epochs 10")
run("lpd_reg_adam_noval_round6_quiet_15ep", "lpd_train.py",
    "--task reg --no-val --round 6 --verbose 0 --lr 0.003 --epochs 15")
run("lpd_cls_sgd_lr_growth_diverged", "lpd_train.py", "--optimizer sgd --lr 0.05 --gamma 2.5 --epochs 8",
    label="diverged", stop=True)
run("lpd_reg_sgd_lr_growth_nan", "lpd_train.py", "--task reg --optimizer sgd --lr 0.01 --gamma 2.0 --epochs 12",
    label="nan", stop=True)
run("lpd_cls_sgd_lr_growth_verbose2_nan", "lpd_train.py",
    "--optimizer sgd --lr 0.05 --gamma 2.5 --epochs 12 --verbose 2 --no-val", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout92", "libho92", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
