"""Make the 75th held-out library corpus (examples/libraries_holdout75): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout75/bin/python bench/holdout_libraries75/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- OpenNMT-tf (`onmt-main --model_type TransformerTiny --config data.yml train [--with_eval]`, or `--model
# my_model.py`: TensorFlow's logger on stderr, the configuration, then every `save_summary_steps` `Step = 20 ;
# steps/s = 57.86, tokens/s = ... ; Learning rate = 0.002000 ; Loss = 13.631547`; `Evaluation result for step 50:
# loss = 2.164023 ; perplexity = 8.706091`; its TensorBoard event file kept)
run("onmt_transformer_adam_eval50_200st", "onmt_train.py", "--eval-steps 50")
run("onmt_transformer_tokens_noeval_300st", "onmt_train.py", "--batch 400 --batch-type tokens --steps 300 --report 20")
run("onmt_rnn_tokens_eval100_300st", "onmt_train.py",
    "--model rnn --lr 0.01 --steps 300 --report 20 --eval-steps 100 --batch 400 --batch-type tokens")
run("onmt_transformer_expdecay_b64_eval200_400st", "onmt_train.py",
    "--decay ExponentialDecay --decay-rate 0.5 --decay-steps 100 --steps 400 --report 25 --eval-steps 200 --batch 64")
run("onmt_transformer_everystep_60st", "onmt_train.py", "--steps 60 --report 1 --lr 0.003")
run("onmt_transformer_adam_lr_growth_diverged", "onmt_train.py",
    "--decay ExponentialDecay --decay-rate 2 --decay-steps 10 --steps 150", label="diverged", stop=True)
run("onmt_rnn_adam_lr_growth_diverged", "onmt_train.py",
    "--model rnn --lr 0.005 --decay ExponentialDecay --decay-rate 1.8 --decay-steps 10 --steps 200", label="diverged",
    stop=True)
run("onmt_transformer_sgd_lr_growth_tokens_diverged", "onmt_train.py",
    "--optimizer SGD --lr 0.05 --decay ExponentialDecay --decay-rate 2 --decay-steps 10 --steps 200 --report 5 "
    "--batch 400 --batch-type tokens", label="diverged", stop=True)

# --- stardist (`StarDist2D(Config2D(...)).train(X, Y, validation_data=...)`: TensorFlow's and StarDist's notices,
# then Keras' progress on stdout, no TTY: `Epoch 3/8` and one line an epoch ending `- val_..._metric: 0.2314 - lr:
# 3.0000e-04`; its config.json (and thresholds.json) kept)
run("stardist_default_thresholds_8ep", "stardist_train.py", "--thresholds")
run("stardist_rays32_b2_reducelr_12ep", "stardist_train.py",
    "--reduce-lr-patience 1 --lr 0.003 --epochs 12 --rays 32 --batch 2 --steps 16")
run("stardist_mse_grid1_10ep", "stardist_train.py",
    "--dist-loss mse --prob-weight 1 --dist-weight 0.05 --epochs 10 --grid 1")
run("stardist_b8_lr1e-3_15ep", "stardist_train.py", "--batch 8 --steps 5 --epochs 15 --lr 0.001")
run("stardist_lr_growth3_12ep_diverged", "stardist_train.py", "--lr-growth 3 --epochs 12", label="diverged",
    stop=True)
run("stardist_mse_lr_growth4_12ep_diverged", "stardist_train.py", "--lr-growth 4 --epochs 12 --dist-loss mse",
    label="diverged", stop=True)
run("stardist_rays32_lr_growth10_10ep_diverged", "stardist_train.py", "--lr-growth 10 --epochs 10 --rays 32",
    label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout75", "libho75", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
