"""Make the 90th held-out library corpus (examples/libraries_holdout90): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout90/bin/python bench/holdout_libraries90/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- kauldron (`python -m kauldron.main --cfg=cfg.py --cfg.workdir=...`: its config and context tables, tqdm bars
# `train:  41%|████      | 41/101`, and every log_metrics_every steps clu's LoggingWriter through absl on stderr,
# `I1207 16:53:01.767456 ... logging_writer.py:48] [40] collection=train losses/total=0.8276774287223816,
# losses/xent=0.8276774287223816, perf_stats/...`; `collection=eval` lines from an Evaluator)
run("kauldron_cls_adam_200st", "kauldron_train.py", "--steps 200 --log-every 20")
run("kauldron_cls_adam_metrics_eval_150st", "kauldron_train.py",
    "--steps 150 --log-every 15 --metrics --eval-every 50")
run("kauldron_reg_sgd_cosine_200st", "kauldron_train.py",
    "--task reg --optimizer sgd --lr 0.05 --schedule cosine --steps 200 --log-every 20")
run("kauldron_reg_adamw_warmup_eval_b64_160st", "kauldron_train.py",
    "--task reg --optimizer adamw --lr 0.01 --schedule warmup_cosine --steps 160 --log-every 10 --eval-every 40 "
    "--batch 64")
run("kauldron_cls_rmsprop_b16_metrics_120st", "kauldron_train.py",
    "--optimizer rmsprop --lr 0.001 --batch 16 --width 16 --steps 120 --log-every 10 --metrics")
run("kauldron_cls_sgd_warmup_cosine_eval_300st", "kauldron_train.py",
    "--optimizer sgd --lr 0.1 --schedule warmup_cosine --steps 300 --log-every 30 --eval-every 100")
run("kauldron_reg_rmsprop_log5_60st", "kauldron_train.py",
    "--task reg --optimizer rmsprop --lr 0.003 --steps 60 --log-every 5")
run("kauldron_cls_sgd_lr_growth_nan", "kauldron_train.py",
    "--optimizer sgd --lr 0.05 --schedule growth --growth 2 --every 10 --steps 160 --log-every 10",
    label="nan", stop=True)
run("kauldron_reg_sgd_lr_high_nan", "kauldron_train.py",
    "--task reg --optimizer sgd --lr 0.5 --steps 100 --log-every 5", label="nan", stop=True)
run("kauldron_reg_adam_lr_growth_eval_diverged", "kauldron_train.py",
    "--task reg --lr 0.01 --schedule growth --growth 3 --every 10 --steps 160 --log-every 10 --eval-every 40",
    label="diverged", stop=True)

# --- open_spiel (its AlphaZero example, `python -m open_spiel.python.examples.alpha_zero --game=tic_tac_toe ...`, run
# in-process with its absl flags: `Starting game tic_tac_toe`, the processes' `learner started` / `actor-0 started`,
# orbax's absl INFO lines on stderr for each checkpoint, and the learner's own lines on stdout, per step
# `[2026-12-07 16:56:16.256] Step: 5`, `Collected    32 states from   5 games, ...`, `Buffer size: 64. States seen:
# 160`, `Losses(total: 1.520, policy: 1.329, value: 0.180, l2: 0.011)`, `Checkpoint saved: 5`)
run("openspiel_az_ttt_mlp_lr01_10st", "openspiel_alphazero.py",
    "--lr 0.01 --batch 16 --buffer 64 --reuse 2 --sims 8 --steps 10")
run("openspiel_az_ttt_resnet_nnx_8st", "openspiel_alphazero.py",
    "--model resnet --api nnx --width 16 --depth 1 --lr 0.01 --batch 16 --buffer 64 --reuse 2 --sims 8 --steps 8")
run("openspiel_az_ttt_mlp_evaluator_b32_10st", "openspiel_alphazero.py",
    "--evaluators 1 --lr 0.005 --batch 32 --buffer 128 --reuse 4 --sims 6 --steps 10")
run("openspiel_az_ttt_mlp_lr2_b32_diverged", "openspiel_alphazero.py",
    "--lr 2 --batch 32 --buffer 64 --reuse 2 --sims 8 --steps 8", label="diverged", stop=True)
run("openspiel_az_ttt_mlp_lr1e25_b32_nan", "openspiel_alphazero.py",
    "--lr 1e25 --batch 32 --buffer 64 --reuse 2 --sims 8 --steps 7", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout90", "libho90", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
