"""Make the 73rd held-out library corpus (examples/libraries_holdout73): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout73/bin/python bench/holdout_libraries73/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- qucumber (an RBM wavefunction fitted by contrastive divergence; its `MetricEvaluator(verbose=True)` prints
# `Epoch: 10\tFidelity = 0.739481\tKL = 0.620042` every `period` epochs, then `Total time elapsed during training`)
run("qucumber_sgd_lr01_100ep", "qucumber_fit.py", "--lr 0.1 --epochs 100 --period 10")
run("qucumber_sgd_lr05_p5_60ep", "qucumber_fit.py", "--lr 0.5 --epochs 60 --period 5")
run("qucumber_adam_klonly_80ep", "qucumber_fit.py", "--optimizer Adam --lr 0.05 --epochs 80 --period 5 --kl-only")
run("qucumber_6q_h8_b50_60ep", "qucumber_fit.py",
    "--qubits 6 --hidden 8 --lr 0.2 --epochs 60 --period 5 --pbs 50 --nbs 50")
run("qucumber_field05_k1_progbar_50ep", "qucumber_fit.py",
    "--field 0.5 --k 1 --lr 0.2 --epochs 50 --period 5 --progbar")
run("qucumber_sgd_lr_growth_diverged", "qucumber_fit.py", "--lr 0.05 --gamma 1.15 --epochs 60 --period 5",
    label="diverged", stop=True)
run("qucumber_sgd_lr_growth_fast_nan", "qucumber_fit.py", "--lr 0.1 --gamma 1.3 --epochs 40 --period 2",
    label="nan", stop=True)
run("qucumber_adam_lr_growth_diverged", "qucumber_fit.py",
    "--optimizer Adam --lr 0.01 --gamma 1.2 --epochs 50 --period 5",
    label="diverged", stop=True)

# --- selene-sdk (`TrainModel.train_and_validate` on one-hot DNA; its logger on stdout: `... - [STEP 50] average
# number of steps per second: 388.8`, `... - training loss: 0.6770726243654887`, `validation roc_auc: ...`,
# `validation loss: ...`; its own `selene_sdk.train_model.train.txt` kept)
run("selene_cls_sgd_plateau_400st", "selene_train.py", "--steps 400 --report 50")
run("selene_cls_adam_nosched_300st", "selene_train.py",
    "--optimizer Adam --lr 0.003 --no-scheduler --steps 300 --report 25")
run("selene_reg_adam_300st", "selene_train.py", "--task reg --optimizer Adam --lr 0.003 --steps 300 --report 25")
run("selene_reg_sgd_quiet_300st", "selene_train.py",
    "--task reg --lr 0.2 --no-scheduler --steps 300 --report 25 --quiet")
run("selene_cls_sgd_b64_len200_6f", "selene_train.py",
    "--batch 64 --length 200 --features 6 --lr 0.1 --steps 300 --report 30")
run("selene_reg_sgd_lr_high_nan", "selene_train.py", "--task reg --lr 20 --no-scheduler --steps 120 --report 10",
    label="nan", stop=True)
run("selene_reg_sgd_lr8_nan", "selene_train.py", "--task reg --lr 8 --no-scheduler --steps 120 --report 10",
    label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout73", "libho73", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
