"""Make the 66th held-out library corpus (examples/libraries_holdout66): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout66/bin/python bench/holdout_libraries66/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- rectools (`SASRecModel` / `BERT4RecModel(..., verbose=1).fit(dataset)`: Lightning's warnings, its model summary,
# then its tqdm bar on stderr without a TTY, `\r` redraws on one physical line, `Epoch 3: 100%|...| 7/7 [00:00<00:00,
# 92.38it/s, v_num=0, val_loss=3.280, train_loss=3.660]` (3 decimals); the CSVLogger's metrics.csv kept)
run("rectools_sasrec_softmax_noval_8ep", "rectools_train.py", "--epochs 8")
run("rectools_sasrec_softmax_val_custom_10ep", "rectools_train.py", "--val --custom-trainer --epochs 10")
run("rectools_sasrec_bce_val_b64_12ep", "rectools_train.py", "--loss BCE --val --batch 64 --lr 0.005 --epochs 12")
run("rectools_sasrec_sampled_softmax_2blocks_15ep", "rectools_train.py",
    "--loss sampled_softmax --blocks 2 --epochs 15")
run("rectools_bert4rec_softmax_val_10ep", "rectools_train.py", "--model bert4rec --val --lr 0.005 --epochs 10")
run("rectools_bert4rec_gbce_custom_b16_8ep", "rectools_train.py",
    "--model bert4rec --loss gBCE --custom-trainer --batch 16 --epochs 8")
run("rectools_sasrec_lr_growth_diverged", "rectools_train.py", "--custom-trainer --lr-growth 3 --epochs 10",
    label="diverged", stop=True)
run("rectools_bert4rec_lr_growth_diverged", "rectools_train.py",
    "--model bert4rec --custom-trainer --lr-growth 3 --epochs 10", label="diverged", stop=True)
run("rectools_sasrec_bce_val_lr_growth_diverged", "rectools_train.py",
    "--loss BCE --val --custom-trainer --lr-growth 5 --epochs 10", label="diverged", stop=True)

# --- recpack (a `PipelineBuilder` pipeline around its torch algorithms; its `recpack` logger on stdout, per epoch
# `2026-12-07 05:24:09,297 - base - recpack - INFO - Processed epoch 9 in 0.02 s.Batch Training Loss = 0.6753`
# (4 decimals), `StoppingCriterion has value ...`, `Evaluation at end of 9 took 0.02 s.`; tqdm bars on stderr)
run("recpack_bprmf_adagrad_10ep", "recpack_fit.py", "--epochs 10")
run("recpack_bprmf_b256_recall_12ep", "recpack_fit.py", "--batch 256 --lr 0.1 --criterion recall --epochs 12")
run("recpack_gru4rec_ce_adagrad_10ep", "recpack_fit.py", "--algo GRU4RecCrossEntropy --lr 0.1")
run("recpack_gru4rec_negsampling_8ep", "recpack_fit.py", "--algo GRU4RecNegSampling --lr 0.1 --epochs 8")
run("recpack_multvae_adam_b32_15ep", "recpack_fit.py", "--algo MultVAE --lr 0.001 --batch 32 --epochs 15")
run("recpack_gru4rec_ce_sgd_lr_high_diverged", "recpack_fit.py",
    "--algo GRU4RecCrossEntropy --optimizer sgd --lr 20 --momentum 0.9 --clipnorm 1000", label="diverged", stop=True)
run("recpack_gru4rec_negsampling_sgd_lr_high_nan", "recpack_fit.py",
    "--algo GRU4RecNegSampling --optimizer sgd --lr 5 --momentum 0.9 --clipnorm 1000", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout66", "libho66", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
