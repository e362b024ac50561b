"""Make the 83rd held-out library corpus (examples/libraries_holdout83): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout83/bin/python bench/holdout_libraries83/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- gliner (`model.train_model(train, eval, output_dir=..., ...)`: its Hugging Face Trainer subclass; tqdm on
# stderr, the logs as dicts on stdout `{'loss': '220.2', 'grad_norm': '791.9', 'learning_rate': '0.0008611',
# 'epoch': '1'}`, 4 significant digits; its trainer_state.json kept)
run("gliner_span_adamw_eval_40steps", "gliner_train.py", "--eval-steps 10")
run("gliner_span_adamw_cosine_noval_60steps", "gliner_train.py", "--scheduler cosine --steps 60 --lr 0.002")
run("gliner_token_adamw_eval_b16_50steps", "gliner_train.py",
    "--span-mode token_level --batch 16 --steps 50 --eval-steps 10 --lr 0.003")
run("gliner_span_constlr_notqdm_40steps", "gliner_train.py",
    "--lr 0.01 --scheduler constant --warmup 0 --disable-tqdm")
run("gliner_span_mean_6epochs_log4", "gliner_train.py", "--steps 0 --epochs 6 --reduction mean --logging-steps 4")
run("gliner_span_focal_b4_log3_30steps", "gliner_train.py",
    "--focal-alpha 0.75 --focal-gamma 2 --batch 4 --steps 30 --logging-steps 3")
run("gliner_token_adamw_warmup_lr_high_noclip_diverged", "gliner_train.py",
    "--span-mode token_level --lr 0.6 --warmup 1.0 --steps 80 --max-grad-norm 0", label="diverged", stop=True)
run("gliner_token_sgd_warmup_lr_high_noclip_diverged", "gliner_train.py",
    "--span-mode token_level --optim sgd --lr 0.1 --warmup 1.0 --steps 60 --max-grad-norm 0", label="diverged",
    stop=True)

# --- torchfitter (`Trainer.fit(train_loader, val_loader, epochs)` with its callbacks: `LoggerCallback`'s
# `INFO:...:[RANK 0] Epoch 3/20 | Train loss: 4.51e-01 | Validation loss 5.42e-01 | Time/epoch: 1.08e-02 s` on
# stderr; `RichProgressBar`'s `loss -> Train: 5.10e-01 | Validation: 5.68e-01` on the logger and its bar on stdout)
run("torchfitter_reg_adam_log1_20ep", "torchfitter_fit.py", "--epochs 20")
run("torchfitter_reg_sgd_log5_bar3_lr_metric_30ep", "torchfitter_fit.py",
    "--optimizer sgd --lr 0.05 --epochs 30 --logger-step 5 --bar-step 3 --log-lr --metric")
run("torchfitter_cls_adam_bar1_15ep", "torchfitter_fit.py",
    "--task cls --logger-step 0 --bar-step 1 --epochs 15 --lr 0.005")
run("torchfitter_cls_rmsprop_earlystop_prec4_40ep", "torchfitter_fit.py",
    "--task cls --optimizer rmsprop --lr 0.003 --epochs 40 --early-stop 5 --precision 4 --logger-step 2")
run("torchfitter_reg_adamw_plateau_clip_b64_25ep", "torchfitter_fit.py",
    "--optimizer adamw --plateau --clip --batch 64 --epochs 25 --lr 0.01")
run("torchfitter_reg_adam_exp09_log2_bar4_24ep", "torchfitter_fit.py",
    "--gamma 0.9 --epochs 24 --logger-step 2 --bar-step 4 --metric --lr 0.02")
run("torchfitter_reg_sgd_lr_growth_nan", "torchfitter_fit.py", "--optimizer sgd --lr 0.02 --gamma 1.8 --epochs 16",
    label="nan", stop=True)
run("torchfitter_cls_adam_lr_growth_diverged", "torchfitter_fit.py", "--task cls --lr 0.01 --gamma 2 --epochs 15",
    label="diverged", stop=True)
run("torchfitter_cls_rmsprop_lr_growth_bar_diverged", "torchfitter_fit.py",
    "--task cls --optimizer rmsprop --lr 0.05 --gamma 1.5 --epochs 15 --logger-step 0 --bar-step 1 --log-lr",
    label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout83", "libho83", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
