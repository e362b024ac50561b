"""Make the 87th held-out library corpus (examples/libraries_holdout87): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout87/bin/python bench/holdout_libraries87/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- labml (a torch loop inside `experiment.record(..., writers={'screen', 'file'})`: `monit.loop` / `monit.iterate`
# / `monit.mix` sections and `tracker.save` values on its console, one `\r`-redrawn line a loop step in ANSI colours
# (`      12:  Train: 100%  7ms  loss.train:  2.82844 ...`); its own run folder's log.jsonl, run.yaml kept)
run("labml_reg_adam_perbatch_8ep", "labml_train.py", "--epochs 8")
run("labml_reg_sgd_epochmean_val_15ep", "labml_train.py", "--optimizer sgd --lr 0.01 --save epoch --val --epochs 15")
run("labml_cls_adam_mix_val_12ep", "labml_train.py", "--task cls --loop mix --val --save epoch --epochs 12 --lr 0.005")
run("labml_cls_adamw_plain_samples_10ep", "labml_train.py",
    "--task cls --optimizer adamw --loop plain --save epoch --step-by sample --epochs 10")
run("labml_cls_adamw_cosine_b16_perbatch_5ep", "labml_train.py",
    "--task cls --optimizer adamw --cosine --batch 16 --epochs 5 --lr 0.005")
run("labml_reg_adam_lr_growth_diverged", "labml_train.py", "--lr 0.01 --gamma 1.8 --save epoch --epochs 15",
    label="diverged", stop=True)
run("labml_cls_sgd_lr_growth_diverged", "labml_train.py",
    "--task cls --optimizer sgd --lr 0.05 --gamma 1.7 --save epoch --epochs 14", label="diverged", stop=True)
run("labml_reg_adam_perbatch_lr_growth_diverged", "labml_train.py", "--lr 0.02 --gamma 1.6 --epochs 12",
    label="diverged", stop=True)
run("labml_reg_sgd_lr_growth_nan", "labml_train.py", "--optimizer sgd --lr 0.01 --gamma 2 --save epoch --epochs 16",
    label="nan", stop=True)

# --- baal (`ModelWrapper` + `TrainingArgs` around a torch MLP with dropout: its structlog lines on stdout,
# `[pid-MainThread] [baal.modelwrapper:train_on_dataset:99] <iso time> [info     ] Training complete
# train_loss=0.6188437938690186`, in ANSI colours; tqdm bars for its active-learning experiment)
run("baal_tt_cls_sgd_6x6", "baal_train.py", "--mode tt --epochs 6")
run("baal_tt_cls_adam_patience_8x8", "baal_train.py", "--mode tt --optimizer adam --lr 0.002 --epochs 8 --patience 3")
run("baal_loop_reg_sgd_test_12ep", "baal_train.py", "--mode loop --task reg --lr 0.01 --epochs 12")
run("baal_loop_cls_adam_notest_b16_10ep", "baal_train.py",
    "--mode loop --optimizer adam --lr 0.003 --no-test --batch 16 --epochs 10")
run("baal_al_bald_cls_5ep_6rounds", "baal_train.py", "--mode al --epochs 5")
run("baal_loop_cls_sgd_lr_growth_diverged", "baal_train.py", "--mode loop --lr 0.05 --gamma 1.8 --epochs 14",
    label="diverged", stop=True)
run("baal_loop_cls_sgd_lr_high_diverged", "baal_train.py", "--mode loop --lr 3 --epochs 10", label="diverged",
    stop=True)
run("baal_loop_reg_sgd_lr_high_nan", "baal_train.py", "--mode loop --task reg --lr 0.15 --epochs 10", label="nan",
    stop=True)
run("baal_loop_reg_sgd_lr_growth_nan", "baal_train.py", "--mode loop --task reg --lr 0.01 --gamma 2.5 --epochs 16",
    label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout87", "libho87", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
