"""Make the sixteenth held-out library corpus (examples/libraries_holdout16): real runs of training libraries nobody
on the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout16/bin/python bench/holdout_libraries16/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- stanza (its lemmatizer trainer's logger on stderr: "2026-12-06 07:01:02 INFO: 2026-12-06 07:01:02: step 20/192
# (epoch 2/12), loss = 2.741612 (0.609 sec/batch), lr: 0.001000")
run("stanza_lemma_adam_log20_12ep", "stanza_lemma.py", "--epochs 12 --log-step 20")
run("stanza_lemma_sgd_log5_6ep", "stanza_lemma.py", "--optim sgd --lr 1 --epochs 6 --log-step 5")
run("stanza_lemma_adagrad_b30_log10_8ep", "stanza_lemma.py",
    "--optim adagrad --lr 0.05 --batch 30 --epochs 8 --log-step 10")
run("stanza_lemma_adamax_200s_log8_5ep", "stanza_lemma.py",
    "--optim adamax --lr 2e-3 --sentences 200 --epochs 5 --log-step 8")
run("stanza_lemma_adam_lr_high_nan", "stanza_lemma.py", "--lr 0.5 --grad-norm 1e9 --epochs 4 --log-step 4",
    label="nan", stop=True)
run("stanza_lemma_sgd_lr20_log1_nan", "stanza_lemma.py", "--optim sgd --lr 20 --grad-norm 1e9 --epochs 3 --log-step 1",
    label="nan", stop=True)
# its POS tagger's trainer: "2026-12-06 07:05:51 INFO: Finished STEP 10/60, loss = 1.892226 (0.064 sec/batch), lr:
# 0.003000"
run("stanza_pos_adam_log20_200st", "stanza_tagger.py", "--steps 200 --log-step 20 --eval-interval 50 --lr 0.01")
run("stanza_pos_adamw_b100_log5_150st", "stanza_tagger.py",
    "--optim adamw --lr 0.01 --batch 100 --steps 150 --log-step 5 --eval-interval 75")
run("stanza_pos_sgd_lr_high_log2_diverged", "stanza_tagger.py",
    "--optim sgd --lr 20 --grad-norm 1e9 --steps 60 --log-step 2 --eval-interval 30", label="diverged", stop=True)

# --- scvi-tools (its Lightning tqdm bar on stderr, \r-redrawn: "Epoch 3/20:  10%|█  | 2/20 [00:00<00:01, 16.95it/s,
# v_num=1, train_loss=260]")
run("scvi_zinb_20ep", "scvi_train.py", "--epochs 20")
run("scvi_nb_val_30ep", "scvi_train.py", "--likelihood nb --val --epochs 30")
run("scvi_poisson_adamw_b64_15ep", "scvi_train.py", "--likelihood poisson --optimizer AdamW --batch 64 --epochs 15")
run("scvi_linear_val_25ep", "scvi_train.py", "--model linear --val --lr 3e-3 --epochs 25")
run("scvi_800cells_lr5e-3_12ep", "scvi_train.py", "--cells 800 --lr 5e-3 --epochs 12")
run("scvi_lr_growth3_val_diverged", "scvi_train.py", "--lr 3e-3 --gamma 3 --val --epochs 12", label="diverged",
    stop=True)
run("scvi_nb_lr_growth2_5_diverged", "scvi_train.py", "--likelihood nb --lr 2e-3 --gamma 2.5 --epochs 14",
    label="diverged", stop=True)

# --- snorkel (its LabelModel's logger through the root logger on stderr: "INFO:root:[10 epochs]: TRAIN:[loss=0.107]",
# between its tqdm bar's redraws)
run("snorkel_sgd_100ep", "snorkel_labelmodel.py", "--epochs 100")
run("snorkel_adam_log5_80ep", "snorkel_labelmodel.py", "--optimizer adam --lr 0.01 --epochs 80 --log-freq 5")
run("snorkel_card3_12lfs_adamax_noprogress_200ep", "snorkel_labelmodel.py",
    "--cardinality 3 --lfs 12 --optimizer adamax --lr 0.02 --epochs 200 --log-freq 20 --no-progress")
run("snorkel_sgd_l2_linear_log2_50ep", "snorkel_labelmodel.py", "--l2 0.1 --scheduler linear --epochs 50 --log-freq 2")
run("snorkel_adam_exp_decay_log1_40ep", "snorkel_labelmodel.py",
    "--optimizer adam --lr 0.05 --scheduler exponential --gamma 0.9 --epochs 40 --log-freq 1")
run("snorkel_adam_lr_growth_log5_diverged", "snorkel_labelmodel.py",
    "--optimizer adam --lr 0.01 --scheduler exponential --gamma 1.3 --epochs 60 --log-freq 5", label="diverged",
    stop=True)
run("snorkel_card3_sgd_lr_growth_log4_diverged", "snorkel_labelmodel.py",
    "--cardinality 3 --scheduler exponential --gamma 1.25 --epochs 80 --log-freq 4", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout16", "libho16", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
