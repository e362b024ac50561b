"""Make the 81st held-out library corpus (examples/libraries_holdout81): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout81/bin/python bench/holdout_libraries81/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- parlai (`parlai train_model` on its bundled integration_tests teachers: every N steps its logger's
# `time:1s total_exs:128 total_steps:8 epochs:0.26 time_left:6s` then a wrapped metrics table, `loss` among ~20
# columns at 4 significant digits, `.0100` without the leading zero; `valid:` reports the same way)
run("parlai_seq2seq_adam_2ep", "parlai_train.py", "--epochs 2")
run("parlai_seq2seq_adam_val_2ep", "parlai_train.py", "--epochs 2 --val-epochs 1")
run("parlai_transformer_invsqrt_val_halfep", "parlai_train.py",
    "--model transformer/generator --scheduler invsqrt --extra=--warmup-updates,10 --val-epochs 0.5")
run("parlai_seq2seq_sgd_reverse_b8_3ep", "parlai_train.py",
    "--task integration_tests:reverse --optimizer sgd --lr 1 --batch 8 --epochs 3 --log-steps 20")
run("parlai_transformer_linear_nocand_2ep", "parlai_train.py",
    "--model transformer/generator --task integration_tests:nocandidate --scheduler linear "
    "--extra=--max-lr-steps,70 --epochs 2 --log-steps 6")
run("parlai_seq2seq_adam_warmup_lr_high_diverged", "parlai_train.py",
    "--lr 4 --clip -1 --extra=--warmup-updates,90 --epochs 3", label="diverged", stop=True)
run("parlai_seq2seq_sgd_warmup_lr_high_diverged", "parlai_train.py",
    "--optimizer sgd --lr 60 --clip -1 --extra=--warmup-updates,90 --epochs 3", label="diverged", stop=True)
run("parlai_transformer_adam_warmup_lr_high_diverged", "parlai_train.py",
    "--model transformer/generator --lr 0.5 --clip -1 --extra=--warmup-updates,90 --epochs 3", label="diverged",
    stop=True)

# --- deeppavlov (`python -m deeppavlov train config.json`, its torch_trainer: a JSON report a line,
# `{"train": {"eval_examples_count": 32, "metrics": {...}, "time_spent": "0:00:01", "epochs_done": 3,
# "batches_seen": 30, "train_examples_seen": 960, "loss": 0.7162776589393616}}`, `{"valid": ...}`, tqdm bars)
run("deeppavlov_adam_val_10ep", "deeppavlov_train.py", "--epochs 10")
run("deeppavlov_adam_noval_b16_every10b", "deeppavlov_train.py", "--batch 16 --every-batches 10 --no-val --epochs 5")
run("deeppavlov_sgd_momentum_val_15ep", "deeppavlov_train.py",
    "--optimizer SGD --lr 0.1 --momentum 0.9 --epochs 15")
run("deeppavlov_adamw_4cls_lrdrop_12ep", "deeppavlov_train.py",
    "--optimizer AdamW --lr 0.005 --classes 4 --drop-patience 2 --epochs 12")
run("deeppavlov_rmsprop_b64_every3b_val", "deeppavlov_train.py",
    "--optimizer RMSprop --lr 0.002 --batch 64 --every-batches 3 --epochs 8")
run("deeppavlov_sgd_lr_high_every1b_nan", "deeppavlov_train.py",
    "--optimizer SGD --lr 1e6 --every-batches 1 --epochs 1 --no-val", label="nan", stop=True)
run("deeppavlov_sgd_momentum_lr_high_every1b_diverged", "deeppavlov_train.py",
    "--optimizer SGD --lr 1e3 --momentum 0.9 --every-batches 1 --epochs 1 --no-val", label="diverged", stop=True)
run("deeppavlov_sgd_lr_high_val_b16_every2b_nan", "deeppavlov_train.py",
    "--optimizer SGD --lr 1e8 --batch 16 --every-batches 2 --epochs 2", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout81", "libho81", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
