"""Make the 74th held-out library corpus (examples/libraries_holdout74): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout74/bin/python bench/holdout_libraries74/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- nvidia-physicsnemo (a custom `physicsnemo.Module` under `StaticCaptureTraining`; its `LaunchLogger` per epoch
# through the user's `logging.basicConfig`: `[...][train][INFO] - Epoch 3 Metrics: Learning Rate =  1.000e-03, loss =
# 2.359e-01`, `Epoch Execution Time: ...`, optional `[50.00%] Mini-Batch Losses: loss =  1.609e-01` and a `valid`
# namespace line `Epoch 3 Metrics: Validation error =  2.411e-01`)
run("physicsnemo_spectral_adam_val_minibatch_10ep", "physicsnemo_train.py", "--epochs 10 --mb-freq 4")
run("physicsnemo_spectral_adamw_noval_default_fmt_12ep", "physicsnemo_train.py",
    "--optimizer adamw --lr 3e-3 --epochs 12 --no-val --fmt default")
run("physicsnemo_mlp_sgd_plain_fmt_10ep", "physicsnemo_train.py", "--model mlp --optimizer sgd --lr 2 --epochs 10 "
    "--fmt plain")
run("physicsnemo_mlp_adam_b32_decay_val_15ep", "physicsnemo_train.py",
    "--model mlp --lr 3e-3 --gamma 0.9 --batch 32 --epochs 15 --mb-freq 2")
run("physicsnemo_spectral_adam_b8_every_batch_6ep", "physicsnemo_train.py", "--batch 8 --n 64 --epochs 6 --mb-freq 1")
run("physicsnemo_spectral_sgd_lr_growth_nan", "physicsnemo_train.py",
    "--optimizer sgd --lr 0.05 --gamma 1.8 --epochs 14", label="nan", stop=True)
run("physicsnemo_spectral_adam_lr_growth_noval_diverged", "physicsnemo_train.py",
    "--lr 0.01 --gamma 2.5 --epochs 12 --no-val", label="diverged", stop=True)
run("physicsnemo_mlp_adam_lr_growth_diverged", "physicsnemo_train.py",
    "--model mlp --lr 0.01 --gamma 3 --epochs 12", label="diverged", stop=True)

# --- metatrain (`mtt train options.yaml` on a tiny PET; behind its banner and dataset statistics, one line per
# logged epoch: `[...][INFO] - Epoch:    3 | learning rate: 5.000e-04 | training loss: 2.379e+03 | training energy
# RMSE (per atom): 32.996 meV | ... | validation loss: 6.431e+02 | ...`; its `train.csv` kept)
run("metatrain_pet_forces_val_12ep", "metatrain_train.py", "--epochs 12 --lr 3e-3")
run("metatrain_pet_energy_split_val_10ep", "metatrain_train.py", "--epochs 10 --lr 1e-2 --no-forces --no-val")
run("metatrain_pet_forces_b4_every2_16ep", "metatrain_train.py", "--epochs 16 --lr 3e-3 --batch 4 --log-interval 2")
run("metatrain_pet_energy_2layers_val_14ep", "metatrain_train.py",
    "--epochs 14 --lr 5e-3 --no-forces --layers 2 --d 24 --warmup 0.1")
run("metatrain_pet_forces_lr_high_noclip_diverged", "metatrain_train.py",
    "--epochs 12 --lr 0.2 --warmup 0.7 --clip 1e9", label="diverged", stop=True)
run("metatrain_pet_energy_lr_high_noclip_diverged", "metatrain_train.py",
    "--epochs 14 --lr 0.5 --warmup 0.7 --clip 1e9 --no-forces", label="diverged", stop=True)
run("metatrain_pet_forces_lr_high_warmup_diverged", "metatrain_train.py",
    "--epochs 14 --lr 0.5 --warmup 0.8 --clip 1e9", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout74", "libho74", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
