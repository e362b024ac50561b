"""Make the 96th held-out library corpus (examples/libraries_holdout96): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout96/bin/python bench/holdout_libraries96/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- scico (scico.flax's `BasicFlaxTrainer` with `log: True`: data and network summaries, then its table
# `Epoch  Time  Train_LR  Train_Loss  Train_SNR  Eval_Loss  Eval_SNR`, one row every `log_every_steps` steps)
run("scico_dncnn_adam_8ep", "scico_train.py", "--epochs 8")
run("scico_dncnn_adamw_cosine_warmup_10ep", "scico_train.py",
    "--opt ADAMW --schedule cosine --warmup 2 --lr 3e-3 --epochs 10")
run("scico_convbn_sgd_b16_12ep", "scico_train.py", "--model convbn --opt SGD --lr 0.05 --batch 16 --epochs 12")
run("scico_dncnn_adam_exp_every2_16ep", "scico_train.py",
    "--schedule exp --decay 0.3 --epochs 16 --log-every-epochs 2")
run("scico_dncnn_deep5_b4_6ep", "scico_train.py", "--depth 5 --batch 4 --epochs 6")
run("scico_adam_exp_growth_diverged", "scico_train.py", "--schedule exp --decay 1e5 --epochs 10",
    label="diverged", stop=True)
run("scico_sgd_exp_growth_nan", "scico_train.py", "--opt SGD --lr 0.05 --schedule exp --decay 1e6 --epochs 10",
    label="nan", stop=True)

# --- pypose (a synthetic SE(3) pose graph solved by `pp.optim.LM` / `pp.optim.GN` under `StopOnPlateau(...,
# verbose=True)`: `StopOnPlateau on step 3 Loss 2.750000e-02 --> Loss 2.749250e-02 (reduction/loss: 2.7267e-04).`)
run("pypose_lm_trustregion_20n", "pypose_pgo.py", "")
run("pypose_lm_adaptive_noise05", "pypose_pgo.py", "--strategy adaptive --init-noise 0.5")
run("pypose_lm_constant_lstsq_30n", "pypose_pgo.py",
    "--strategy constant --damping 1e-3 --solver lstsq --nodes 30 --init-noise 0.8")
run("pypose_lm_huber_noise05", "pypose_pgo.py", "--kernel huber --init-noise 0.5")
run("pypose_lm_cauchy_pinv_40n", "pypose_pgo.py", "--kernel cauchy --solver pinv --nodes 40")
run("pypose_gn_lstsq_noise01", "pypose_pgo.py", "--optimizer gn --solver lstsq --init-noise 0.1")
run("pypose_gn_pinv_noise05_diverged", "pypose_pgo.py",
    "--optimizer gn --solver pinv --init-noise 0.5 --patience 10 --steps 12", label="diverged", stop=True)
run("pypose_gn_pinv_30n_diverged", "pypose_pgo.py",
    "--optimizer gn --solver pinv --init-noise 0.3 --nodes 30 --patience 10 --steps 14", label="diverged", stop=True)
run("pypose_gn_pinv_noise08_diverged", "pypose_pgo.py",
    "--optimizer gn --solver pinv --init-noise 0.8 --patience 10 --steps 12", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout96", "libho96", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
