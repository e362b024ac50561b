"""Make the fourth held-out library corpus (examples/libraries_holdout4): real runs of training libraries nobody on
the project had used, each made and checked as bench/blind_maker.py says.

    ~/venvs/holdout4/bin/python bench/holdout_libraries4/make_all.py [--only NAME ...] [--check] [--manifest-only]
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

# --- torchbearer (Trial's Tqdm printer: '0/10(t): 100%|...| 32/32 [..., acc=0.915, loss=0.2225, running_acc=...]')
run("tb_cls_val_v2_csv_10ep", "torchbearer_trial.py", "--task cls --epochs 10 --csv")
run("tb_reg_noval_v1_12ep", "torchbearer_trial.py", "--task reg --epochs 12 --no-val --verbose 1 --lr 0.005")
run("tb_cls_sgd_v1_csv_8ep", "torchbearer_trial.py", "--task cls --opt sgd --lr 0.1 --epochs 8 --verbose 1 --csv")
run("tb_reg_sgd_lr_ramp_nan", "torchbearer_trial.py", "--task reg --opt sgd --lr 0.01 --ramp 3 --epochs 10",
    label="nan", stop=True)
run("tb_cls_adam_lr_ramp_v1_diverged", "torchbearer_trial.py",
    "--task cls --opt adam --lr 0.01 --ramp 2.2 --epochs 10 --verbose 1", label="diverged", stop=True)
run("tb_reg_val_v2_csv_15ep", "torchbearer_trial.py", "--task reg --epochs 15 --csv --lr 0.003")
run("tb_reg_adam_lr_ramp_v2_diverged", "torchbearer_trial.py",
    "--task reg --opt adam --lr 0.005 --ramp 2.5 --epochs 12",
    label="diverged", stop=True)
run("tb_cls_sgd_lr_ramp4_v2_nan", "torchbearer_trial.py", "--task cls --opt sgd --lr 0.1 --ramp 4 --epochs 10",
    label="nan", stop=True)

# --- DeepChem (logging at INFO: 'INFO:deepchem.models.torch_models.torch_model:Ending global_step 100: Average loss
# 14.45')
run("dc_reg_adam_log50_20ep", "deepchem_fit.py", "--task reg --epochs 20 --log-frequency 50")
run("dc_cls_adam_log20_valcb_time_15ep", "deepchem_fit.py",
    "--task cls --epochs 15 --log-frequency 20 --validate 40 --log-format time")
run("dc_reg_sgd_log100_valcb_40ep", "deepchem_fit.py",
    "--task reg --optimizer sgd --lr 0.001 --epochs 40 --log-frequency 100 --validate 200")
run("dc_reg_sgd_lr_high_log20_nan", "deepchem_fit.py",
    "--task reg --optimizer sgd --lr 0.2 --epochs 10 --log-frequency 20", label="nan", stop=True)
run("dc_reg_sgd_lr_growth_log20_nan", "deepchem_fit.py",
    "--task reg --optimizer sgd --lr 0.01 --lr-growth 2 --epochs 10 --log-frequency 20", label="nan", stop=True)
run("dc_cls_adam_lr_growth_log25_diverged", "deepchem_fit.py",
    "--task cls --lr 0.001 --lr-growth 2 --epochs 12 --log-frequency 25 --log-format time", label="diverged", stop=True)
run("dc_cls_adam_log10_10ep", "deepchem_fit.py", "--task cls --epochs 10 --log-frequency 10")
run("dc_reg_adam_lr_growth_log50_valcb_diverged", "deepchem_fit.py",
    "--task reg --lr 0.001 --lr-growth 3 --epochs 20 --log-frequency 50 --validate 100", label="diverged", stop=True)
run("dc_cls_sgd_lr_growth_log20_diverged", "deepchem_fit.py",
    "--task cls --optimizer sgd --lr 0.05 --lr-growth 2 --epochs 12 --log-frequency 20", label="diverged", stop=True)

# --- RecBole (its logger: 'epoch 3 training [time: 0.01s, train loss: 6.8343]', its log file under log/)
run("rb_bpr_adam_20ep", "recbole_run.py", "--model BPR --epochs 20 --lr 0.005")
run("rb_neumf_adam_eval2_15ep", "recbole_run.py", "--model NeuMF --epochs 15 --eval-step 2")
run("rb_bpr_adam_progress_b128_12ep", "recbole_run.py",
    "--model BPR --epochs 12 --lr 0.002 --batch 128 --show-progress")
run("rb_bpr_sgd_lr_high_diverged", "recbole_run.py", "--model BPR --optimizer sgd --lr 200 --epochs 15",
    label="diverged", stop=True)
run("rb_bpr_sgd_lr1000_b512_eval3_diverged", "recbole_run.py",
    "--model BPR --optimizer sgd --lr 1000 --epochs 12 --batch 512 --eval-step 3", label="diverged", stop=True)

# --- implicit (ALS's tqdm bar: '\r 53%|...| 8/15 [00:00<00:00, 37.97it/s, loss=0.0913]';
# or 'INFO:implicit:loss 0.0913')
run("implicit_als_bar_15it", "implicit_als.py", "--iterations 15")
run("implicit_als_cg_bar_f32_25it", "implicit_als.py", "--iterations 25 --cg --factors 32 --regularization 0.1")
run("implicit_als_nobar_info_12it", "implicit_als.py", "--iterations 12 --no-progress --alpha 4")
run("implicit_als_cg_nobar_info_20it", "implicit_als.py", "--iterations 20 --no-progress --cg --factors 8")
run("implicit_als_bar_alpha10_f8_10it", "implicit_als.py", "--iterations 10 --alpha 10 --factors 8")

# --- Darts (its TFMProgressBar, a Lightning tqdm bar: 'Epoch 2:  40%|...| 6/15 [..., v_num=0, train_loss=0.217]')
run("darts_nbeats_val_8ep", "darts_fit.py", "--model NBEATS --epochs 8")
run("darts_tcn_noval_trainbar_10ep", "darts_fit.py", "--model TCN --epochs 10 --no-val --train-bar-only --lr 0.003")
run("darts_dlinear_val_trainbar_6ep", "darts_fit.py", "--model DLinear --epochs 6 --train-bar-only --lr 0.005")
run("darts_rnn_lstm_val_6ep", "darts_fit.py", "--model RNN --epochs 6 --lr 0.005")
run("darts_nbeats_sgd_lr_high_nan", "darts_fit.py", "--model NBEATS --optimizer sgd --lr 3 --epochs 4",
    label="nan", stop=True)
run("darts_tcn_adam_lr_ramp_diverged", "darts_fit.py", "--model TCN --lr 0.003 --gamma 3 --epochs 8 --no-val",
    label="diverged", stop=True)
run("darts_dlinear_sgd_lr_ramp_trainbar_nan", "darts_fit.py",
    "--model DLinear --optimizer sgd --lr 0.01 --gamma 4 --epochs 6 --train-bar-only", label="nan", stop=True)
run("darts_rnn_lstm_lr_ramp_diverged", "darts_fit.py", "--model RNN --lr 0.005 --gamma 4 --epochs 6",
    label="diverged", stop=True)

# --- PyPOTS (its logger: '2026-12-05 20:10:08 [INFO]: Epoch 003 - training loss (MAE): 1.4617, validation MSE: 0.8571')
run("pypots_saits_val_12ep", "pypots_fit.py", "--model SAITS --epochs 12")
run("pypots_brits_val_8ep", "pypots_fit.py", "--model BRITS --epochs 8 --lr 0.005")
run("pypots_transformer_noval_10ep", "pypots_fit.py", "--model Transformer --epochs 10 --no-val")
run("pypots_dlinear_noval_15ep", "pypots_fit.py", "--model DLinear --epochs 15 --no-val --lr 0.01")
# PyPOTS steps its scheduler every optimizer step (8 a epoch here), and ends fit at the first NaN prediction (an
# `[ERROR]: ❌ Exception: ...` line), so its should-stop runs are finite blow-ups, without validation
run("pypots_saits_lr_ramp_noval_diverged", "pypots_fit.py",
    "--model SAITS --epochs 12 --lr 0.002 --gamma 1.25 --no-val",
    label="diverged", stop=True)
run("pypots_dlinear_lr_ramp_noval_diverged", "pypots_fit.py",
    "--model DLinear --epochs 12 --lr 0.005 --gamma 1.3 --no-val", label="diverged", stop=True)
run("pypots_transformer_lr_ramp_noval_diverged", "pypots_fit.py",
    "--model Transformer --epochs 12 --lr 0.001 --gamma 1.2 --no-val", label="diverged", stop=True)

# --- PFRL (train_agent_with_evaluation at INFO: 'INFO:pfrl.experiments.train_agent:statistics:[('average_q', ...),
# ('average_loss', 0.0498...), ...]' at every episode end; scores.txt per evaluation)
run("pfrl_ddqn_cartpole_g0p9_8k", "pfrl_dqn.py", "--steps 8000 --eval-interval 800 --gamma 0.9")
run("pfrl_dqn_cartpole_g0p9_6k", "pfrl_dqn.py", "--agent DQN --steps 6000 --eval-interval 600 --gamma 0.9")
run("pfrl_ddqn_cartpole_g0p8_lr3e-4_6k", "pfrl_dqn.py", "--steps 6000 --eval-interval 500 --gamma 0.8 --lr 3e-4")
run("pfrl_dqn_sgd_lr_high_diverged", "pfrl_dqn.py", "--agent DQN --optimizer sgd --lr 0.5 --steps 5000 "
    "--eval-interval 500", label="diverged", stop=True)
run("pfrl_ddqn_adam_lr_high_diverged", "pfrl_dqn.py", "--lr 0.05 --steps 5000 --eval-interval 500",
    label="diverged", stop=True)

# --- GluonTS, PyTorch estimators (no validation: ModelCheckpoint on train_loss prints, per epoch,
# "Epoch 3, global step 80: 'train_loss' reached -0.05511 (best -0.05511), saving model to ..."
# or "... was not in top 1")
run("gluonts_deepar_20b_10ep", "gluonts_train.py", "--model DeepAR --epochs 10 --batches 20")
run("gluonts_sff_10b_12ep", "gluonts_train.py", "--model SimpleFeedForward --epochs 12 --batches 10")
run("gluonts_dlinear_lr5e-3_15b_10ep", "gluonts_train.py", "--model DLinear --epochs 10 --batches 15 --lr 0.005")
run("gluonts_deepar_lr1e-2_10b_14ep", "gluonts_train.py", "--model DeepAR --epochs 14 --batches 10 --lr 0.01")
run("gluonts_dlinear_20b_8ep", "gluonts_train.py", "--model DLinear --epochs 8 --batches 20")

# --- SetFit (transformers 5's log dicts with string values between tqdm redraws:
# "{'embedding_loss': '0.4376', 'grad_norm': '0.8483', 'learning_rate': '2e-05', 'epoch': '0.125'}"); made with the
# holdout4-setfit venv's python running this maker (--only setfit_...): its transformers 5 conflicts with PyPOTS'
run("setfit_cosine_lr1e-3_log5_2ep", "setfit_train.py", "--lr 1e-3 --epochs 2")
run("setfit_cosine_lr1e-3_eval10_2ep", "setfit_train.py", "--lr 1e-3 --epochs 2 --eval-steps 10")
run("setfit_contrastive_lr3e-4_iter20_log10", "setfit_train.py",
    "--lr 3e-4 --iterations 20 --logging-steps 10 --loss contrastive")
run("setfit_cosine_lr5e-4_b8_log4_eval20", "setfit_train.py", "--lr 5e-4 --batch 8 --logging-steps 4 --eval-steps 20")


def main() -> int:
    return blind_maker.main(RUNS, HERE, "examples/libraries_holdout4", "libho4", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
