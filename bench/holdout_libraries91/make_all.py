"""Make the 91st held-out library corpus (examples/libraries_holdout91): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout91/bin/python bench/holdout_libraries91/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- jinns (`jinns.solve` on a tiny PINN for an ODE; stdout through `jax.debug.print`: `Initialization time: ...`,
# `Compilation took ...`, `[train] Iteration 50: loss value = 0.2772405743598938` every `print_loss_every`
# iterations, `[validation] Iteration ...` with a ValidationLoss, `Stopping main optimization loop, cause: ...`,
# `Final iteration 500: train loss value = ...`)
run("jinns_adam_decay_500it", "jinns_solve.py", "")
run("jinns_adam_logistic_cosine_1000it", "jinns_solve.py",
    "--problem logistic --schedule cosine --lr 0.003 --n-iter 1000 --every 100")
run("jinns_adamw_decay_val_800it", "jinns_solve.py", "--optimizer adamw --val-every 50 --n-iter 800 --every 50")
run("jinns_rmsprop_decay_b64_600it", "jinns_solve.py", "--optimizer rmsprop --batch 64 --n-iter 600 --every 25")
run("jinns_sgd_decay_600it", "jinns_solve.py", "--optimizer sgd --lr 0.01 --n-iter 600 --every 60")
run("jinns_adam_logistic_val_earlystop", "jinns_solve.py",
    "--problem logistic --lr 0.01 --val-every 20 --patience 3 --n-iter 2000 --every 100")
run("jinns_adam_lr_growth_diverged", "jinns_solve.py",
    "--lr 0.002 --schedule growth --growth 4 --n-iter 800 --every 50", label="diverged", stop=True)
run("jinns_sgd_lr_growth_nan", "jinns_solve.py",
    "--optimizer sgd --lr 0.02 --schedule growth --growth 3 --n-iter 800 --every 10", label="nan", stop=True)
run("jinns_rmsprop_logistic_lr_growth_diverged", "jinns_solve.py",
    "--optimizer rmsprop --problem logistic --lr 0.001 --schedule growth --growth 4 --n-iter 800 --every 50",
    label="diverged", stop=True)

# --- lightwood (`json_ai_from_problem` / `code_from_json_ai` / `predictor_from_code` / `learn`, one Neural mixer;
# its colorlog lines on stderr, ANSI colours and all: `INFO:lightwood-PID:Loss @ epoch 3: 0.2053928300738` per
# epoch, the learning-rate search's `Loss of 12.73 with learning rate 0.0001` when no lr is set, more `Loss @ epoch`
# series for the mixer's fit on the dev split and the adjustment)
run("lightwood_reg_lrsearch_10ep", "lightwood_learn.py", "")
run("lightwood_reg_lr002_noadjust_15ep", "lightwood_learn.py", "--lr 0.02 --epochs 15 --no-fit-on-all")
run("lightwood_cls_lrsearch_6ep", "lightwood_learn.py", "--task cls --epochs 6")
run("lightwood_cls_lr001_noadjust_8ep", "lightwood_learn.py", "--task cls --lr 0.01 --epochs 8 --no-fit-on-all")
run("lightwood_reg_n1500_lrsearch_20ep", "lightwood_learn.py", "--n 1500 --epochs 20")
run("lightwood_cls_lr3_noadjust_diverged", "lightwood_learn.py", "--task cls --lr 3 --epochs 12 --no-fit-on-all",
    label="diverged", stop=True)
run("lightwood_cls_lr2_diverged", "lightwood_learn.py", "--task cls --lr 2 --epochs 12", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout91", "libho91", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
