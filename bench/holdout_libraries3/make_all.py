"""Make the third held-out library corpus (examples/libraries_holdout3): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout3/bin/python bench/holdout_libraries3/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- Vowpal Wabbit (its progress table on stderr: 'average loss  since last  example counter ...')
run("vw_logistic_default_doubling", "vw_online.py", "--task logistic --n 6000")
run("vw_squared_every250", "vw_online.py", "--task squared --n 4000 --progress 250")
run("vw_oaa3_every500", "vw_online.py", "--task oaa --n 5000 --progress 500")
run("vw_squared_sgd_lr50_diverged", "vw_online.py", "--task squared --n 4000 --scale 10 --vw=--sgd --vw=-l --vw=50",
    label="diverged", stop=True)
run("vw_squared_sgd_const_lr2_diverged", "vw_online.py",
    "--task squared --n 4000 --scale 3 --vw=--sgd --vw=-l --vw=2 --vw=--power_t --vw=0",
    label="diverged", stop=True)

# --- Poutyne (Model.fit's progression: '\rEpoch: 1/15 Step: 3/32 ... loss: 0.949919 acc: 68.75', an epoch summary)
run("poutyne_cls_val_csvlogger_15ep", "poutyne_fit.py", "--task cls --epochs 15 --csv")
run("poutyne_reg_noval_20ep", "poutyne_fit.py", "--task reg --epochs 20 --no-val --lr 0.005")
run("poutyne_cls_show_every10_csvlogger_12ep", "poutyne_fit.py",
    "--task cls --epochs 12 --progress steps --csv --batch 16")
run("poutyne_reg_sgd_lr_ramp_nan", "poutyne_fit.py", "--task reg --opt sgd --lr 0.005 --ramp 1.8 --epochs 14 --csv",
    label="nan", stop=True)
run("poutyne_cls_sgd_lr_ramp_diverged", "poutyne_fit.py", "--task cls --opt sgd --lr 0.05 --ramp 2 --epochs 9",
    label="diverged", stop=True)

# --- NGBoost ('[iter 10] loss=6.2884 val_loss=6.4348 scale=1.0000 norm=107.1929', every verbose_eval iterations)
run("ngboost_reg_normal_val_every10", "ngboost_fit.py", "--task reg --n-estimators 200 --lr 0.02 --every 10")
run("ngboost_cls_bernoulli_val_every20", "ngboost_fit.py", "--task cls --n-estimators 200 --every 20")
run("ngboost_reg_crps_noval_every5", "ngboost_fit.py", "--task reg --score crps --n-estimators 80 --lr 0.05 --every 5 "
    "--no-val")
run("ngboost_exp_earlystop_every25", "ngboost_fit.py", "--task exp --n-estimators 500 --lr 0.05 --every 25 "
    "--early-stopping 20")
run("ngboost_reg_lr1p5_diverged", "ngboost_fit.py", "--task reg --lr 1.5 --n-estimators 60 --every 5",
    label="diverged", stop=True)
run("ngboost_cls_lr4_inf", "ngboost_fit.py", "--task cls --lr 4 --n-estimators 60 --every 5", label="nan", stop=True)

# --- DeepXDE, PyTorch backend (its table: 'Step  Train loss  Test loss  Test metric', '100  [1.52e-01]  ...')
run("dde_function_adam_every100_2000it", "deepxde_train.py", "--iters 2000 --every 100")
run("dde_poisson_hardbc_adam_every200", "deepxde_train.py", "--problem poisson --iters 2000 --every 200 --lr 0.005")
run("dde_function_nometric_every50_1000it", "deepxde_train.py", "--no-metric --iters 1000 --every 50 --width 32")
run("dde_function_sgd_lr1_every5_nan", "deepxde_train.py", "--opt sgd --lr 1.0 --iters 400 --every 5",
    label="nan", stop=True)
run("dde_poisson_sgd_lr0p02_every5_nan", "deepxde_train.py",
    "--opt sgd --lr 0.02 --problem poisson --iters 600 --every 5",
    label="nan", stop=True)
run("dde_function_adam_step_gamma2p5_diverged", "deepxde_train.py",
    "--lr 0.002 --decay-gamma 2.5 --iters 1500 --every 50", label="diverged", stop=True)

# --- DeepCTR-Torch (Keras-like: 'Epoch 3/10' then '0s - loss:  0.6625 - binary_crossentropy:  0.6623 - auc: ...')
run("deepctr_deepfm_binary_val_v2_10ep", "deepctr_fit.py", "--model DeepFM --task binary --epochs 10")
run("deepctr_dcn_regression_val_v1_bar_12ep", "deepctr_fit.py", "--model DCN --task regression --epochs 12 --verbose 1")
run("deepctr_xdeepfm_binary_noval_v2_8ep", "deepctr_fit.py", "--model xDeepFM --task binary --epochs 8 --val 0")
run("deepctr_wdl_regression_sgd_v2_8ep", "deepctr_fit.py",
    "--model WDL --task regression --opt sgd --lr 0.003 --epochs 8")
run("deepctr_deepfm_binary_sgd_lr50_diverged", "deepctr_fit.py", "--task binary --opt sgd --lr 50 --epochs 8",
    label="diverged", stop=True)

# --- pykan (a tqdm bar whose description is '| train_loss: 3.57e-02 | test_loss: 3.63e-02 | reg: 1.78e+01 |')
run("kan_lbfgs_expsin_log1_30steps", "pykan_fit.py", "--steps 30 --log 1")
run("kan_adam_poly_log5_60steps", "pykan_fit.py", "--opt Adam --lr 0.05 --steps 60 --log 5 --func poly")
run("kan_lbfgs_bessel_width8_lamb_log3", "pykan_fit.py",
    "--func bessel --width 2,8,1 --steps 24 --log 3 --lamb 0.0005")
run("kan_adam_lr3_log2_diverged", "pykan_fit.py", "--opt Adam --lr 3 --steps 40 --log 2", label="diverged", stop=True)
run("kan_adam_lr50_bessel_diverged", "pykan_fit.py", "--opt Adam --lr 50 --steps 30 --log 1 --func bessel",
    label="diverged", stop=True)

# --- PaddlePaddle hapi (ProgBarLogger: 'Epoch 1/5', 'step 10/20 - loss: 0.6182 - acc: 0.5594 - 32ms/step')
run("paddle_cls_adam_v2_log10_eval_5ep", "paddle_hapi.py", "--task cls --epochs 5 --log-freq 10")
run("paddle_reg_adam_v1_bar_log5_noeval_5ep", "paddle_hapi.py",
    "--task reg --epochs 5 --verbose 1 --log-freq 5 --no-eval --lr 0.005")
run("paddle_cls_sgd_v2_log1_3ep", "paddle_hapi.py", "--task cls --opt sgd --lr 0.1 --log-freq 1 --epochs 3")
run("paddle_cls_sgd_lr40_v1_log5_nan", "paddle_hapi.py",
    "--task cls --opt sgd --lr 40 --epochs 4 --verbose 1 --log-freq 5",
    label="nan", stop=True)
run("paddle_reg_sgd_lr_ramp_v2_diverged", "paddle_hapi.py", "--task reg --opt sgd --lr 0.002 --gamma 1.08 --epochs 4",
    label="diverged", stop=True)

# --- flair ModelTrainer ('epoch 1 - iter 3/13 - loss 0.74620189 - ...', 'EPOCH 1 done: loss 0.7413 - lr: 0.100000')
run("flair_textclf_sgd_lr0p5_10ep", "flair_train.py", "--lr 0.5 --epochs 10")
run("flair_textclf_adam_lr0p01_8ep", "flair_train.py", "--opt adam --lr 0.01 --epochs 8")
run("flair_textclf_train_with_dev_8ep", "flair_train.py", "--lr 0.3 --epochs 8 --train-with-dev")
run("flair_textclf_sgd_lr10_diverged", "flair_train.py", "--lr 10 --epochs 8 --no-anneal", label="diverged", stop=True)

# --- Avalanche (InteractiveLogger / TextLogger: 'Epoch 3 ended.', '\tLoss_Epoch/train_phase/train_stream = 0.4312')
run("av_naive_sgd_1exp_interactive_10ep", "avalanche_cl.py", "--epochs 10")
run("av_naive_2exp_csv_interactive_6ep", "avalanche_cl.py", "--experiences 2 --epochs 6 --logger csv+interactive")
run("av_naive_adam_text_minibatch_8ep", "avalanche_cl.py", "--opt adam --lr 0.005 --logger text --minibatch --epochs 8")
run("av_naive_sgd_lr50_nan", "avalanche_cl.py", "--lr 50 --epochs 8", label="nan", stop=True)
run("av_naive_sgd_lr_ramp_nan", "avalanche_cl.py", "--lr 0.05 --gamma 2.5 --epochs 10", label="nan", stop=True)
run("av_naive_adam_lr_ramp_text_diverged", "avalanche_cl.py",
    "--lr 0.02 --gamma 3 --epochs 10 --opt adam --logger text",
    label="diverged", stop=True)

# --- torchtuples (one line per epoch, a counter first: '3:\t[0s / 0s],\t\ttrain_loss: 0.1546,\tval_loss: 0.0674')
run("tt_mlp_reg_val_20ep", "torchtuples_fit.py", "--epochs 20")
run("tt_mlp_cls_noval_15ep", "torchtuples_fit.py", "--task cls --epochs 15 --no-val")
run("tt_mlp_reg_adamwr_earlystop_30ep", "torchtuples_fit.py", "--cycle --epochs 30 --lr 0.01 --early-stopping")
# torchtuples prints no NaN score (the epoch's line ends after its timer), so this run's NaN epochs are not in its
# truth: what the log shows is a blow-up to 2e23, then blank epochs
run("tt_mlp_cls_sgd_lr_ramp_diverged_then_blank", "torchtuples_fit.py",
    "--task cls --opt sgd --lr 0.05 --ramp 2 --epochs 12", label="diverged", stop=True)
run("tt_mlp_cls_adam_lr_ramp_noval_diverged", "torchtuples_fit.py",
    "--task cls --opt adam --lr 0.01 --ramp 2.2 --epochs 12 --no-val", label="diverged", stop=True)
run("tt_mlp_reg_adam_lr_ramp_diverged", "torchtuples_fit.py", "--task reg --opt adam --lr 0.005 --ramp 1.8 --epochs 14",
    label="diverged", stop=True)


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout3", "libho3", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
