"""Make the thirtieth held-out library corpus (examples/libraries_holdout30): real runs of training libraries nobody
on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout30/bin/python bench/holdout_libraries30/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- DEHB (its loguru logger on stderr: "1/30 function evaluation(s) done" / "Evaluating configuration 16 with
# fidelity 3.0 under bracket ID 0" / "Best score seen/Incumbent score: 41.876957768830955"; its own dehb_out/dehb.log,
# scored too)
run("dehb_reg_30ev", "dehb_search.py", "--fevals 30")
run("dehb_reg_momentum_40ev", "dehb_search.py", "--momentum --fevals 40")
run("dehb_cls_30ev", "dehb_search.py", "--task cls --lr-min 1e-3 --lr-max 10 --fevals 30")
run("dehb_reg_eta2_25ev", "dehb_search.py", "--eta 2 --min-fidelity 2 --max-fidelity 16 --fevals 25")
run("dehb_cls_momentum_50ev", "dehb_search.py", "--task cls --momentum --lr-min 1e-3 --lr-max 3 --fevals 50")

# --- keras-tuner (its messages on stdout: "Search: Running Trial #3", Keras' epoch progress, "Trial 3 Complete
# [00h 00m 00s]" / "loss: 0.5848785042762756" / "Best loss So Far: 0.5848785042762756")
run("kt_grid_sgd_reg_5t", "kerastuner_search.py", "--lrs 0.001,0.003,0.01,0.03,0.1")
run("kt_grid_adam_cls_val_6t", "kerastuner_search.py",
    "--task cls --optimizer adam --val --lrs 0.0003,0.001,0.003,0.01,0.03,0.1 --epochs 4")
run("kt_bayes_reg_10t", "kerastuner_search.py", "--tuner bayes --trials 10 --lr-min 1e-3 --lr-max 0.1 --epochs 4")
run("kt_hyperband_cls_val_9ep", "kerastuner_search.py",
    "--tuner hyperband --task cls --optimizer adam --val --epochs 9")
run("kt_random_rmsprop_reg_val_8t", "kerastuner_search.py",
    "--tuner random --optimizer rmsprop --val --trials 8 --lr-min 1e-3 --lr-max 0.03 --epochs 5")
run("kt_grid_sgd_reg_lr_high_nan", "kerastuner_search.py", "--lrs 0.003,0.01,0.03,0.1,0.3,1,3", label="nan",
    stop=True)
run("kt_grid_sgd_reg_val_lr_high_nan", "kerastuner_search.py", "--val --lrs 0.01,0.03,0.1,0.3,1,3,10 --epochs 4",
    label="nan", stop=True)
run("kt_grid_adam_reg_lr_high_diverged", "kerastuner_search.py",
    "--optimizer adam --lrs 0.003,0.01,0.03,0.1,1,10,30,100", label="diverged", stop=True)
run("kt_grid_sgd_cls_lr_high_diverged", "kerastuner_search.py",
    "--task cls --lrs 0.01,0.03,0.1,1,10,100,1000,10000", label="diverged", stop=True)
run("kt_random_sgd_reg_lr_wide_nan", "kerastuner_search.py",
    "--tuner random --trials 10 --lr-min 1e-3 --lr-max 10", label="nan", stop=True)

# --- Ax (its logger on stderr: "[INFO 12-06 12:35:25] ax.service.ax_client: Generated new trial 3 with parameters
# {'lr': 0.000131} using model Sobol." / "... Completed trial 3 with data: {'loss': 39.061544}.")
run("ax_bo_reg_10t", "ax_search.py", "--trials 10")
run("ax_bo_cls_8t", "ax_search.py", "--task cls --lr-min 1e-3 --lr-max 1 --trials 8")
run("ax_sweep_reg_6t", "ax_search.py", "--mode sweep --lrs 0.0001,0.0003,0.001,0.003,0.01,0.03")
run("ax_sweep_cls_momentum_6t", "ax_search.py",
    "--mode sweep --task cls --momentum 0.9 --lrs 0.001,0.003,0.01,0.03,0.1,0.3")
run("ax_sweep_cls_lr_high_nan", "ax_search.py", "--mode sweep --task cls --lrs 0.01,0.1,1,10,100,1000", label="nan",
    stop=True)
run("ax_sweep_reg_lr_high_diverged", "ax_search.py",
    "--mode sweep --lrs 0.001,0.003,0.01,0.03,0.06,0.1,0.2,0.3 --epochs 20", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout30", "libho30", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
