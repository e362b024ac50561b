"""Make the 26th held-out library corpus (examples/libraries_holdout26): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout26/bin/python bench/holdout_libraries26/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- opacus (DP-SGD with its PrivacyEngine; its examples' lines: "Train Epoch: 3 \tLoss: 0.867483 (ε = 3.25,
# δ = 1e-05)" after a tqdm bar per epoch, or "\tTrain Epoch: 1 \tLoss: 1.476472 Acc@1: 38.992567 (ε = ...)"
# every N batches)
run("opacus_cls_sgd_val_8ep", "opacus_train.py", "--epochs 8 --val")
run("opacus_cls_sgd_freq4_5ep", "opacus_train.py", "--epochs 5 --print-freq 4 --lr 0.3")
run("opacus_reg_adam_10ep", "opacus_train.py", "--task reg --optimizer adam --lr 0.005 --epochs 10 --sigma 0.8")
run("opacus_cls_momentum_freq8_val_6ep", "opacus_train.py",
    "--optimizer momentum --lr 0.05 --epochs 6 --print-freq 8 --batch 32 --val")
run("opacus_cls_rmsprop_sigma2_12ep", "opacus_train.py", "--optimizer rmsprop --lr 0.002 --epochs 12 --sigma 2")
run("opacus_reg_sgd_lr_growth_nan", "opacus_train.py", "--task reg --lr 0.05 --gamma 10 --epochs 14", label="nan",
    stop=True)
run("opacus_reg_sgd_lr_growth_freq4_diverged", "opacus_train.py",
    "--task reg --lr 0.05 --gamma 2.5 --epochs 8 --print-freq 4", label="diverged", stop=True)
run("opacus_cls_adam_lr_high_diverged", "opacus_train.py", "--optimizer adam --lr 2 --epochs 10 --clip 5",
    label="diverged", stop=True)

# --- simpletransformers (a tiny BERT from a config; its tqdm bars on stderr: "Epochs 1/3. Running Loss:    0.6929:
# 50%|#####     | 2/4 [...]", its INFO logging lines, training_progress_scores.csv when evaluating during training)
run("st_bert_adamw_5ep", "st_classify.py", "--epochs 5 --n 512 --lr 3e-3")
run("st_bert_adamw_eval16_5ep", "st_classify.py", "--epochs 5 --n 512 --lr 4e-3 --eval-steps 16")
run("st_bert_4cls_adamw_constant_4ep", "st_classify.py",
    "--labels 4 --epochs 4 --n 512 --lr 2e-3 --scheduler constant_schedule")
run("st_bert_adafactor_eval20_5ep", "st_classify.py",
    "--optimizer Adafactor --lr 5e-3 --epochs 5 --n 512 --eval-steps 20")
run("st_bert_adamw_batch32_8ep", "st_classify.py", "--epochs 8 --lr 5e-3 --batch 32 --n 512")
run("st_bert_4cls_adamw_lr_high_diverged", "st_classify.py",
    "--labels 4 --epochs 3 --n 512 --lr 1.0 --scheduler constant_schedule", label="diverged", stop=True)
run("st_bert_adamw_warmup_growth_eval8_diverged", "st_classify.py",
    "--epochs 4 --n 512 --lr 1.0 --warmup-ratio 1.0 --eval-steps 8", label="diverged", stop=True)
# --- inspyred (an evolutionary computation minimising a benchmark; its stats_observer prints a header and a row each
# generation: "         3         40 119.579335 65.6112381 ..." cut to 10 characters; its file_observer's statistics
# file is kept)
run("inspyred_ga_rastrigin_40gen", "inspyred_evolve.py", "--generations 40")
run("inspyred_es_rastrigin_30gen", "inspyred_evolve.py", "--algorithm es --generations 30")
run("inspyred_dea_ackley_30gen", "inspyred_evolve.py", "--algorithm dea --problem ackley --generations 30")
run("inspyred_ga_rosenbrock_pop60_50gen", "inspyred_evolve.py",
    "--problem rosenbrock --pop 60 --generations 50 --stdev 0.3 --elites 2")
run("inspyred_ga_rastrigin_mutation_huge_diverged", "inspyred_evolve.py",
    "--elites 0 --stdev 100 --mutation-rate 1.0 --generations 30", label="diverged", stop=True)
run("inspyred_ga_rosenbrock_mutation_huge_diverged", "inspyred_evolve.py",
    "--problem rosenbrock --elites 0 --stdev 50 --mutation-rate 1.0 --generations 30", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout26", "libho26", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
