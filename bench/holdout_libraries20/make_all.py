"""Make the twentieth held-out library corpus (examples/libraries_holdout20): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout20/bin/python bench/holdout_libraries20/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- diffusers (train_unconditional's loop under accelerate: a tqdm bar an epoch on stderr,
# "Epoch 0:  50%|█████     | 4/8 [00:00<00:00,  8.70it/s, loss=1, lr=0.0008, step=4]", redrawn with \r)
run("diffusers_ddpm_cosine_10ep", "diffusers_ddpm.py", "--epochs 10 --lr 2e-3")
run("diffusers_ddpm_ema_samples_6ep", "diffusers_ddpm.py", "--epochs 6 --ema --save-images-epochs 2")
run("diffusers_ddpm_batch8_linear_cos_beta_4ep", "diffusers_ddpm.py",
    "--epochs 4 --batch 8 --lr-scheduler linear --beta-schedule squaredcos_cap_v2")
run("diffusers_ddpm_constant_warmup_8ep", "diffusers_ddpm.py",
    "--epochs 8 --lr-scheduler constant_with_warmup --warmup 10 --lr 1e-3")
run("diffusers_ddpm_n256_batch32_ema_12ep", "diffusers_ddpm.py",
    "--epochs 12 --n 256 --batch 32 --lr 3e-3 --ema --save-images-epochs 6 --inference-steps 20")
run("diffusers_ddpm_lr_high_nan", "diffusers_ddpm.py", "--epochs 4 --lr 1.0 --lr-scheduler constant", label="nan",
    stop=True)
run("diffusers_ddpm_sample_pred_lr_high_nan", "diffusers_ddpm.py",
    "--epochs 4 --prediction-type sample --lr 0.3 --lr-scheduler constant", label="nan", stop=True)
run("diffusers_ddpm_lr_growth_nan", "diffusers_ddpm.py",
    "--epochs 8 --lr-scheduler piecewise_constant --step-rules 1:16,100:32,1000", label="nan", stop=True)
run("diffusers_ddpm_lr_growth_diverged", "diffusers_ddpm.py",
    "--epochs 8 --lr-scheduler piecewise_constant --step-rules 1:24,30:48,300", label="diverged", stop=True)
run("diffusers_ddpm_ema_lr_growth_diverged", "diffusers_ddpm.py",
    "--epochs 10 --lr 5e-4 --ema --lr-scheduler piecewise_constant --step-rules 1:40,100", label="diverged",
    stop=True)

# --- pacmap (PaCMAP(verbose=True) on stdout: "Iteration:   10, Loss: 4738.842773", every 10 iterations)
run("pacmap_default_450it", "pacmap_fit.py", "")
run("pacmap_nopca_random_init", "pacmap_fit.py", "--no-pca --init random")
run("pacmap_n1500_nn15", "pacmap_fit.py", "--n 1500 --neighbors 15")
run("pacmap_lr03_600it", "pacmap_fit.py", "--lr 0.3 --iters 100 100 400")
run("pacmap_mn1_fp3_8clusters", "pacmap_fit.py", "--mn-ratio 1 --fp-ratio 3 --clusters 8 --dim 40")
run("pacmap_lr_high_nan", "pacmap_fit.py", "--lr 1e19", label="nan", stop=True)

# --- trimap (TRIMAP(verbose=True) on stdout: "Iteration:  100 /  800, Loss: 0.067, Violated triplets: 3.3203")
run("trimap_dbd_800it", "trimap_fit.py", "")
run("trimap_momentum_600it", "trimap_fit.py", "--opt momentum --iters 600")
run("trimap_sd_lr1_700it", "trimap_fit.py", "--opt sd --lr 1 --iters 700")
run("trimap_inliers20_1200it", "trimap_fit.py", "--inliers 20 --outliers 6 --iters 1200")
run("trimap_nopca_dim50_n1000", "trimap_fit.py", "--no-pca --dim 50 --n 1000 --iters 900")
run("trimap_lr_high_nan", "trimap_fit.py", "--lr 1e30 --iters 600", label="nan", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout20", "libho20", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
