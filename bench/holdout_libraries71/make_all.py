"""Make the 71st held-out library corpus (examples/libraries_holdout71): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout71/bin/python bench/holdout_libraries71/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- modelscope (`EpochBasedTrainer` from a configuration.json: its logger on stderr, `epoch [3][8/16]\tlr:
# 5.000e-02, eta: 0:00:00, iter_time: 0.001, data_load_time: 0.000, loss: 0.4629` or `iter [40/128]\t...` every
# `interval` iterations, `epoch(eval) [3][2]\tevaluation/loss: 0.3667` after each epoch with validation)
run("modelscope_reg_sgd_val_6ep", "modelscope_train.py", "")
run("modelscope_reg_adam_byiter_8ep", "modelscope_train.py",
    "--optimizer Adam --lr 0.01 --by-iter --interval 8 --epochs 8")
run("modelscope_cls_adam_cosine_warmup_6ep", "modelscope_train.py",
    "--task cls --optimizer Adam --lr 0.01 --scheduler CosineAnnealingLR --warmup 8")
run("modelscope_cls_sgd_momentum_step_noval_b32", "modelscope_train.py",
    "--task cls --lr 0.1 --momentum 0.9 --gamma 0.5 --no-val --batch 32 --interval 2 --epochs 8")
run("modelscope_reg_adamw_b8_exp_decay_5ep", "modelscope_train.py",
    "--optimizer AdamW --lr 0.005 --batch 8 --scheduler ExponentialLR --gamma 0.8 --interval 8 --epochs 5")
run("modelscope_cls_adam_lr_growth_diverged", "modelscope_train.py",
    "--task cls --optimizer Adam --lr 0.01 --scheduler ExponentialLR --gamma 2.5 --epochs 10", label="diverged",
    stop=True)
run("modelscope_reg_adam_lr_growth_noval_diverged", "modelscope_train.py",
    "--optimizer Adam --lr 0.01 --scheduler ExponentialLR --gamma 3 --epochs 8 --no-val", label="diverged", stop=True)
run("modelscope_reg_sgd_lr_growth_nan", "modelscope_train.py",
    "--lr 0.05 --scheduler ExponentialLR --gamma 2.5 --epochs 8", label="nan", stop=True)

# --- nvflare (its simulator running a PyTorch `FedAvgRecipe`; the server's and clients' own log lines, `Round 2
# started.` banners, and each site's hello-pt style print through its logger: `2026-12-07 08:19:07,408 - INFO -
# site=site-1, Epoch: 0/1, Iteration: 3, Loss: 0.35662563890218735`)
run("nvflare_reg_sgd_2sites_4rounds", "nvflare_fedavg.py", "--print-every 2")
run("nvflare_cls_adam_2sites_5rounds", "nvflare_fedavg.py",
    "--task cls --optimizer adam --lr 0.01 --rounds 5 --print-every 2")
run("nvflare_reg_sgd_1site_2localepochs_b32", "nvflare_fedavg.py",
    "--clients 1 --local-epochs 2 --batch 32 --rounds 4 --print-every 2")
run("nvflare_cls_sgd_b8_3rounds", "nvflare_fedavg.py", "--task cls --lr 0.02 --batch 8 --print-every 4 --rounds 3")
run("nvflare_cls_adam_lr_growth_diverged", "nvflare_fedavg.py",
    "--task cls --optimizer adam --lr 0.01 --lr-growth 3 --rounds 6 --print-every 2", label="diverged", stop=True)
run("nvflare_reg_sgd_lr_growth_nan", "nvflare_fedavg.py", "--lr-growth 3 --rounds 6 --print-every 2", label="nan",
    stop=True)
run("nvflare_reg_sgd_1site_lr_growth_nan", "nvflare_fedavg.py",
    "--clients 1 --lr 0.05 --lr-growth 2 --rounds 7 --print-every 2", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout71", "libho71", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
