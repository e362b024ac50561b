"""Make the fifth held-out library corpus (examples/libraries_holdout5): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout5/bin/python bench/holdout_libraries5/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- NumPyro (SVI.run tqdm bar: "\r...| 200/2000 [..., init loss: 812.3456, avg. loss [101-200]: 140.2154]")
run("numpyro_linreg_adam_2000", "numpyro_svi.py", "--steps 2000")
run("numpyro_logreg_adam_lr5e-2_2000", "numpyro_svi.py", "--model logreg --steps 2000 --lr 0.05")
run("numpyro_hier_diag_clipped_1500", "numpyro_svi.py",
    "--model hier --guide diag --optimizer clipped_adam --steps 1500")
run("numpyro_linreg_sgd_lr_high_nan", "numpyro_svi.py", "--optimizer sgd --lr 1e-3 --steps 1000", label="nan",
    stop=True)
# made first as `diverged`, it reached NaN: made again under the label nan
run("numpyro_hier_adam_lr_growth_nan", "numpyro_svi.py", "--model hier --lr 0.005 --growth 2 --steps 2000",
    label="nan", stop=True)
run("numpyro_logreg_sgd_lr_growth_diverged", "numpyro_svi.py",
    "--model logreg --optimizer sgd --lr 1e-6 --growth 3 --steps 1000", label="diverged", stop=True)
# made first as `diverged`, it reached NaN: made again under the label nan
run("numpyro_linreg_adam_lr_growth_nan", "numpyro_svi.py", "--lr 0.01 --growth 1.6 --steps 2000",
    label="nan", stop=True)


# --- CLU (absl INFO lines of its LoggingWriter: "I1205 ... logging_writer.py:48] [100] accuracy=0.8125, loss=0.4467")
run("clu_cls_adam_log20", "clu_loop.py", "--steps 400 --log_every 20")
run("clu_reg_momentum_log50_eval100_logging", "clu_loop.py",
    "--task reg --optimizer momentum --lr 0.01 --steps 1000 --log_every 50 --eval_every 100 --writer logging")
run("clu_cls_sgd_collection_log10_async", "clu_loop.py",
    "--optimizer sgd --lr 0.1 --steps 300 --log_every 10 --collection train --writer default_async")
run("clu_reg_sgd_lr6e-1_log10", "clu_loop.py", "--task reg --optimizer sgd --lr 0.6 --steps 300 --log_every 10")
run("clu_reg_adam_log25_600", "clu_loop.py", "--task reg --steps 600 --log_every 25 --progress_every 200")
run("clu_cls_adam_lr_growth_diverged", "clu_loop.py", "--lr 0.003 --growth 2 --steps 600 --log_every 20",
    label="diverged", stop=True)
run("clu_reg_sgd_lr_high_nan", "clu_loop.py", "--task reg --optimizer sgd --lr 2 --steps 300 --log_every 10",
    label="nan", stop=True)
# made first as `diverged`, it reached NaN: made again under the label nan
run("clu_cls_momentum_lr_growth_eval_nan", "clu_loop.py",
    "--optimizer momentum --lr 0.01 --growth 2.5 --eval_every 100 --steps 500 --log_every 25", label="nan",
    stop=True)

# --- EvoTorch (StdOutLogger blocks: "         iter : 12" / "    mean_eval : 0.7413..." / ... / blank line)
run("evotorch_pgpe_reg_40gen", "evotorch_ne.py", "--generations 40")
run("evotorch_snes_cls_int5_csv_100gen", "evotorch_ne.py",
    "--problem cls --algo SNES --generations 100 --interval 5 --center-lr 0.5 --csv")
run("evotorch_cem_func_60gen", "evotorch_ne.py", "--problem func --algo CEM --generations 60 --stdev 0.5")
run("evotorch_xnes_func_int2_csv_50gen", "evotorch_ne.py",
    "--problem func --algo XNES --generations 50 --interval 2 --center-lr 0.5 --stdev 0.3 --csv")
run("evotorch_pgpe_reg_adam_lr_high_diverged", "evotorch_ne.py", "--center-lr 1.0 --generations 40",
    label="diverged", stop=True)
run("evotorch_pgpe_cls_adam_lr_high_diverged", "evotorch_ne.py", "--problem cls --center-lr 2.0 --generations 40",
    label="diverged", stop=True)
run("evotorch_pgpe_reg_lr3e-1_int4_60gen", "evotorch_ne.py", "--center-lr 0.3 --generations 60 --interval 4")

# --- torch-rechub (CTRTrainer: "epoch: 0", a tqdm bar "train: 100%|...| 10/10 [..., loss=0.693]", validation auc)
run("rechub_deepfm_val_10ep", "rechub_ctr.py", "--model DeepFM --epochs 10")
run("rechub_widedeep_noval_12ep", "rechub_ctr.py", "--model WideDeep --epochs 12 --no-val --lr 3e-3")
run("rechub_dcn_val_steplr_8ep", "rechub_ctr.py", "--model DCN --epochs 8 --gamma 0.8 --lr 3e-3")
run("rechub_deepfm_sgd_b128_15ep", "rechub_ctr.py", "--model DeepFM --optimizer sgd --lr 0.5 --batch 128 --epochs 15")
run("rechub_dcn_adam_lr_ramp_diverged", "rechub_ctr.py", "--model DCN --lr 3e-3 --gamma 4 --epochs 10 --no-val",
    label="diverged", stop=True)
run("rechub_deepfm_adam_lr3e-1_10ep", "rechub_ctr.py", "--model DeepFM --lr 0.3 --epochs 10")
run("rechub_deepfm_sgd_b128_lr_ramp_diverged", "rechub_ctr.py",
    "--model DeepFM --optimizer sgd --lr 0.5 --batch 128 --gamma 2.5 --epochs 12", label="diverged", stop=True)
run("rechub_widedeep_sgd_lr_ramp_diverged", "rechub_ctr.py",
    "--model WideDeep --optimizer sgd --lr 0.05 --gamma 3 --epochs 10", label="diverged", stop=True)

# --- pytorch-metric-learning (trainer's tqdm bar per epoch: "total_loss=0.23456:  40%|...| 24/60 [...]",
# "INFO:PML:TRAINING EPOCH 1"; record-keeper CSVs)
run("pml_triplet_tester_3ep", "pml_trainer.py", "--epochs 3 --iters 60 --tester")
run("pml_contrastive_classifier_3ep", "pml_trainer.py",
    "--epochs 3 --iters 60 --loss contrastive --trainer TrainWithClassifier")
run("pml_arcface_logfreq20_tester_4ep", "pml_trainer.py", "--epochs 4 --iters 60 --loss arcface --log-freq 20 --tester")
run("pml_ntxent_b32_logfreq5_3ep", "pml_trainer.py", "--epochs 3 --iters 40 --loss ntxent --batch 32 --log-freq 5")
run("pml_classifier_adam_lr_ramp_tester_diverged", "pml_trainer.py",
    "--epochs 4 --iters 60 --trainer TrainWithClassifier --lr 0.003 --gamma 1.03 --tester", label="diverged",
    stop=True)
run("pml_classifier_sgd_lr_ramp3_nan", "pml_trainer.py",
    "--epochs 4 --iters 60 --trainer TrainWithClassifier --optimizer sgd --lr 0.05 --gamma 1.03", label="nan",
    stop=True)
run("pml_classifier_sgd_lr_ramp_diverged", "pml_trainer.py",
    "--epochs 4 --iters 60 --trainer TrainWithClassifier --optimizer sgd --lr 0.05 --gamma 1.02", label="diverged",
    stop=True)


# --- PyMC (ADVI fit + refine calls: "Finished [100%]: Average Loss = 1,176.5" after the rich bar's final state)
run("pymc_linreg_advi_8x1000", "pymc_advi.py", "--chunks 8")
run("pymc_hier_fullrank_6x2000", "pymc_advi.py", "--model hier --method fullrank --chunk 2000 --chunks 6")
run("pymc_logreg_adam_10x500", "pymc_advi.py", "--model logreg --optimizer adam --lr 0.02 --chunk 500 --chunks 10")
run("pymc_linreg_sgd_8x1000", "pymc_advi.py", "--optimizer sgd --lr 1e-3 --chunks 8")
run("pymc_linreg_adam_lr_growth_diverged", "pymc_advi.py", "--optimizer adam --lr 0.01 --growth 4",
    label="diverged", stop=True)
run("pymc_logreg_adam_lr_growth_diverged", "pymc_advi.py",
    "--model logreg --optimizer adam --lr 0.01 --growth 4 --chunk 500 --chunks 10", label="diverged", stop=True)

# --- FuxiCTR (its logger: "2026-12-05 23:26:23,093 P11859 INFO Train loss: 0.680591", then
# "Evaluation @epoch 1 - batch 32: ", "[Metrics] AUC: 0.702789"; its own log file under checkpoints/)
run("fuxictr_adam_v1_8ep", "fuxictr_fit.py", "--epochs 8")
run("fuxictr_adam_v0_eval10_6ep", "fuxictr_fit.py", "--verbose 0 --eval-steps 10 --epochs 6 --patience 3")
run("fuxictr_adagrad_lr1e-2_b256_10ep", "fuxictr_fit.py",
    "--optimizer adagrad --lr 0.01 --batch 256 --epochs 10 --patience 3")
run("fuxictr_adam_lr5e-2_eval4_nopatience_6ep", "fuxictr_fit.py",
    "--lr 0.05 --eval-steps 4 --patience 20 --no-reduce-lr --epochs 6")
run("fuxictr_adam_lr_high_eval8_diverged", "fuxictr_fit.py",
    "--lr 0.5 --patience 20 --no-reduce-lr --epochs 10 --eval-steps 8", label="diverged", stop=True)
run("fuxictr_adam_lr_high_v0_eval8_diverged", "fuxictr_fit.py",
    "--lr 0.2 --eval-steps 8 --patience 20 --no-reduce-lr --epochs 8 --verbose 0", label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout5", "libho5", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
