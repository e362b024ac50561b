"""Make the 39th held-out library corpus (examples/libraries_holdout39): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout39/bin/python bench/holdout_libraries39/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- pgbm, torch backend (its verbose=2 line per tree on stdout: "Estimator 12/100, Train metric: 0.5123")
run("pgbm_default_40t", "pgbm_fit.py", "--trees 40")
run("pgbm_val_lr05_30t", "pgbm_fit.py", "--trees 30 --lr 0.05 --val")
run("pgbm_bagging_leaves8_60t", "pgbm_fit.py", "--trees 60 --lr 0.2 --leaves 8 --bagging 0.7 --features 0.8")
run("pgbm_val_scale10_25t", "pgbm_fit.py", "--trees 25 --lr 0.15 --val --scale 10 --n 600")
run("pgbm_lr_high_diverged", "pgbm_fit.py", "--trees 20 --lr 2.5", label="diverged", stop=True)
run("pgbm_lr_high_nan", "pgbm_fit.py", "--trees 120 --lr 4", label="nan", stop=True)
run("pgbm_lr_high_leaves4_diverged", "pgbm_fit.py", "--trees 30 --lr 2.2 --leaves 4 --scale 5", label="diverged",
    stop=True)

run("pgbm_lr_high_bagging_nan", "pgbm_fit.py", "--trees 90 --lr 3.5 --bagging 0.8 --leaves 16", label="nan",
    stop=True)
run("pgbm_lr_high_scale3_diverged", "pgbm_fit.py", "--trees 25 --lr 2.3 --scale 3 --n 300", label="diverged",
    stop=True)

# --- h2o (print(model): its description's `Scoring History:` table, tabulate, 6 significant digits)
run("h2o_gbm_val_30t", "h2o_fit.py", "--trees 30 --val")
run("h2o_gbm_lr03_depth3_40t", "h2o_fit.py", "--trees 40 --lr 0.3 --depth 3")
run("h2o_gbm_every5_sample08_60t", "h2o_fit.py", "--trees 60 --lr 0.05 --sample-rate 0.8 --every 5 --val")
run("h2o_dl_val_8ep", "h2o_fit.py", "--algo dl --epochs 8 --val")
run("h2o_dl_16x16_5ep", "h2o_fit.py", "--algo dl --epochs 5 --hidden 16,16")
run("h2o_gbm_depth2_15t", "h2o_fit.py", "--trees 15 --lr 0.2 --depth 2 --n 300")
run("pgbm_lambda5_leaves16_val_45t", "pgbm_fit.py", "--trees 45 --lr 0.1 --leaves 16 --reg-lambda 5 --val --n 500")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout39", "libho39", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
