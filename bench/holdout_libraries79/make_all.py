"""Make the 79th held-out library corpus (examples/libraries_holdout79): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout79/bin/python bench/holdout_libraries79/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- pfl (Apple's pfl-research: federated learning simulated over synthetic users, `FederatedAveraging` / `FedProx`
# over a `SimulatedBackend`; its generic platform prints each central iteration's metrics, `Metrics at iteration 3
# ():` then `    Train population | loss before local training     : 0.891993...`; its `AggregateMetricsToDisk`
# CSV kept)
run("pfl_fedavg_cls_central_eval_15it", "pfl_train.py", "--central-eval --iters 15")
run("pfl_fedprox_cls_12it", "pfl_train.py", "--algo fedprox --iters 12")
run("pfl_fedavg_reg_central_adam_eval_20it", "pfl_train.py",
    "--task reg --central-opt adam --central-lr 0.05 --central-eval --iters 20")
run("pfl_fedavg_reg_local3ep_b4_cohort10_10it", "pfl_train.py",
    "--task reg --local-epochs 3 --local-batch 4 --cohort 10 --local-lr 0.05 --iters 10")
run("pfl_fedavg_cls_eval_every2_24it", "pfl_train.py", "--eval-every 2 --iters 24 --central-eval")
run("pfl_fedavg_cls_central_lr_growth_diverged", "pfl_train.py", "--central-gamma 1.8 --iters 14", label="diverged",
    stop=True)
run("pfl_fedprox_cls_central_lr_high_diverged", "pfl_train.py", "--algo fedprox --central-lr 6 --iters 12",
    label="diverged", stop=True)
run("pfl_fedavg_reg_central_lr_growth_nan", "pfl_train.py", "--task reg --central-gamma 2 --iters 14", label="nan",
    stop=True)

# --- nequip 0.6 (`nequip-train config.yaml`, called in-process: per epoch the last batch's `# Epoch batch  loss ...`
# rows, then `! Train      3    1.208     0.01        0.844 ...` and `! Validation ...`, `%.3g`; its
# metrics_epoch.csv, metrics_initialization.csv and log kept)
run("nequip_adam_forces_10ep", "nequip_train.py", "--epochs 10")
run("nequip_adam_energy_plateau_12ep", "nequip_train.py", "--energy --scheduler ReduceLROnPlateau --epochs 12")
run("nequip_adam_b2_batchlog_8ep", "nequip_train.py", "--batch 2 --batch-log 2 --epochs 8")
run("nequip_sgd_momentum_cosine_ema_10ep", "nequip_train.py",
    "--optimizer SGD --lr 0.05 --momentum 0.9 --scheduler CosineAnnealingWarmRestarts --ema --epochs 10")
run("nequip_adam_3layers_lmax2_16feat_6ep", "nequip_train.py", "--layers 3 --lmax 2 --features 16 --epochs 6")
run("nequip_adam_lr_high_diverged", "nequip_train.py", "--lr 0.5 --epochs 10", label="diverged", stop=True)
run("nequip_adam_energy_b2_lr_high_diverged", "nequip_train.py", "--lr 0.3 --energy --batch 2 --epochs 10",
    label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout79", "libho79", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
