"""Make the thirty-sixth held-out library corpus (examples/libraries_holdout36): real runs of training libraries
nobody on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout36/bin/python bench/holdout_libraries36/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- imitation (BC; its logger's tables on stdout, `| bc/ |` / `|    loss | 0.693 |`, every log_interval batches,
# the same in its own log.txt; tqdm's bar on stderr)
run("imitation_bc_adam_log10_4ep", "imitation_bc.py", "--episodes 4 --epochs 4 --log-interval 10")
run("imitation_bc_sgd_log20_rollouts_3ep", "imitation_bc.py",
    "--episodes 4 --optimizer sgd --lr 0.1 --epochs 3 --log-interval 20 --rollouts")
run("imitation_bc_rmsprop_l2_log25_6ep", "imitation_bc.py",
    "--episodes 4 --optimizer rmsprop --lr 5e-4 --l2-weight 1e-4 --epochs 6 --log-interval 25")
run("imitation_bc_adam_noise_b64_log5_5ep", "imitation_bc.py",
    "--episodes 6 --noise 0.2 --batch 64 --epochs 5 --log-interval 5")
run("imitation_bc_adam_default_log_8ep", "imitation_bc.py", "--episodes 20 --epochs 8")
run("imitation_bc_sgd_lr_high_diverged", "imitation_bc.py",
    "--episodes 4 --optimizer sgd --lr 50 --epochs 3 --log-interval 10", label="diverged", stop=True)
run("imitation_bc_sgd_lr_growth_diverged", "imitation_bc.py",
    "--episodes 4 --optimizer sgd --lr 0.5 --lr-growth 10 --epochs 5 --log-interval 10", label="diverged", stop=True)
run("imitation_bc_adam_lr_growth_diverged", "imitation_bc.py",
    "--episodes 4 --lr 0.01 --lr-growth 6 --epochs 5 --log-interval 10", label="diverged", stop=True)

# --- BrainPy (`bp.BPTT.fit`'s report, printed: `Train 3 epoch, use 0.0025 s, loss 1.0790705680847168`, or
# `Train 20 steps, ...`; in its tqdm bar's description on stderr for a sized dataset). In its own venv
# (~/venvs/holdout36-brainpy): `~/venvs/holdout36-brainpy/bin/python bench/holdout_libraries36/make_all.py --only
# brainpy_...` (the maker runs the generators with its own Python)
run("brainpy_rnn_adam_8ep", "brainpy_bptt.py", "--epochs 8")
run("brainpy_rnn_sgd_10ep", "brainpy_bptt.py", "--optimizer sgd --lr 0.02 --epochs 10")
run("brainpy_rnn_adam_report2_test_10ep", "brainpy_bptt.py", "--lr 0.03 --epochs 10 --report 2 --test")
run("brainpy_lstm_adam_sized_6ep", "brainpy_bptt.py", "--cell lstm --sized --epochs 6")
run("brainpy_rnn_adam_exp_decay_test_10ep", "brainpy_bptt.py", "--lr 0.05 --gamma 0.7 --epochs 10 --test")
run("brainpy_lstm_rmsprop_report4_8ep", "brainpy_bptt.py",
    "--cell lstm --optimizer rmsprop --lr 3e-3 --epochs 8 --report 4")
run("brainpy_rnn_sgd_lr_high_report1_nan", "brainpy_bptt.py", "--optimizer sgd --lr 0.05 --epochs 3 --report 1",
    label="nan", stop=True)
run("brainpy_rnn_momentum_lr_high_report1_nan", "brainpy_bptt.py",
    "--optimizer momentum --lr 0.05 --epochs 3 --report 1", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout36", "libho36", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
