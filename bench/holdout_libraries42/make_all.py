"""Make the 42nd held-out library corpus (examples/libraries_holdout42): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says (a truth whose ``higher_is_better`` names
its loss, tomotopy's log-likelihood, has its label checked on the values negated).

    ~/venvs/holdout42/bin/python bench/holdout_libraries42/make_all.py [--only NAME ...] [--check] [--manifest-only]
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import blind_maker  # noqa: E402

_check = blind_maker.check


def check(name: str, truth: dict, label: str, log: Path) -> list[str]:
    """blind_maker's checks; the label on the negated values where higher is better."""
    if truth["loss_name"] not in (truth.get("higher_is_better") or []):
        return _check(name, truth, label, log)
    flipped = dict(truth, train_loss=[[s, -float(v)] for s, v in truth["train_loss"]])
    out = [p for p in _check(name, flipped, label, Path("/nonexistent"))]
    return out + (blind_maker.unprinted(log, truth) if log.is_file() else [])


blind_maker.check = check

# name: (generator, args, label, should_stop)
RUNS: blind_maker.Runs = {}
run = blind_maker.registry(RUNS)

# --- pytorch-trainer-tensorboard (its Trainer: "3. Training loss = 0.8646250" on stdout, tqdm bars on stderr)
run("ptt_cls_sgd_metric_10ep", "ptt_train.py", "--lr 0.05 --epochs 10 --metric")
run("ptt_cls_adam_8ep", "ptt_train.py", "--optimizer Adam --lr 0.003 --epochs 8")
run("ptt_reg_momentum_12ep", "ptt_train.py", "--task reg --optimizer momentum --lr 0.01 --epochs 12")
run("ptt_reg_rmsprop_decay_b64_15ep", "ptt_train.py",
    "--task reg --optimizer RMSprop --lr 0.003 --gamma 0.85 --epochs 15 --batch 64")
run("ptt_cls_sgd_b16_metric_6ep", "ptt_train.py", "--lr 0.02 --batch 16 --epochs 6 --metric")
run("ptt_cls_sgd_lr_growth_nan", "ptt_train.py", "--lr 0.05 --gamma 2.5 --epochs 12 --metric", label="nan",
    stop=True)
run("ptt_reg_momentum_lr_growth_nan", "ptt_train.py",
    "--task reg --optimizer momentum --lr 0.01 --gamma 3 --epochs 12", label="nan", stop=True)
run("ptt_reg_momentum_lr_high_nan", "ptt_train.py", "--task reg --optimizer momentum --lr 0.2 --epochs 8",
    label="nan", stop=True)
run("ptt_cls_adam_lr_growth_diverged", "ptt_train.py", "--optimizer Adam --lr 0.003 --gamma 2.2 --epochs 12",
    label="diverged", stop=True)
run("ptt_reg_rmsprop_lr_growth_diverged", "ptt_train.py",
    "--task reg --optimizer RMSprop --lr 0.003 --gamma 2 --epochs 12", label="diverged", stop=True)

# --- tomotopy (its README's loop: "Iteration: 10\tLog-likelihood: -4.5922010069732195")
run("tomotopy_lda_k6_100it", "tomotopy_train.py", "--k 6 --iters 100 --workers 1")
run("tomotopy_lda_k10_default_workers_chunk5_60it", "tomotopy_train.py", "--k 10 --iters 60 --chunk 5")
run("tomotopy_hdp_100it", "tomotopy_train.py", "--model hdp --iters 100 --workers 1")
run("tomotopy_ctm_k6_chunk5_50it", "tomotopy_train.py", "--model ct --k 6 --iters 50 --chunk 5 --workers 1")
run("tomotopy_pa_k6_80it", "tomotopy_train.py", "--model pa --k 6 --iters 80 --workers 1 --docs 200")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout42", "libho42", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
