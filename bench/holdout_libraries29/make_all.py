"""Make the twenty-ninth held-out library corpus (examples/libraries_holdout29): real runs of training libraries
nobody on the project had used, each made and checked as bench/blind_maker.py says (a truth whose ``loss_name`` is in
its ``higher_is_better``, nltk's log likelihood, has its label checked on the values negated).

    ~/venvs/holdout29/bin/python bench/holdout_libraries29/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- nltk (MaxentClassifier.train(trace=3): "      Iteration    Log Likelihood    Accuracy" then
# "             3          -0.86081        0.933" rows and a "Final" row)
run("nltk_maxent_gis_30it", "nltk_maxent.py", "--iters 30")
run("nltk_maxent_iis_15it", "nltk_maxent.py", "--algorithm iis --iters 15")
run("nltk_maxent_gis_noise2_400docs_50it", "nltk_maxent.py", "--iters 50 --docs 400 --noise 0.2")
run("nltk_maxent_iis_5topics_20it", "nltk_maxent.py", "--algorithm iis --topics 5 --iters 20")
run("nltk_maxent_gis_4words_noise3_40it", "nltk_maxent.py", "--iters 40 --words 4 --noise 0.3")
run("nltk_maxent_iis_150docs_25it", "nltk_maxent.py", "--algorithm iis --docs 150 --iters 25 --noise 0.05")

# --- ZOOpt (Opt.min with intermediate_result: "[zoopt] budget 100, fx result: 0.83..." / "[zoopt] x: [...]")
run("zoopt_sracos_reg_300_f20", "zoopt_fit.py", "--budget 300 --freq 20")
run("zoopt_racos_cls_300_f20", "zoopt_fit.py", "--task cls --racos --budget 300 --freq 20")
run("zoopt_sracos_reg_noise_200_f20", "zoopt_fit.py", "--noise --budget 200 --freq 20")
run("zoopt_sracos_reg_dim10_500_f25", "zoopt_fit.py", "--dim 10 --budget 500 --freq 25")
run("zoopt_sracos_cls_150_f10", "zoopt_fit.py", "--task cls --budget 150 --freq 10")
run("zoopt_racos_reg_dim8_400_f40", "zoopt_fit.py", "--racos --dim 8 --budget 400 --freq 40")

# --- DeepSpeed on CPU (pipeline engine: "steps: 10 loss: 1.0762 iter time (s): 0.002 samples/sec: 20253.777",
# and its csv_monitor files, Train_Samples_train_loss.csv scored too)
run("deepspeed_cls_adam_val_5ep", "ds_train.py", "--val --epochs 5 --print-every 5")
run("deepspeed_reg_momentum_6ep_p8", "ds_train.py",
    "--task reg --optimizer SGD --lr 0.01 --momentum 0.9 --epochs 6 --print-every 8")
run("deepspeed_cls_adamw_warmupdecay_5ep", "ds_train.py",
    "--optimizer AdamW --lr 3e-3 --scheduler WarmupDecayLR --warmup 10 --epochs 5 --print-every 4")
run("deepspeed_reg_adam_onecycle_accum2_val", "ds_train.py",
    "--task reg --lr 1e-3 --scheduler OneCycle --max-lr 1e-2 --warmup 15 --accum 2 --batch 16 --epochs 6 "
    "--print-every 3 --val")
run("deepspeed_reg_sgd_noclip_lr_high_nan", "ds_train.py",
    "--task reg --act none --optimizer SGD --lr 0.16 --clip 0 --epochs 3 --print-every 2", label="nan", stop=True)
run("deepspeed_reg_momentum_warmup_growth_nan", "ds_train.py",
    "--task reg --optimizer SGD --lr 0.05 --momentum 0.9 --clip 0 --scheduler WarmupLR --max-lr 1 --warmup 40 "
    "--epochs 3 --print-every 2", label="nan", stop=True)
run("deepspeed_cls_sgd_momentum_lr_high_diverged", "ds_train.py",
    "--optimizer SGD --lr 5 --momentum 0.9 --epochs 4 --print-every 4", label="diverged", stop=True)
run("deepspeed_cls_adam_warmup_growth_diverged", "ds_train.py",
    "--scheduler WarmupLR --max-lr 1.0 --warmup 40 --epochs 5 --print-every 5", label="diverged", stop=True)
run("deepspeed_reg_sgd_warmup_growth_diverged", "ds_train.py",
    "--task reg --act none --optimizer SGD --lr 0.01 --scheduler WarmupLR --max-lr 2 --warmup 60 --epochs 4 "
    "--print-every 4", label="diverged", stop=True)

_check = blind_maker.check


def check(name: str, truth: dict, label: str, log: Path) -> list[str]:
    """blind_maker's check, with a higher-is-better series' label checked on its values negated."""
    if truth["loss_name"] not in (truth.get("higher_is_better") or []):
        return _check(name, truth, label, log)
    flipped = dict(truth, train_loss=[[s, -float(v)] for s, v in truth["train_loss"]])
    return _check(name, flipped, label, Path("/nonexistent")) + (blind_maker.unprinted(log, truth)
                                                                 if log.is_file() else [])


blind_maker.check = check


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout29", "libho29", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
