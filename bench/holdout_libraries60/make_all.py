"""Make the 60th held-out library corpus (examples/libraries_holdout60): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout60/bin/python bench/holdout_libraries60/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- scikeras (`KerasRegressor` / `KerasClassifier(...).fit(X, y)` on Keras 3's torch backend: `Epoch 3/10` then
# Keras' progress, one line an epoch ending `- loss: 0.4031 - val_loss: 0.3868`; `verbose=2`: one plain line an
# epoch; its `history_` kept as history.json)
run("scikeras_reg_adam_val_10ep", "scikeras_fit.py", "--epochs 10 --val 0.2")
run("scikeras_reg_cosine_v2_val_12ep", "scikeras_fit.py",
    "--lr 0.02 --schedule cosine --epochs 12 --verbose 2 --val 0.25")
run("scikeras_cls_adam_val_8ep", "scikeras_fit.py", "--task cls --lr 0.01 --epochs 8 --val 0.2")
run("scikeras_cls_rmsprop_b16_v2_10ep", "scikeras_fit.py",
    "--task cls --optimizer rmsprop --lr 0.003 --batch 16 --epochs 10 --verbose 2")
run("scikeras_reg_sgd_b64_15ep", "scikeras_fit.py", "--optimizer sgd --lr 0.01 --batch 64 --epochs 15")
run("scikeras_reg_lr_growth_diverged", "scikeras_fit.py", "--lr 0.01 --schedule exp_growth --gamma 3 --epochs 10",
    label="diverged", stop=True)
run("scikeras_cls_lr_growth_diverged", "scikeras_fit.py",
    "--task cls --lr 0.01 --schedule exp_growth --gamma 4 --epochs 10 --val 0.2", label="diverged", stop=True)
run("scikeras_reg_sgd_lr_growth_nan", "scikeras_fit.py",
    "--optimizer sgd --lr 0.02 --schedule exp_growth --gamma 2.5 --epochs 10", label="nan", stop=True)

# --- orion (`orion -v hunt` over a learning-rate sweep of a tiny numpy gradient-descent model: INFO lines
# `Completed trials with results: [Result(name='objective', type='objective', value=...)]`, then its stats)
run("orion_grid_linreg_8tr", "orion_hunt.py", "--algo gridsearch --trials 8 --lo 0.001 --hi 0.05")
run("orion_grid_logreg_8tr", "orion_hunt.py", "--algo gridsearch --trials 8 --task logreg --lo 0.01 --hi 2")
run("orion_grid_linreg_steps60_10tr", "orion_hunt.py", "--algo gridsearch --trials 10 --lo 0.0005 --hi 0.03 --steps 60")
run("orion_tpe_logreg_12tr", "orion_hunt.py", "--algo tpe --trials 12 --task logreg --lo 0.01 --hi 2 --steps 20")
run("orion_grid_linreg_lr_high_diverged", "orion_hunt.py", "--algo gridsearch --trials 8 --lo 0.001 --hi 0.3",
    label="diverged", stop=True)
run("orion_grid_linreg_lr_huge_nan", "orion_hunt.py", "--algo gridsearch --trials 8 --lo 0.001 --hi 50 --steps 200",
    label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout60", "libho60", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
