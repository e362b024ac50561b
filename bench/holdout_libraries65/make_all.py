"""Make the 65th held-out library corpus (examples/libraries_holdout65): real runs of a training library nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout65/bin/python bench/holdout_libraries65/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- happytransformer (`HappyGeneration` / `HappyTextClassification` / `HappyWordPrediction` `.train()` on tiny local
# models; its logger's warnings, then the Hugging Face Trainer's progress bar (stderr, no TTY) and one dict a logging
# step on stdout, `{'loss': 3.7341, 'grad_norm': ..., 'learning_rate': ..., 'epoch': 0.25}`, with `{'eval_loss': ...}`
# dicts between; truth from the Trainer's trainer_state.json in its last checkpoint)
run("happy_gen_ratio_eval_3ep", "happy_train.py", "--lr 3e-3")
run("happy_gen_eval_file_b4_4ep", "happy_train.py", "--lr 2e-3 --batch 4 --epochs 4 --eval-file")
run("happy_gen_noeval_log5_6ep", "happy_train.py", "--lr 3e-3 --epochs 6 --eval-steps 0 --logging-steps 0.05")
run("happy_gen_wd_len16_3ep", "happy_train.py", "--lr 4e-3 --weight-decay 0.1 --max-length 16 --epochs 3")
run("happy_tc_ratio_eval_6ep", "happy_train.py", "--task tc --lr 1e-2 --epochs 6")
run("happy_tc_eval_file_b16_8ep", "happy_train.py", "--task tc --lr 1e-2 --epochs 8 --batch 16 --n 320 --eval-file")
run("happy_tc_noeval_log20_5ep", "happy_train.py", "--task tc --lr 5e-3 --epochs 5 --eval-steps 0 --logging-steps 0.05")
run("happy_wp_ratio_eval_3ep", "happy_train.py", "--task wp --lr 3e-3")
run("happy_wp_eval_file_b4_3ep", "happy_train.py", "--task wp --lr 2e-3 --batch 4 --eval-file")
run("happy_wp_noeval_5ep", "happy_train.py", "--task wp --lr 4e-3 --epochs 5 --eval-steps 0")
run("happy_gen_lr_high_diverged", "happy_train.py", "--lr 5 --epochs 4", label="diverged", stop=True)
run("happy_gen_lr_huge_noeval_diverged", "happy_train.py", "--lr 1e4 --epochs 4 --eval-steps 0", label="diverged",
    stop=True)
run("happy_tc_lr_high_diverged", "happy_train.py", "--task tc --lr 50 --epochs 3", label="diverged", stop=True)
run("happy_wp_lr_high_diverged", "happy_train.py", "--task wp --lr 20 --epochs 4", label="diverged", stop=True)
run("happy_gen_wd_b4_lr_high_eval_file_diverged", "happy_train.py",
    "--lr 3 --batch 4 --weight-decay 0.1 --epochs 3 --eval-file", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout65", "libho65", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
