"""Make the 80th held-out library corpus (examples/libraries_holdout80): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout80/bin/python bench/holdout_libraries80/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- LightZero (`lzero.entry.train_muzero` on its CartPole, the zoo's configs made small: every N learner iterations
# DI-engine's rich logger prints `=== Training Iteration 30 Result ===` and tables of `| Name | cur_lr_avg |
# weighted_total_loss_avg | total_loss_avg | ...` over `| Value | 0.003000 | 21.599886 | ...`, wrapped by the
# logger's width; the collector's and evaluator's own tables between)
run("lightzero_muzero_adam_150it", "lightzero_train.py", "--iters 150 --log-every 15")
run("lightzero_efficientzero_adam_150it", "lightzero_train.py", "--algo efficientzero --iters 150 --log-every 15")
run("lightzero_gumbel_muzero_b64_120it", "lightzero_train.py",
    "--algo gumbel_muzero --batch 64 --upc 20 --iters 120 --log-every 20")
run("lightzero_muzero_sims10_b64_100it", "lightzero_train.py",
    "--sims 10 --batch 64 --upc 10 --iters 100 --log-every 10")
run("lightzero_muzero_sgd_piecewise_160it", "lightzero_train.py",
    "--optim SGD --lr 0.2 --piecewise --iters 160 --log-every 20")
run("lightzero_muzero_adam_lr10_nan", "lightzero_train.py", "--lr 10 --iters 60 --log-every 5", label="nan",
    stop=True)
run("lightzero_muzero_sgd_lr20_noclip_nan", "lightzero_train.py",
    "--optim SGD --lr 20 --grad-clip 1e9 --iters 60 --log-every 5", label="nan", stop=True)

# --- SPORCO (`Verbose` dictionary learning: its own table on stdout, `Itn   Fnc       DFid      ℓ1        Cnstr ...`,
# a rule of dashes, one row an iteration `   3  4.97e+01  1.73e+01 ...`, `%.2e`; numpy's RuntimeWarnings on stderr)
run("sporco_bpdndl_admm_20it", "sporco_learn.py", "--model bpdndl --iters 20")
run("sporco_bpdndl_admm_accurate_30it", "sporco_learn.py", "--model bpdndl --lmbda 0.05 --iters 30 --accurate")
run("sporco_cbpdndl_admm_cns_20it", "sporco_learn.py", "--dmethod cns --iters 20")
run("sporco_cbpdndl_admm_cg_25it", "sporco_learn.py", "--dmethod cg --lmbda 0.05 --iters 25")
run("sporco_cbpdndl_pgm_backtrack_20it", "sporco_learn.py", "--xmethod pgm --backtrack --iters 20")
run("sporco_cbpdndl_pgm_pgm_8x8_backtrack_30it", "sporco_learn.py",
    "--xmethod pgm --dmethod pgm --backtrack --size 8 --atoms 16 --images 3 --lmbda 0.05 --iters 30")
run("sporco_cbpdndl_admm_ism_accurate_15it", "sporco_learn.py", "--dmethod ism --accurate --iters 15")
run("sporco_cbpdndl_pgm_fixed_L60_diverged", "sporco_learn.py", "--xmethod pgm --xL 60 --iters 30",
    label="diverged", stop=True)
run("sporco_cbpdndl_pgm_fixed_L80_8x8_diverged", "sporco_learn.py",
    "--xmethod pgm --xL 80 --size 8 --atoms 16 --images 3 --lmbda 0.05 --iters 30", label="diverged", stop=True)
run("sporco_cbpdndl_pgm_fixed_L30_nan", "sporco_learn.py", "--xmethod pgm --xL 30 --iters 200", label="nan",
    stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout80", "libho80", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
