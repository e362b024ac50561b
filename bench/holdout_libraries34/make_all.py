"""Make the thirty-fourth held-out library corpus (examples/libraries_holdout34): real runs of training libraries
nobody on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout34-neurolab/bin/python bench/holdout_libraries34/make_all.py --only neurolab_...  (numpy < 2)
    ~/venvs/holdout34/bin/python bench/holdout_libraries34/make_all.py --only ... [--check] [--manifest-only]
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

# --- neurolab (its trainers' progress on stdout: "Epoch: 20; Error: 5.280843058835644;" every `show` epochs)
run("neurolab_gd_lr1e-2_show10_100ep", "neurolab_train.py", "--trainer train_gd --lr 0.01 --epochs 100 --show 10")
run("neurolab_gdm_show5_60ep", "neurolab_train.py", "--trainer train_gdm --lr 0.005 --epochs 60 --show 5")
run("neurolab_gdx_show20_300ep", "neurolab_train.py", "--trainer train_gdx --epochs 300 --show 20 --hidden 12")
run("neurolab_rprop_show10_150ep", "neurolab_train.py", "--trainer train_rprop --epochs 150 --show 10")
run("neurolab_bfgs_show5_50ep", "neurolab_train.py", "--trainer train_bfgs --epochs 50 --show 5")
run("neurolab_gd_lr_high_diverged", "neurolab_train.py", "--trainer train_gd --lr 0.1 --epochs 60 --show 5",
    label="diverged", stop=True)
run("neurolab_gdm_lr_high_nan", "neurolab_train.py", "--trainer train_gdm --lr 0.2 --epochs 200 --show 10",
    label="nan", stop=True)
run("neurolab_gd_lr_high_h20_nan", "neurolab_train.py",
    "--trainer train_gd --lr 0.08 --epochs 300 --show 20 --hidden 20", label="nan", stop=True)
run("neurolab_gda_show25_400ep", "neurolab_train.py", "--trainer train_gda --epochs 400 --show 25 --n 100")
run("neurolab_cg_show1_30ep", "neurolab_train.py", "--trainer train_cg --epochs 30 --show 1 --hidden 6")

# --- pyrenn (train_LM's progress on stdout: "Iteration:  3 \t\tError:  0.7985617418937145 \tscale factor:  0.03")
run("pyrenn_lm_h8_30it", "pyrenn_train.py", "--hidden 8 --k-max 30")
run("pyrenn_lm_h5-5_50it", "pyrenn_train.py", "--hidden 5,5 --k-max 50 --n 100")
run("pyrenn_lm_recurrent_25it", "pyrenn_train.py", "--hidden 6 --k-max 25 --recurrent")
run("pyrenn_lm_dampfac10_h12_40it", "pyrenn_train.py", "--hidden 12 --k-max 40 --dampfac 10")

# --- syne-tune (a Tuner on its LocalBackend: its banner, "[13:46:51] Trial 4 completed!" lines, its logger's INFO
# lines, and its status table "Resource summary (last result is reported):" with one row per trial)
run("syne_random_8trials", "syne_tune_search.py", "--scheduler random --trials 8 --points 0.002")
run("syne_asha_10trials_print1", "syne_tune_search.py", "--scheduler asha --trials 10 --print-every 1 --points 0.001")
run("syne_random_sweep_7trials", "syne_tune_search.py",
    "--scheduler random --trials 7 --points 0.001,0.002,0.005,0.01,0.02,0.05,0.1 --epochs 15")
run("syne_random_lr_up_sweep_diverged", "syne_tune_search.py",
    "--scheduler random --trials 9 --points 0.05,0.1,0.2,0.4,0.6,0.8,0.9,1.0,1.2", label="diverged", stop=True)
run("syne_asha_lr_up_sweep_nan", "syne_tune_search.py",
    "--scheduler asha --trials 7 --epochs 100 --points 0.1,0.5,1,2,5,10,50", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout34", "libho34", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
