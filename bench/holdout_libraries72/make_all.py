"""Make the 72nd held-out library corpus (examples/libraries_holdout72): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout72/bin/python bench/holdout_libraries72/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- ai2-olmo-core (its `Trainer` on a tiny llama-like LM over Markov-chain tokens; its ConsoleLoggerCallback on
# stderr: `[step=5/40,epoch=1,eta=...]` then one line a metric, `    train/CE loss=4.318`, every
# metrics_collect_interval steps and at step 1; its MetricSaverCallback's `metrics_step{N}.json` kept)
run("olmo_core_adamw_cos_40steps", "olmo_core_train.py", "--steps 40")
run("olmo_core_adamw_cos_eval_50steps", "olmo_core_train.py", "--steps 50 --eval-interval 10")
run("olmo_core_adam_const_interval5_60steps", "olmo_core_train.py",
    "--optim adam --scheduler const --lr 2e-3 --interval 5 --steps 60")
run("olmo_core_lion_linear_b16_30steps", "olmo_core_train.py",
    "--optim lion --lr 3e-4 --scheduler linear --batch-seqs 16 --steps 30")
run("olmo_core_adamw_wsd_3layers_interval2_48steps", "olmo_core_train.py",
    "--scheduler wsd --layers 3 --steps 48 --interval 2")
run("olmo_core_adamw_exp_to_lr5_diverged", "olmo_core_train.py", "--steps 40 --lr 5 --scheduler exp --clip 0",
    label="diverged", stop=True)
run("olmo_core_lion_const_lr_high_diverged", "olmo_core_train.py",
    "--optim lion --lr 0.2 --scheduler const --clip 0 --steps 40", label="diverged", stop=True)
run("olmo_core_adam_exp_to_lr3_interval2_diverged", "olmo_core_train.py",
    "--optim adam --lr 3 --scheduler exp --clip 0 --steps 50 --interval 2", label="diverged", stop=True)

# --- biotrainer (`biotrainer train --config config.yml` on one-hot embedded synthetic protein sequences; its logger
# on stderr: `Epoch 3`, `Training results`, `\tloss: 0.56`, `Validation results`, ...; its out.yml and
# logger_out.log kept)
run("biotrainer_value_fnn_adam_12ep", "biotrainer_train.py", "--epochs 12")
run("biotrainer_class_fnn_adam_12ep", "biotrainer_train.py", "--protocol sequence_to_class --epochs 12")
run("biotrainer_residue_cnn_adam_8ep", "biotrainer_train.py", "--protocol residue_to_class --model CNN --epochs 8")
run("biotrainer_value_logreg_sgd_tensorboard_15ep", "biotrainer_train.py",
    "--model LogReg --optimizer sgd --lr 0.1 --epochs 15 --writer tensorboard")
run("biotrainer_class_deeperfnn_weights_b32_10ep", "biotrainer_train.py",
    "--protocol sequence_to_class --model DeeperFNN --class-weights --batch 32 --epochs 10")
run("biotrainer_value_deeperfnn_sgd_lr_high_diverged", "biotrainer_train.py",
    "--optimizer sgd --lr 0.15 --model DeeperFNN --epochs 6 --scale 3", label="diverged", stop=True)
run("biotrainer_value_deeperfnn_sgd_lr_high_nan", "biotrainer_train.py",
    "--optimizer sgd --lr 0.08 --model DeeperFNN --epochs 8 --scale 5", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout72", "libho72", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
