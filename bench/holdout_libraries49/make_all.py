"""Make the 49th held-out library corpus (examples/libraries_holdout49): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout49/bin/python bench/holdout_libraries49/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- aim (a numpy loop tracked with aim.Run().track; the loop's own prints: "epoch 2 step 30 loss 0.6261")
run("aim_reg_sgd_p10_5ep", "aim_loop.py", "--lr 0.05 --epochs 5 --print-every 10")
run("aim_reg_adam_val_p5_4ep", "aim_loop.py", "--optimizer adam --lr 0.01 --epochs 4 --print-every 5 --val")
run("aim_cls_momentum_p20_8ep", "aim_loop.py", "--task cls --optimizer momentum --lr 0.02 --epochs 8 --print-every 20")
run("aim_cls_sgd_val_b64_p4_10ep", "aim_loop.py", "--task cls --lr 0.2 --batch 64 --epochs 10 --print-every 4 --val")
run("aim_reg_momentum_decay_p8_6ep", "aim_loop.py", "--optimizer momentum --lr 0.02 --gamma 0.7 --epochs 6 "
    "--print-every 8")
run("aim_reg_momentum_lr_high_nan", "aim_loop.py", "--optimizer momentum --lr 3 --epochs 8 --print-every 5",
    label="nan", stop=True)
run("aim_cls_sgd_lr_growth_diverged", "aim_loop.py", "--task cls --lr 0.05 --gamma 3 --epochs 8 --print-every 8 --val",
    label="diverged", stop=True)
run("aim_reg_momentum_lr_growth_nan", "aim_loop.py", "--optimizer momentum --lr 0.01 --gamma 4 --epochs 8 "
    "--print-every 8", label="nan", stop=True)

# --- trl (SFTTrainer on a tiny GPT-2 from a config: the Trainer's dicts "{'loss': '2.077', 'grad_norm': '1.39', ...}"
# between tqdm redraws)
run("trl_sft_adamw_linear_log4_2ep", "trl_sft.py", "")
run("trl_sft_eval_log5_3ep", "trl_sft.py", "--eval --logging-steps 5 --epochs 3")
run("trl_sft_sgd_constant_log2_2ep", "trl_sft.py", "--optim sgd --lr 1 --scheduler constant --logging-steps 2")
run("trl_sft_cosine_b8_log10_2ep", "trl_sft.py", "--scheduler cosine --batch 8 --logging-steps 10 --lr 2e-3")
run("trl_sft_warmup_eval_log8_4ep", "trl_sft.py", "--warmup-steps 10 --eval --logging-steps 8 --epochs 4")
run("trl_sft_sgd_lr_high_nan", "trl_sft.py", "--optim sgd --lr 10 --max-grad-norm 0 --scheduler constant "
    "--logging-steps 2 --no-nan-filter", label="nan", stop=True)
run("trl_sft_warmup_lr_growth_diverged", "trl_sft.py", "--lr 2 --scheduler constant_with_warmup --warmup-steps 48 "
    "--max-grad-norm 0 --epochs 3 --logging-steps 4", label="diverged", stop=True)
run("trl_sft_sgd_lr_high_eval_nan", "trl_sft.py", "--optim sgd --lr 30 --max-grad-norm 0 --scheduler constant "
    "--logging-steps 3 --eval --no-nan-filter", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout49", "libho49", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
