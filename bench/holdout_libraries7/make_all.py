"""Make the seventh held-out library corpus (examples/libraries_holdout7): real runs of training libraries nobody on
the project had used (pythae, openTSNE, gplearn, TensorLy).

    ~/venvs/holdout7/bin/python bench/holdout_libraries7/make_all.py --out examples/libraries_holdout7 \
        [--only NAME ...]

Each run is ``nice -n 10 python GEN.py ARGS > train.log 2>&1`` started as a subprocess in a fresh temporary
working directory: stdout and stderr one file, no TTY, Python's default buffering, 1 CPU thread, seeded. The
generator writes ``truth.json`` (the library's own structured record). This maker then checks the truth against the
run's intent (its label), that the truth has at least 5 points and that every truth value is printed in the log
within the tolerance, and writes ``manifest.jsonl`` (one entry per scored file); ``formats.py`` writes
``FORMATS.md``. It uses no project code but the blind sets' maker (bench/blind_maker.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# name: (generator, args, label, should_stop)
sys.path.insert(0, str(HERE.parent))
import blind_maker  # noqa: E402

RUNS: blind_maker.Runs = {}
run = blind_maker.registry(RUNS)


# --- pythae (TrainingPipeline: its logger on stdout, "Train loss: 2.7132" / "Eval loss: 2.7134" between dashed lines
# every epoch; tqdm bars "Training of epoch 3/10: 100%|...| 10/10" on stderr)
run("pythae_vae_adam_10ep", "pythae_train.py", "--epochs 10")
run("pythae_ae_adam_noeval_8ep", "pythae_train.py", "--model AE --lr 3e-3 --epochs 8 --no-eval")
run("pythae_betavae_rmsprop_b64_12ep", "pythae_train.py",
    "--model BetaVAE --optimizer RMSprop --lr 1e-3 --batch 64 --epochs 12")
run("pythae_iwae_adamw_decay_10ep", "pythae_train.py",
    "--model IWAE --optimizer AdamW --lr 3e-3 --gamma 0.9 --epochs 10")
run("pythae_vae_sgd_latent4_noeval_15ep", "pythae_train.py",
    "--optimizer SGD --lr 0.01 --latent 4 --epochs 15 --no-eval")
run("pythae_vae_sgd_lr_growth_nan", "pythae_train.py", "--optimizer SGD --lr 0.05 --gamma 2.5 --epochs 10",
    label="nan", stop=True)
run("pythae_vae_sgd_b16_lr_growth_nan", "pythae_train.py",
    "--optimizer SGD --lr 0.2 --gamma 1.8 --batch 16 --epochs 8", label="nan", stop=True)
run("pythae_vae_adam_lr_growth_diverged", "pythae_train.py", "--lr 0.01 --gamma 2.5 --epochs 10",
    label="diverged", stop=True)
run("pythae_ae_adam_lr_growth_noeval_diverged", "pythae_train.py",
    "--model AE --lr 0.003 --gamma 3 --epochs 8 --no-eval", label="diverged", stop=True)
run("pythae_betavae_rmsprop_lr_growth_diverged", "pythae_train.py",
    "--model BetaVAE --optimizer RMSprop --lr 0.003 --gamma 2.5 --epochs 10", label="diverged", stop=True)
run("pythae_iwae_adamw_lr_growth_diverged", "pythae_train.py",
    "--model IWAE --optimizer AdamW --lr 0.01 --gamma 2 --epochs 12", label="diverged", stop=True)
run("pythae_iwae_sgd_lr_growth_diverged", "pythae_train.py",
    "--model IWAE --optimizer SGD --lr 0.05 --gamma 2.2 --epochs 10", label="diverged", stop=True)

# --- openTSNE (verbose: "Iteration   50, KL divergence 1.1762, 50 iterations in 0.1121 sec" every 50 iterations,
# counted from 0 again in the main phase after the early exaggeration phase)
run("opentsne_default_250_500", "opentsne_fit.py", "")
run("opentsne_exact_perp10_100_300", "opentsne_fit.py",
    "--neighbors exact --perplexity 10 --early-iter 100 --iters 300")
run("opentsne_random_lr200_fft", "opentsne_fit.py",
    "--initialization random --lr 200 --method fft --early-iter 150 --iters 400")
run("opentsne_dof05_bh_50_250", "opentsne_fit.py", "--dof 0.5 --method bh --early-iter 50 --iters 250 --n 200")
run("opentsne_spectral_n400_400", "opentsne_fit.py", "--initialization spectral --n 400 --early-iter 200 --iters 400")

# --- gplearn (verbose=1: a table on stdout, one row per generation, "   3     9.87          1.04248       23
# 0.266928         0.301853      0.78s")
run("gplearn_reg_mae_10gen", "gplearn_fit.py", "--generations 10")
run("gplearn_reg_mse_oob_12gen", "gplearn_fit.py", "--metric mse --max-samples 0.9 --population 300 --generations 12")
run("gplearn_reg_rmse_trig_8gen", "gplearn_fit.py",
    "--metric rmse --functions add,sub,mul,div,sin,cos --parsimony 0.01 --generations 8")
run("gplearn_cls_logloss_oob_8gen", "gplearn_fit.py", "--task cls --max-samples 0.8 --generations 8")
run("gplearn_cls_pop1000_6gen", "gplearn_fit.py", "--task cls --population 1000 --generations 6 --n 300")

# --- TensorLy (parafac verbose=1 on stdout: "reconstruction error=0.81..." at iteration 0, then "iteration 3,
# reconstruction error: 0.3995..., decrease = 0.0056..., unnormalized = 22.75...")
run("tensorly_cp_random_30it", "tensorly_parafac.py", "--iters 30")
run("tensorly_cp_svd_torch_normalize", "tensorly_parafac.py", "--backend pytorch --init svd --normalize --iters 20")
run("tensorly_cp_rank5_l2_40it", "tensorly_parafac.py", "--rank 5 --l2 0.1 --iters 40 --tol 1e-10")
run("tensorly_cp_orth_20x15x10_25it", "tensorly_parafac.py", "--shape 20,15,10 --orthogonalise --iters 25")
run("tensorly_cp_rank2_lownoise_tol1e-6", "tensorly_parafac.py",
    "--true-rank 2 --rank 2 --noise 0.05 --tol 1e-6 --iters 50")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout7", "libho7", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
