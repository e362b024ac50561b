"""Make the 102nd held-out library corpus (examples/libraries_holdout102): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout102/bin/python bench/holdout_libraries102/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- lenskit (FlexMF scorers trained by `model.train(data, TrainingOptions(...))`, LensKit's LoggingConfig on stderr:
# structlog's console lines wrapped at 80 columns, `finished epoch` then `[lenskit.training] epoch=3
# loss=0.4057... model=... time=0.0s` on the next line; or one JSON object a line with `--stream json`)
run("lenskit_explicit_l2_20ep", "lenskit_fit.py", "--lr 0.05 --epochs 20")
run("lenskit_explicit_adamw_json_15ep", "lenskit_fit.py", "--reg AdamW --lr 0.05 --epochs 15 --stream json")
run("lenskit_explicit_noreg_verbose_b1024_8ep", "lenskit_fit.py",
    "--reg none --lr 0.03 --epochs 8 --batch 1024 --verbose")
run("lenskit_implicit_logistic_15ep", "lenskit_fit.py", "--feedback implicit --loss logistic --lr 0.05 --epochs 15")
run("lenskit_implicit_pairwise_emb16_json_12ep", "lenskit_fit.py",
    "--feedback implicit --loss pairwise --lr 0.02 --emb 16 --epochs 12 --stream json")
run("lenskit_implicit_warp_compiled_10ep", "lenskit_fit.py",
    "--feedback implicit --loss warp --lr 0.03 --epochs 10 --compile")
run("lenskit_explicit_l2_lr_high_diverged", "lenskit_fit.py", "--lr 1 --epochs 15", label="diverged", stop=True)
run("lenskit_explicit_adamw_lr_high_json_diverged", "lenskit_fit.py",
    "--reg AdamW --lr 20 --epochs 15 --stream json", label="diverged", stop=True)
run("lenskit_explicit_adamw_lr_far_high_nan", "lenskit_fit.py", "--reg AdamW --lr 40 --epochs 12", label="nan",
    stop=True)
run("lenskit_explicit_noreg_lr_high_verbose_diverged", "lenskit_fit.py",
    "--reg none --lr 10 --epochs 15 --verbose", label="diverged", stop=True)
run("lenskit_explicit_l2_lr_far_high_json_diverged", "lenskit_fit.py", "--lr 100 --epochs 12 --stream json",
    label="diverged", stop=True)

# --- jumanji (its A2C trained by `jumanji.training.train` with Hydra overrides, its terminal logger on stderr: per
# epoch `[2026-12-07 23:27:11,164][root][INFO] - Train >> Env Steps: 3.20e+03 | Advantage: ... | Total Loss: 55.652 |
# ...` after the two `Eval ... >>` lines; Hydra's own outputs/DATE/TIME/train.log kept, scored too)
run("jumanji_tsp_a2c_lr1e-3_12ep", "jumanji_train.py", "--env tsp --lr 1e-3 --epochs 12")
run("jumanji_tsp_a2c_normadv_b32_10ep", "jumanji_train.py",
    "--env tsp --lr 2e-3 --epochs 10 --batch 32 --normalize-advantage --seed 1")
run("jumanji_tsp_a2c_default_lr_2blocks_10ep", "jumanji_train.py",
    "--env tsp --blocks 2 --mlp 128 --epochs 10 --seed 2")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout102", "libho102", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
