"""Make the 58th held-out library corpus (examples/libraries_holdout58): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout58/bin/python bench/holdout_libraries58/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- paddlenlp (its `Trainer` over a tiny BERT: the argument list as `key : value` DEBUG lines, then per logging step
# `loss: 0.66143286, learning_rate: 0.004792, global_step: 2, interval_runtime: ...`, `eval_loss: ...` lines, tqdm's
# `TrainProcess` bar, colour codes as its logger prints them; truth from `state.log_history`)
run("paddlenlp_adamw_linear_3ep", "paddlenlp_train.py", "--epochs 3")
run("paddlenlp_cosine_eval_steps_4ep", "paddlenlp_train.py",
    "--schedule cosine --eval steps --eval-steps 10 --epochs 4")
run("paddlenlp_wd_eval_epoch_4ep", "paddlenlp_train.py", "--weight-decay 0.01 --eval epoch --epochs 4")
run("paddlenlp_accum4_notqdm_log1", "paddlenlp_train.py",
    "--accum 4 --batch 8 --log-steps 1 --first-step --no-tqdm --epochs 4")
run("paddlenlp_constant_warmup_60steps_log5", "paddlenlp_train.py",
    "--schedule constant --warmup 10 --max-steps 60 --log-steps 5 --lr 0.003 --batch 32")
run("paddlenlp_hidden64_b32_log3_5ep", "paddlenlp_train.py",
    "--hidden 64 --batch 32 --log-steps 3 --epochs 5 --lr 0.002")
run("paddlenlp_first_step_eval_steps5_40steps", "paddlenlp_train.py",
    "--first-step --eval steps --eval-steps 5 --max-steps 40 --log-steps 1")
run("paddlenlp_cosine_warmup_notqdm_6ep", "paddlenlp_train.py",
    "--schedule cosine --warmup 8 --no-tqdm --epochs 6 --log-steps 4 --n 128")
run("paddlenlp_lr1e-2_b8_log8", "paddlenlp_train.py", "--lr 0.01 --batch 8 --log-steps 8 --epochs 3")
run("paddlenlp_lr_high_noclip_diverged", "paddlenlp_train.py", "--lr 0.5 --schedule constant --max-grad-norm 0",
    label="diverged", stop=True)
run("paddlenlp_lr_3_eval_epoch_diverged", "paddlenlp_train.py",
    "--lr 3 --schedule constant --max-grad-norm 0 --first-step --eval epoch", label="diverged", stop=True)
run("paddlenlp_lr_1_clip_diverged", "paddlenlp_train.py", "--lr 1 --schedule constant --first-step",
    label="diverged", stop=True)
run("paddlenlp_warmup_to_lr2_diverged", "paddlenlp_train.py",
    "--lr 2 --warmup 30 --schedule constant --max-grad-norm 0 --epochs 4 --first-step", label="diverged", stop=True)
run("paddlenlp_lr_0.3_accum2_notqdm_diverged", "paddlenlp_train.py",
    "--lr 0.3 --schedule constant --max-grad-norm 0 --accum 2 --no-tqdm --log-steps 1 --epochs 4", label="diverged",
    stop=True)

def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout58", "libho58", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
