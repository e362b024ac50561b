"""Make the 93rd held-out library corpus (examples/libraries_holdout93): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout93/bin/python bench/holdout_libraries93/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- pmdarima (`pm.ARIMA(...).fit(y, disp=1)`: SciPy's L-BFGS-B prints `At iterate    3    f=  2.46423D+00
# |proj g|=  1.10304D-02` each iteration; optionally `auto_arima(trace=True)`'s search lines first; the fitted
# model's summary table after)
run("pmdarima_arima211_n200", "pmdarima_fit.py", "")
run("pmdarima_auto_trace_n200", "pmdarima_fit.py", "--auto")
run("pmdarima_sarima_m12_n144", "pmdarima_fit.py", "--order 1,1,1 --seasonal 1,0,0,12 --n 144")
run("pmdarima_sarimax_exog_n200", "pmdarima_fit.py", "--order 1,1,1 --exog")
run("pmdarima_arima312_noint_scale20", "pmdarima_fit.py", "--order 3,1,2 --no-intercept --scale 20 --n 300")
run("pmdarima_auto_seasonal_trace_n120", "pmdarima_fit.py", "--auto --seasonal 1,0,0,12 --n 120")

# --- torchmate (`Trainer(...).fit()` with its `CSVLogger`: a coloured `Epoch 3/10`, then `\r`-redrawn bars
# `train: 16/16 [====] 100.0% | ET: 20ms | 1ms\step | loss: 1.54958` and `valid: ... | val_loss: 1.43936`)
run("torchmate_reg_adam_mae_10ep", "torchmate_fit.py", "--epochs 10 --metric")
run("torchmate_cls_sgd_b16_12ep", "torchmate_fit.py", "--task cls --optimizer sgd --lr 0.1 --batch 16 --epochs 12")
run("torchmate_reg_rmsprop_steplr_15ep", "torchmate_fit.py",
    "--optimizer rmsprop --lr 0.003 --scheduler step --gamma 0.5 --epochs 15")
run("torchmate_cls_adamw_plateau_b64_acc_10ep", "torchmate_fit.py",
    "--task cls --optimizer adamw --scheduler plateau --batch 64 --epochs 10 --metric")
run("torchmate_reg_adam_explr_b8_8ep", "torchmate_fit.py", "--scheduler exp --gamma 0.8 --batch 8 --epochs 8 --n 256")
run("torchmate_reg_sgd_lr_growth_nan", "torchmate_fit.py",
    "--optimizer sgd --lr 0.01 --scheduler exp --gamma 2.0 --epochs 12", label="nan", stop=True)
run("torchmate_cls_adam_lr_growth_diverged", "torchmate_fit.py",
    "--task cls --lr 0.01 --scheduler exp --gamma 3.0 --epochs 10 --metric", label="diverged", stop=True)
run("torchmate_reg_rmsprop_lr_growth_diverged", "torchmate_fit.py",
    "--optimizer rmsprop --lr 0.003 --scheduler exp --gamma 4.0 --epochs 14", label="diverged", stop=True)
run("torchmate_cls_sgd_lr_growth_nan", "torchmate_fit.py",
    "--task cls --optimizer sgd --lr 0.1 --scheduler exp --gamma 3.0 --epochs 10", label="nan", stop=True)
run("torchmate_reg_sgd_lr_growth_b16_nan", "torchmate_fit.py",
    "--optimizer sgd --lr 0.02 --scheduler exp --gamma 3.0 --batch 16 --epochs 12", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout93", "libho93", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
