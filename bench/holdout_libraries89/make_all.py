"""Make the 89th held-out library corpus (examples/libraries_holdout89): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout89/bin/python bench/holdout_libraries89/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- guildai (`guild run train.py FLAG=VALUE -y` on a user's tiny PyTorch script: guild's `Refreshing flags...`,
# then the script's output echoed as it comes, turned into scalars by guild's output-scalars patterns: its defaults
# (`step: 3` / `loss: 0.512345` lines, or `loss: 0.512345 (step 30)`), or an operation's patterns in guild.yml
# (`Epoch 3/10 loss=0.51234 lr=0.100000 val_loss=0.53888`; the logging module's lines as guild formats them,
# `INFO: [train] epoch 3 step 40 loss 0.512345`))
run("guild_lines_adam_reg_val_12ep", "guild_train.py", "--epochs 12")
run("guild_lines_sgd_cls_noval_15ep", "guild_train.py", "--task cls --optimizer sgd --lr 0.2 --epochs 15 --no-val")
run("guild_paren_rmsprop_cls_every2_b64", "guild_train.py",
    "--style paren --every 2 --batch 64 --epochs 4 --optimizer rmsprop --lr 0.003 --task cls --no-val")
run("guild_yml_sgd_cls_val_10ep", "guild_train.py", "--style yml --task cls --optimizer sgd --lr 0.1 --epochs 10")
run("guild_yml_adam_reg_decay_noval_20ep", "guild_train.py",
    "--style yml --lr 0.02 --gamma 0.9 --epochs 20 --no-val")
run("guild_logging_momentum_every4_b16", "guild_train.py",
    "--style logging --every 4 --batch 16 --epochs 5 --optimizer momentum --lr 0.01")
run("guild_lines_sgd_lr_growth_diverged", "guild_train.py", "--optimizer sgd --lr 0.05 --gamma 1.6 --epochs 8",
    label="diverged", stop=True)
run("guild_yml_adam_lr_growth_cls_diverged", "guild_train.py",
    "--style yml --task cls --lr 0.01 --gamma 1.8 --epochs 14", label="diverged", stop=True)
run("guild_paren_momentum_lr_high_diverged", "guild_train.py",
    "--style paren --every 4 --optimizer momentum --lr 0.3 --epochs 6 --no-val", label="diverged", stop=True)

# --- PyNomadBBO (`PyNomad.optimize` training a tiny model's weights derivative-free: NOMAD's display, a `BBE OBJ`
# header then `11   7.680922` at each improvement or at every evaluation (`DISPLAY_ALL_EVAL yes`: `3 inf` for an
# evaluation whose loss is not finite), other `DISPLAY_STATS` columns (`BBE ( SOL ) OBJ`, `BBE TIME OBJ`), then
# `A termination criterion is reached: ...`, the best solution and its counters)
run("nomad_linreg_improve_60", "nomad_fit.py", "--evals 60")
run("nomad_logreg_alleval_sol_40", "nomad_fit.py", '--model logreg --all-eval --evals 40 --stats BBE_(_SOL_)_OBJ')
run("nomad_mlp_lh10_time_120", "nomad_fit.py", "--model mlp --lh 10 --evals 120 --stats BBE_TIME_OBJ")
run("nomad_linreg_ortho_alleval_50", "nomad_fit.py", "--all-eval --direction ORTHO_N+1_QUAD --x0 1 --evals 50")
run("nomad_poisson_improve_80", "nomad_fit.py", "--model poisson --evals 80")
run("nomad_logreg_f32_wide_nan", "nomad_fit.py", "--model logreg --float32 --all-eval --bound 40 --evals 40",
    label="nan", stop=True)
run("nomad_poisson_f32_wide_nan", "nomad_fit.py",
    "--model poisson --float32 --all-eval --bound 120 --x0 0.2 --evals 40", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout89", "libho89", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
